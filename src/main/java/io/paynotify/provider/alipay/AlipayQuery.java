package io.paynotify.provider.alipay;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;
import io.paynotify.provider.Fields;
import io.paynotify.provider.OrderQuery;
import io.paynotify.provider.QueryHttp;
import io.paynotify.provider.QueryLog;
import io.paynotify.provider.StrictJson;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * Alipay's {@code alipay.trade.query} (docs/api.md "Active query"; Alipay's query API): a UTF-8 form POSTed to the gateway with the
 * public parameters and {@code biz_content={"out_trade_no":"…"}}, signed RSA2 with the app private key over every
 * other parameter ({@code sign_type} included, as the SDK's {@code getSignatureContent}). The answer
 * {@code {"alipay_trade_query_response":{…},"sign":"…"}} is verified with the channel's Alipay public keys over the
 * exact text of the response object as it stands in the body, and once more with {@code \/} read as {@code /} where
 * that fails (the SDK's {@code checkResponseSign}). An unsigned answer or an {@code error_response} is an error,
 * never "not found".
 */
@ApplicationScoped
public class AlipayQuery implements OrderQuery {

    static final String METHOD = "alipay.trade.query";
    /** The answer's object: the method with dots as underscores, then {@code _response}. */
    static final String RESPONSE = "alipay_trade_query_response";

    static final String ERROR_RESPONSE = "error_response";
    static final String SUCCESS_CODE = "10000";
    static final String NOT_EXIST_CODE = "40004";
    static final String NOT_EXIST_SUB_CODE = "ACQ.TRADE_NOT_EXIST";

    private final Clock clock;
    private final AlipayGateway gateway;
    private final AlipayTokens tokens;

    /** For tests and tools: its own store of downloaded certificates, ISV tokens checked when first used. */
    public AlipayQuery(Clock clock, QueryHttp http) {
        this(clock, http, new AlipayCertStore());
    }

    private AlipayQuery(Clock clock, QueryHttp http, AlipayCertStore store) {
        this(clock, http, store, new AlipayTokens(clock, http, store));
    }

    @Inject
    public AlipayQuery(Clock clock, QueryHttp http, AlipayCertStore store, AlipayTokens tokens) {
        this.clock = clock;
        this.gateway = new AlipayGateway(clock, http, store);
        this.tokens = tokens;
    }

    @Override
    public int failedCredentials(Channel channel) {
        return channel.mode() == AccountMode.ISV ? tokens.failed(channel) : 0;
    }

    @Override
    public Provider provider() {
        return Provider.ALIPAY;
    }

    @Override
    public QueryAnswer query(Channel channel, QueryTarget order) {
        String outTradeNo = order.outTradeNo();
        return QueryLog.guarded(channel.name(), () -> {
            AlipayKeys keys = channel.keys(AlipayKeys.class);
            String token = null;
            if (channel.mode() == AccountMode.ISV) {
                // a merchant's app_auth_token is used only while Alipay confirms it valid for that merchant
                // (alipay.open.auth.token.app.query, AlipayTokens); without one nothing is sent
                String authAppId = order.subMerchantId();
                token = tokens.confirmed(channel, keys, authAppId);
                if (token == null) {
                    return QueryLog.error(
                            channel.name(),
                            QueryError.CREDENTIALS,
                            "not queried: auth_app_id=" + (authAppId == null ? "-" : authAppId) + " "
                                    + tokens.whyNot(channel, keys, authAppId));
                }
            }
            AlipayGateway.Verified v = gateway.call(
                    channel.name(), keys, METHOD, AlipayGateway.bizContent("out_trade_no", outTradeNo), token);
            return answer(channel, outTradeNo, v);
        });
    }

    /** Checks and classifies a verified answer (docs/api.md "Active query"). */
    QueryAnswer answer(Channel channel, String outTradeNo, AlipayGateway.Verified v) {
        if (!v.ok()) {
            return v.error();
        }
        String name = channel.name();
        JsonNode r = v.response();
        String code = v.code();
        // the answer carries nothing of the request but the order number: a genuine answer about another order
        // (not found included) must not settle this one
        String answered = StrictJson.text(r, "out_trade_no");
        if (answered != null && !answered.equals(outTradeNo)) {
            return QueryLog.error(name, QueryError.VERIFICATION, "answer names another out_trade_no");
        }
        if (NOT_EXIST_CODE.equals(code) && NOT_EXIST_SUB_CODE.equals(StrictJson.text(r, "sub_code"))) {
            return QueryAnswer.notFound();
        }
        if (!SUCCESS_CODE.equals(code)) {
            return QueryLog.error(name, code == null ? QueryError.MALFORMED : QueryError.PROVIDER_ERROR, "code");
        }
        String status = StrictJson.text(r, "trade_status");
        if (!Fields.isToken(status)) {
            return QueryLog.error(name, QueryError.MALFORMED, "no trade_status");
        }
        return classify(name, outTradeNo, v.body(), r, status);
    }

    /** The answer table of docs/api.md "Active query" for Alipay's {@code trade_status}. */
    private QueryAnswer classify(String name, String outTradeNo, byte[] rawBody, JsonNode r, String status) {
        String sendPayDate = StrictJson.text(r, "send_pay_date");
        boolean paidThenClosed = "TRADE_CLOSED".equals(status) && Fields.present(sendPayDate);
        boolean paid = AlipayAdapter.TRADE_SUCCESS.equals(status)
                || AlipayAdapter.TRADE_FINISHED.equals(status)
                || paidThenClosed;
        String tradeNo = Fields.tokenOrNull(StrictJson.text(r, "trade_no"));
        Long amount = AlipayFormats.yuanToFen(StrictJson.text(r, "total_amount"));
        QueryResult result;
        if (paid) {
            if (tradeNo == null || amount == null) {
                return QueryLog.error(name, QueryError.MALFORMED, "paid without trade_no or total_amount");
            }
            result = QueryResult.PAID;
        } else if ("TRADE_CLOSED".equals(status)) {
            result = QueryResult.CLOSE;
        } else if ("WAIT_BUYER_PAY".equals(status)) {
            return QueryAnswer.notFinal(status);
        } else {
            result = QueryResult.UNKNOWN;
        }
        NotifyClass cls = OrderQuery.recordedClass(result);
        VerifiedNotification n = VerifiedNotification.builder(
                        Provider.ALIPAY, name, outTradeNo, cls, status, rawBody, clock.instant())
                .transactionId(tradeNo)
                .amount(amount)
                .finishedNotice(cls == NotifyClass.PAID && AlipayAdapter.TRADE_FINISHED.equals(status))
                .paidAt(AlipayFormats.time(sendPayDate))
                // the answer names no app id or seller: the account ids check of notifications does not apply to it
                .accountMismatch(false)
                .build();
        return QueryAnswer.recorded(result, n);
    }
}
