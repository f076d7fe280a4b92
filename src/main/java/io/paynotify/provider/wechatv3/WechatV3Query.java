package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.SubMerchant;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;
import io.paynotify.provider.Fields;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.OrderQuery;
import io.paynotify.provider.QueryHttp;
import io.paynotify.provider.QueryLog;
import io.paynotify.provider.QuerySigning;
import io.paynotify.provider.StrictJson;
import io.paynotify.provider.WechatTradeState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

/**
 * The WeChat Pay v3 order query (docs/api.md "Active query"; WeChat Pay's v3 query API): {@code GET
 * {api-base-url}/v3/pay/transactions/out-trade-no/{outTradeNo}?mchid={mch-id}}, authorised with a SHA256withRSA
 * signature of the merchant API key over the request ({@code WECHATPAY2-SHA256-RSA2048}, as wechatpay-java's
 * {@code WechatPay2Credential} builds it). A {@code 2xx} answer's {@code Wechatpay-*} headers are checked exactly as
 * a notification's ({@link WechatV3Verifier}: the platform key its serial names, ±300 s); its body is the plain
 * transaction JSON. {@code 404 ORDER_NOT_EXIST} means not found, signed or not. On a service provider's channel the
 * partner form is asked ({@link #partnerUri}) and the answer's {@code sp_mchid}/{@code sp_appid} and
 * {@code sub_mchid}/{@code sub_appid} are checked as a notification's.
 */
@ApplicationScoped
public class WechatV3Query implements OrderQuery {

    static final String PATH = "/v3/pay/transactions/out-trade-no/";
    static final String PARTNER_PATH = "/v3/pay/partner/transactions/out-trade-no/";
    static final String AUTH_SCHEMA = "WECHATPAY2-SHA256-RSA2048";
    static final String ORDER_NOT_EXIST = "ORDER_NOT_EXIST";

    private final Clock clock;
    private final QueryHttp http;
    private final WechatV3Verifier verifier;

    @Inject
    public WechatV3Query(Clock clock, QueryHttp http) {
        this.clock = clock;
        this.http = http;
        this.verifier = new WechatV3Verifier(clock);
    }

    @Override
    public Provider provider() {
        return Provider.WECHATPAY_V3;
    }

    @Override
    public QueryAnswer query(Channel channel, QueryTarget order) {
        String outTradeNo = order.outTradeNo();
        return QueryLog.guarded(channel.name(), () -> {
            WechatV3Keys keys = channel.keys(WechatV3Keys.class);
            boolean partner = channel.mode() == AccountMode.PARTNER;
            if (partner && order.subMerchantId() == null) {
                return QueryLog.error(channel.name(), QueryError.MALFORMED, "partner order without a sub-merchant");
            }
            URI uri = partner ? partnerUri(keys, order) : uri(keys, outTradeNo);
            String authorization =
                    authorization(keys, target(uri), clock.instant().getEpochSecond(), QuerySigning.nonce(32));
            QueryHttp.Answer answer = http.send(HttpRequest.newBuilder(uri)
                    .header("Accept", "application/json")
                    .header("Wechatpay-Serial", keys.querySerial())
                    .header("Authorization", authorization)
                    .GET());
            return answer(channel, keys, outTradeNo, answer);
        });
    }

    /**
     * The request URI: the order number and mchid URL-encoded as wechatpay-java's {@code UrlEncoder} does (UTF-8
     * {@code URLEncoder}; our order numbers need it only for {@code |}).
     */
    static URI uri(WechatV3Keys keys, String outTradeNo) {
        return URI.create(keys.apiBaseUrl() + PATH + URLEncoder.encode(outTradeNo, StandardCharsets.UTF_8) + "?mchid="
                + URLEncoder.encode(keys.mchId(), StandardCharsets.UTF_8));
    }

    /**
     * The request URI of a service provider's order (docs/api.md "Account modes"; wechatpay-java's
     * {@code partnerpayments} services): {@code /v3/pay/partner/transactions/out-trade-no/{no}?sp_mchid=…&sub_mchid=…}.
     */
    static URI partnerUri(WechatV3Keys keys, QueryTarget order) {
        return URI.create(keys.apiBaseUrl() + PARTNER_PATH
                + URLEncoder.encode(order.outTradeNo(), StandardCharsets.UTF_8) + "?sp_mchid="
                + URLEncoder.encode(keys.mchId(), StandardCharsets.UTF_8) + "&sub_mchid="
                + URLEncoder.encode(order.subMerchantId(), StandardCharsets.UTF_8));
    }

    /** The request target exactly as the client sends it: raw path, then {@code ?} and the raw query. */
    static String target(URI uri) {
        return uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
    }

    /** The signed message of a GET: method, target, timestamp, nonce and the empty body, each line ending in LF. */
    static String message(String target, long timestamp, String nonce) {
        return "GET\n" + target + "\n" + timestamp + "\n" + nonce + "\n\n";
    }

