package io.paynotify.provider.wechatv2;

import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.core.money.MinorUnits;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
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
import io.paynotify.provider.SafeXml;
import io.paynotify.provider.WechatTradeState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The WeChat Pay v2 order query (docs/api.md "Active query"; WeChat Pay's v2 query API): {@code POST {api-base-url}/pay/orderquery} with
 * an XML body of {@code appid} (the channel's first), {@code mch_id}, {@code out_trade_no}, {@code nonce_str},
 * {@code sign_type} and {@code sign}, signed like a notification with the channel's first API key and its strongest
 * allowed type. The answer's signature is checked exactly as a notification's ({@link WechatV2Signature}), then its
 * {@code appid}/{@code mch_id}; {@code trade_state} says what the trade is. On a service provider's channel the
 * request also names the order's {@code sub_mch_id} (and {@code sub_appid}), and the answer's sub-merchant is checked
 * against the order's as a notification's is.
 */
@ApplicationScoped
public class WechatV2Query implements OrderQuery {

    static final String PATH = "/pay/orderquery";
    static final String ORDER_NOT_EXIST = "ORDERNOTEXIST";

    private final Clock clock;
    private final QueryHttp http;

    @Inject
    public WechatV2Query(Clock clock, QueryHttp http) {
        this.clock = clock;
        this.http = http;
    }

    @Override
    public Provider provider() {
        return Provider.WECHATPAY_V2;
    }

    @Override
    public QueryAnswer query(Channel channel, QueryTarget order) {
        String outTradeNo = order.outTradeNo();
        return QueryLog.guarded(channel.name(), () -> {
            WechatV2Keys keys = channel.keys(WechatV2Keys.class);
            boolean partner = channel.mode() == AccountMode.PARTNER;
            if (partner && order.subMerchantId() == null) {
                return QueryLog.error(channel.name(), QueryError.MALFORMED, "partner order without a sub-merchant");
            }
            byte[] body = request(keys, partner ? order : QueryTarget.direct(outTradeNo), QuerySigning.nonce(32));
            QueryHttp.Answer answer = http.send(HttpRequest.newBuilder(URI.create(keys.apiBaseUrl() + PATH))
                    .header("Content-Type", "text/xml; charset=UTF-8")
                    .header("Accept", "text/xml, application/xml")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
            return answer(channel, keys, outTradeNo, answer);
        });
    }

    /** The request's fields of a direct channel's order, in the order they are sent, {@code sign} last. */
    static Map<String, String> requestFields(WechatV2Keys keys, String outTradeNo, String nonce) {
        return requestFields(keys, QueryTarget.direct(outTradeNo), nonce);
    }

    /**
     * The request's fields, in the order they are sent, {@code sign} last; for an order of a service provider's
     * channel also {@code sub_mch_id} and, where the order has one, {@code sub_appid}, both signed (docs/api.md
     * "Account modes").
     */
    static Map<String, String> requestFields(WechatV2Keys keys, QueryTarget order, String nonce) {
        String type = keys.requestSignType();
        var f = new LinkedHashMap<String, String>();
        f.put("appid", keys.appIds().iterator().next());
        f.put("mch_id", keys.mchId());
        if (order.subMerchantId() != null) {
            f.put("sub_mch_id", order.subMerchantId());
            if (order.subAppId() != null) {
                f.put("sub_appid", order.subAppId());
            }
        }
        f.put("out_trade_no", order.outTradeNo());
        f.put("nonce_str", nonce);
        f.put("sign_type", type);
        f.put("sign", sign(f, type, keys.apiKeys().get(0)));
        return f;
    }

    /** The uppercase hex sign of the fields (every field but {@code sign}, {@code sign_type} included). */
    static String sign(Map<String, String> fields, String type, byte[] apiKey) {
        return HexFormat.of()
                .withUpperCase()
                .formatHex(WechatV2Signature.sign(type, WechatV2Signature.content(fields), apiKey));
    }

    /** The request body: {@code <xml>} with one element per field, text escaped. */
    static byte[] request(WechatV2Keys keys, String outTradeNo, String nonce) {
        return request(keys, QueryTarget.direct(outTradeNo), nonce);
    }

    static byte[] request(WechatV2Keys keys, QueryTarget order, String nonce) {
        var xml = new StringBuilder(256).append("<xml>");
        requestFields(keys, order, nonce)
                .forEach((k, v) -> xml.append('<')
                        .append(k)
                        .append('>')
                        .append(escape(v))
                        .append("</")
                        .append(k)
                        .append('>'));
        return xml.append("</xml>").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Checks and classifies an answer (docs/api.md "Active query"). */
    QueryAnswer answer(Channel channel, WechatV2Keys keys, String outTradeNo, QueryHttp.Answer answer) {
        String name = channel.name();
        boolean partner = channel.mode() == AccountMode.PARTNER;
        if (answer.status() != 200) {
            return QueryLog.error(name, QueryError.HTTP_STATUS, "HTTP status " + answer.status());
        }
        Map<String, String> f;
        try {
            f = SafeXml.readFlat(answer.body(), "xml");
        } catch (SafeXml.XmlRefused e) {
            return QueryLog.error(name, QueryError.MALFORMED, "not a flat XML document");
        }
        String returnCode = f.get("return_code");
        if (!Fields.present(returnCode)) {
            return QueryLog.error(name, QueryError.MALFORMED, "no return_code");
        }
        if (!WechatV2Adapter.SUCCESS.equals(returnCode)) {
            // a communication failure (bad signature of ours, bad parameters) is never signed
            return QueryLog.error(name, QueryError.PROVIDER_ERROR, "return_code is not SUCCESS");
        }
        try {
            WechatV2Signature.verify(f, keys);
        } catch (NotifyRejection r) {
            return QueryLog.error(name, QueryError.VERIFICATION, "answer signature");
        }
        String answered = f.get("out_trade_no");
        if (Fields.present(answered) && !answered.equals(outTradeNo)) {
            return QueryLog.error(name, QueryError.VERIFICATION, "answer names another out_trade_no");
        }
        String resultCode = f.get("result_code");
        if (WechatV2Adapter.FAIL.equals(resultCode)) {
            if (ORDER_NOT_EXIST.equals(f.get("err_code"))) {
                return QueryAnswer.notFound();
            }
            return QueryLog.error(name, QueryError.PROVIDER_ERROR, "result_code FAIL");
        }
        if (!WechatV2Adapter.SUCCESS.equals(resultCode)) {
            return QueryLog.error(name, QueryError.MALFORMED, "no result_code");
        }
        String state = f.get("trade_state");
        if (!Fields.isToken(state)) {
            return QueryLog.error(name, QueryError.MALFORMED, "no trade_state");
        }
        String transactionId = Fields.tokenOrNull(f.get("transaction_id"));
        Long amount = MinorUnits.parseFen(f.get("total_fee"));
        QueryResult result = WechatTradeState.classify(state, transactionId != null && amount != null);
        if (result == QueryResult.NOT_FINAL) {
            return QueryAnswer.notFinal(state);
        }
        if (result == QueryResult.ERROR) {
            return QueryLog.error(name, QueryError.MALFORMED, "SUCCESS without transaction_id or total_fee");
        }
        NotifyClass cls = OrderQuery.recordedClass(result);
        String feeType = f.get("fee_type");
        VerifiedNotification n = VerifiedNotification.builder(
                        Provider.WECHATPAY_V2, name, outTradeNo, cls, state, answer.body(), clock.instant())
                .transactionId(transactionId)
                .amount(amount)
                .currency(Fields.present(feeType) ? Fields.currencyOrInvalid(feeType) : "CNY")
                .paidAt(WechatV2Adapter.time(f.get("time_end")))
                // a partner answer's mch_id/appid are the provider's (step a), its sub_mch_id (and sub_appid) must
                // be the order's (step b; an answer naming none matches no order)
                .accountMismatch(
                        partner ? WechatV2Adapter.partnerMismatch(keys, f) : WechatV2Adapter.accountMismatch(keys, f))
                .subMerchant(partner ? WechatV2Adapter.subMerchant(f) : null)
                .build();
        return QueryAnswer.recorded(result, n);
    }
}
