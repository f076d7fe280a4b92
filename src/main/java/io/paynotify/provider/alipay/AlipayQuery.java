package io.paynotify.provider.alipay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
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
import io.paynotify.provider.QuerySigning;
import io.paynotify.provider.StrictJson;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static final Pattern CHARSET = Pattern.compile("(?i)charset\\s*=\\s*\"?([A-Za-z0-9_-]+)");

    private final Clock clock;
    private final QueryHttp http;

    @Inject
    public AlipayQuery(Clock clock, QueryHttp http) {
        this.clock = clock;
        this.http = http;
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
            QueryHttp.Answer answer = http.send(HttpRequest.newBuilder(URI.create(keys.gatewayUrl()))
                    .header("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            form(requestParams(keys, outTradeNo, AlipayFormats.timestamp(clock.instant()))),
                            StandardCharsets.UTF_8)));
            return answer(channel, keys, outTradeNo, answer);
        });
    }

    /** The request's parameters, {@code sign} last (docs/api.md "Active query"). */
    static Map<String, String> requestParams(AlipayKeys keys, String outTradeNo, String timestamp) {
        var p = new LinkedHashMap<String, String>();
        p.put("app_id", keys.appId());
        p.put("method", METHOD);
        p.put("format", "JSON");
        p.put("charset", "utf-8");
        p.put("sign_type", "RSA2");
        p.put("timestamp", timestamp);
        p.put("version", "1.0");
        p.put(
                "biz_content",
                "{\"out_trade_no\":\""
                        + new String(JsonStringEncoder.getInstance().quoteAsString(outTradeNo)) + "\"}");
        p.put("sign", sign(p, keys));
        return p;
    }

    /** RSA2 over the request content, in UTF-8 (the request's charset). */
    static String sign(Map<String, String> params, AlipayKeys keys) {
        return QuerySigning.sha256WithRsa(
                keys.appPrivateKey(), AlipaySignature.requestContent(params).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code application/x-www-form-urlencoded}, UTF-8. */
    static String form(Map<String, String> params) {
        var sb = new StringBuilder(512);
        params.forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return sb.toString();
    }

    /**
     * The top-level parts of an answer: the exact text of the response object (or of {@code error_response}), and
     * the {@code sign}.
     */
    record Parts(String response, String error, String sign) {}

    /**
     * Splits an answer, keeping the response object's text exactly as it stands in the body (whitespace, escapes and
     * key order included: that text is what Alipay signed). Duplicate keys, trailing data and anything that is not
     * one JSON object are refused.
     */
    static Parts parts(String body) throws StrictJson.Malformed {
        String response = null;
        String error = null;
        String sign = null;
        try (JsonParser p = StrictJson.parser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new StrictJson.Malformed();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                int start = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                if (RESPONSE.equals(field) && value == JsonToken.START_OBJECT) {
                    response = body.substring(start, end);
                } else if (ERROR_RESPONSE.equals(field) && value == JsonToken.START_OBJECT) {
                    error = body.substring(start, end);
                } else if ("sign".equals(field) && value == JsonToken.VALUE_STRING) {
                    sign = p.getText();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new StrictJson.Malformed();
            }
        } catch (IOException e) {
            throw new StrictJson.Malformed();
        }
        return new Parts(response, error, sign);
    }

    /** True when the sign verifies over the text, or over it with every {@code \/} read as {@code /}. */
    static boolean verified(String response, String sign, Charset charset, AlipayKeys keys) {
        String algorithm = AlipaySignature.algorithm("RSA2");
        if (AlipaySignature.verify(response, charset, sign, algorithm, keys.publicKeys())) {
            return true;
        }
        return response.contains("\\/")
                && AlipaySignature.verify(response.replace("\\/", "/"), charset, sign, algorithm, keys.publicKeys());
    }

    /** Checks and classifies an answer (docs/api.md "Active query"). */
    QueryAnswer answer(Channel channel, AlipayKeys keys, String outTradeNo, QueryHttp.Answer answer) {
        String name = channel.name();
        if (answer.status() != 200) {
            return QueryLog.error(name, QueryError.HTTP_STATUS, "HTTP status " + answer.status());
        }
        Charset charset;
        String body;
        Parts parts;
        JsonNode r;
        try {
            charset = charset(answer.header("Content-Type"));
            body = decode(answer.body(), charset);
            parts = parts(body);
            if (parts.error() != null) {
                return QueryLog.error(name, QueryError.PROVIDER_ERROR, "error_response");
            }
            if (parts.response() == null) {
                return QueryLog.error(name, QueryError.MALFORMED, "no " + RESPONSE);
            }
            r = StrictJson.readObject(parts.response());
        } catch (StrictJson.Malformed e) {
            return QueryLog.error(name, QueryError.MALFORMED, "not a readable JSON answer");
        }
        String code = StrictJson.text(r, "code");
        if (!Fields.present(parts.sign())) {
            // never trusted, whatever it says: a gateway error is a provider error, anything else a forgery
            boolean gatewayError = code != null && !SUCCESS_CODE.equals(code);
            return QueryLog.error(
                    name, gatewayError ? QueryError.PROVIDER_ERROR : QueryError.VERIFICATION, "unsigned answer");
        }
        if (!verified(parts.response(), parts.sign(), charset, keys)) {
            return QueryLog.error(name, QueryError.VERIFICATION, "answer signature");
        }
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
        return classify(name, outTradeNo, answer.body(), r, status);
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

    /** The answer's charset from its Content-Type: UTF-8 (what was asked for) unless it names GBK. */
    static Charset charset(String contentType) throws StrictJson.Malformed {
        Matcher m = contentType == null ? null : CHARSET.matcher(contentType);
        if (m == null || !m.find()) {
            return StandardCharsets.UTF_8;
        }
        try {
            return AlipayForm.charset(m.group(1));
        } catch (AlipayForm.Malformed e) {
            throw new StrictJson.Malformed();
        }
    }

    /** Strict decoding: malformed bytes are refused, never replaced (the text is verified as it stands). */
    static String decode(byte[] body, Charset charset) throws StrictJson.Malformed {
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new StrictJson.Malformed();
        }
    }
}