    /** The {@code Authorization} header value, its parameters in the order of WeChat Pay's documented header. */
    static String authorization(WechatV3Keys keys, String target, long timestamp, String nonce) {
        String signature = QuerySigning.sha256WithRsa(
                keys.merchantPrivateKey(), message(target, timestamp, nonce).getBytes(StandardCharsets.UTF_8));
        return AUTH_SCHEMA + " mchid=\"" + keys.mchId() + "\",nonce_str=\"" + nonce + "\",signature=\"" + signature
                + "\",timestamp=\"" + timestamp + "\",serial_no=\"" + keys.merchantSerial() + "\"";
    }

    /** Checks and classifies an answer (docs/api.md "Active query"). */
    QueryAnswer answer(Channel channel, WechatV3Keys keys, String outTradeNo, QueryHttp.Answer answer) {
        String name = channel.name();
        int status = answer.status();
        if (status == 404 && ORDER_NOT_EXIST.equals(errorCode(answer))) {
            return QueryAnswer.notFound();
        }
        if (status < 200 || status > 299) {
            boolean providerError = status >= 400 && status < 500 && errorCode(answer) != null;
            return QueryLog.error(
                    name, providerError ? QueryError.PROVIDER_ERROR : QueryError.HTTP_STATUS, "HTTP status " + status);
        }
        try {
            verifier.verify(keys.platformKeys(), answer::headerValues, answer.body());
        } catch (NotifyRejection r) {
            return QueryLog.error(
                    name,
                    QueryError.VERIFICATION,
                    r.rejectionCause() == NotifyRejection.Cause.STALE ? "answer timestamp" : "answer signature");
        }
        JsonNode r;
        try {
            r = StrictJson.readObject(answer.body());
        } catch (StrictJson.Malformed e) {
            return QueryLog.error(name, QueryError.MALFORMED, "not a JSON object");
        }
        String answered = StrictJson.text(r, "out_trade_no");
        if (answered != null && !answered.equals(outTradeNo)) {
            return QueryLog.error(name, QueryError.VERIFICATION, "answer names another out_trade_no");
        }
        String state = StrictJson.text(r, "trade_state");
        if (!Fields.isToken(state)) {
            return QueryLog.error(name, QueryError.MALFORMED, "no trade_state");
        }
        JsonNode amount = r.get("amount");
        Long total = WechatV3Adapter.fen(amount == null ? null : amount.get("total"));
        String transactionId = Fields.tokenOrNull(StrictJson.text(r, "transaction_id"));
        QueryResult result = WechatTradeState.classify(state, transactionId != null && total != null);
        if (result == QueryResult.NOT_FINAL) {
            return QueryAnswer.notFinal(state);
        }
        if (result == QueryResult.ERROR) {
            return QueryLog.error(name, QueryError.MALFORMED, "SUCCESS without transaction_id or amount.total");
        }
        NotifyClass cls = OrderQuery.recordedClass(result);
        boolean partner = channel.mode() == AccountMode.PARTNER;
        String mchId = StrictJson.text(r, partner ? "sp_mchid" : "mchid");
        // the query answer's appid is optional (WeChat's query-by-out-trade-no reference: appid 选填), its mchid
        // required: an absent appid is not a mismatch, another one is (as for a refund resource's)
        boolean appIdRequired = false;
        VerifiedNotification n = VerifiedNotification.builder(
                        Provider.WECHATPAY_V3, name, outTradeNo, cls, state, answer.body(), clock.instant())
                .transactionId(transactionId)
                .amount(total)
                .currency(WechatV3Adapter.currency(amount))
                .paidAt(WechatV3Adapter.rfc3339(StrictJson.text(r, "success_time")))
                .accountMismatch(
                        partner
                                ? WechatV3Adapter.partnerMismatch(keys, r, mchId == null ? "" : mchId, appIdRequired)
                                : WechatV3Adapter.accountMismatch(keys, r, mchId == null ? "" : mchId, appIdRequired))
                // a partner answer's sub_mchid (and sub_appid) must be the order's (step b; none matches no order)
                .subMerchant(
                        partner
                                ? new SubMerchant(
                                        WechatV3Adapter.presentOrNull(StrictJson.text(r, "sub_mchid")),
                                        WechatV3Adapter.presentOrNull(StrictJson.text(r, "sub_appid")))
                                : null)
                .build();
        return QueryAnswer.recorded(result, n);
    }

    /** The {@code code} of a v3 error answer ({@code {"code":"…","message":"…"}}), or null. */
    private static String errorCode(QueryHttp.Answer answer) {
        try {
            return Fields.tokenOrNull(StrictJson.text(StrictJson.readObject(answer.body()), "code"));
        } catch (StrictJson.Malformed e) {
            return null;
        }
    }
}
