package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.simulator.gateway.GatewayConfig.AlipayApp;
import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.simulator.sign.BeijingTime;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Alipay {@code POST /gateway.do} with {@code method=alipay.trade.query}: reads the parameters from the query string
 * and the form body (the official SDK puts the common ones in the URL and {@code biz_content} in the body), checks
 * them as Alipay's gateway does and answers {@code {"alipay_trade_query_response":{…},"sign":"…"}}, the sign RSA2
 * over the exact text of the response object.
 *
 * <p>Refusals follow what Alipay's gateway is seen to answer (HTTP 200, the error in the method's response object):
 * a wrong signature is {@code 40002 isv.invalid-signature} with the gateway's sign content in {@code sub_msg}
 * ('&' written {@code &amp;}) and is signed, as in the response sample in alipay/alipay-sdk-nodejs-all
 * {@code src/alipay.ts}; an unknown app is {@code 40002 isv.invalid-app-id}, unsigned (no app, no key). A method
 * Alipay does not know is refused in {@code error_response}.
 *
 * @see <a href="https://opendocs.alipay.com/open/82ea786a_alipay.trade.query">alipay.trade.query</a>
 */
final class AlipayApi {

    static final String PATH = "/gateway.do";
    static final String METHOD = "alipay.trade.query";
    static final String ROOT = "alipay_trade_query_response";
    /** The methods this API answers; the bill URL query is {@link BillsApi}'s. */
    static final java.util.Set<String> METHODS =
            java.util.Set.of(METHOD, AlipayIsv.TOKEN_QUERY_METHOD, AlipayCerts.DOWNLOAD_METHOD);
    static final String BUYER_LOGON_ID = "dev***@example.com";
    /** A masked logon id with a '/', for {@link Fault#ESCAPED_SLASHES}. */
    static final String BUYER_LOGON_ID_WITH_SLASH = "a/b***@x.com";

    /** Alipay's gateway answers JSON with this content type. */
    private static final String CONTENT_TYPE = "text/html;charset=utf-8";

    private final GatewayConfig config;
    private final Trades trades;
    private final ForeignKeys foreignKeys;
    private final ObjectMapper json;
    private final TradeOwners owners;
    private final AlipayCerts certs;
    private final AlipayIsv isv;

    AlipayApi(
            GatewayConfig config,
            Trades trades,
            ForeignKeys foreignKeys,
            ObjectMapper json,
            TradeOwners owners,
            AlipayCerts certs) {
        this.config = config;
        this.trades = trades;
        this.foreignKeys = foreignKeys;
        this.json = json;
        this.owners = owners;
        this.certs = certs;
        this.isv = new AlipayIsv(config.modes(), json);
    }

    /** The response object's name for a method: {@code alipay.trade.query} → {@code alipay_trade_query_response}. */
    static String rootOf(String method) {
        return method.replace('.', '_') + "_response";
    }

    Reply handle(ReceivedRequest request) throws InterruptedException {
        Map<String, String> params;
        try {
            params = parameters(request);
        } catch (IllegalArgumentException e) {
            return refuse(
                    request,
                    Map.of(),
                    null,
                    "unreadable parameters: " + e.getMessage(),
                    "error_response",
                    error("40002", "isv.invalid-parameter", "参数无效"),
                    null);
        }
        String outTradeNo = outTradeNo(params.get("biz_content"));
        String method = params.get("method");
        if (isBlank(method)) {
            return refuse(
                    request,
                    params,
                    outTradeNo,
                    "no method",
                    "error_response",
                    error("40001", "isv.missing-method", "缺少方法名参数"),
                    null);
        }
        if (!METHODS.contains(method)) {
            return refuse(
                    request,
                    params,
                    outTradeNo,
                    "method " + method + " is not " + METHOD,
                    "error_response",
                    error("40002", "isv.invalid-method", "不存在的方法名"),
                    null);
        }
        String root = rootOf(method);
        if (isBlank(params.get("app_id"))) {
            return refuse(
                    request,
                    params,
                    outTradeNo,
                    "no app_id",
                    root,
                    error("40001", "isv.missing-app-id", "缺少AppID参数"),
                    null);
        }
        AlipayApp app = config.alipay(params.get("app_id")).orElse(null);
        if (app == null) {
            return refuse(
                    request,
                    params,
                    outTradeNo,
                    "unknown app_id " + params.get("app_id"),
                    root,
                    error("40002", "isv.invalid-app-id", "无效的AppID参数"),
                    null);
        }
        String rejection = checkCommonParameters(params);
        if (rejection != null) {
            return refuse(request, params, outTradeNo, rejection, root, errorFor(rejection), app);
        }
        String content = AlipaySigner.requestContent(params);
        if (!AlipaySigner.verify(
                content, StandardCharsets.UTF_8, params.get("sign"), app.appPublicKey(), AlipaySigner.RSA2)) {
            Map<String, Object> error = error(
                    "40002",
                    "isv.invalid-signature",
                    "验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为：" + content.replace("&", "&amp;"));
            return refuse(
                    request, params, outTradeNo, "sign does not verify with the app public key", root, error, app);
        }
        Map<String, Object> certError = certs.refusal(app.appId(), params);
        if (certError != null) {
            return refuse(
                    request, params, outTradeNo, "certificate mode: " + certError.get("sub_code"), root, certError, app);
        }
        if (method.equals(AlipayIsv.TOKEN_QUERY_METHOD)) {
            trades.record(new RecordedRequest(
                    Api.ALIPAY, null, true, null, request.lowerCaseHeaders(), params, request.receivedAt()));
            return signedAnswer(app, root, write(isv.tokenQuery(app.appId(), params.get("biz_content"))));
        }
        if (method.equals(AlipayCerts.DOWNLOAD_METHOD)) {
            trades.record(new RecordedRequest(
                    Api.ALIPAY, null, true, null, request.lowerCaseHeaders(), params, request.receivedAt()));
            return signedAnswer(app, root, write(certs.download(app.appId(), params.get("biz_content"))));
        }
        // ISV (PROTOCOLS §11.4): app_auth_token selects the merchant, whose trades alone it sees
        String token = params.get("app_auth_token");
        TradeOwners.Owner asking = null;
        if (!isBlank(token)) {
            String authAppId = isv.merchantOf(app.appId(), token).orElse(null);
            if (authAppId == null) {
                return refuse(
                        request,
                        params,
                        outTradeNo,
                        "app_auth_token granted to no merchant of app " + app.appId(),
                        root,
                        AlipayIsv.invalidToken(),
                        app);
            }
            asking = new TradeOwners.Owner(authAppId, null);
        } else if (config.modes().isv(app.appId())) {
            asking = new TradeOwners.Owner(null, null); // the ISV asking for its own trades
        }
        if (isBlank(outTradeNo)) {
            Map<String, Object> error = businessError("ACQ.INVALID_PARAMETER", "参数无效");
            return refuse(
                    request,
                    params,
                    null,
                    "biz_content names no out_trade_no (the gateway answers by it only)",
                    root,
                    error,
                    app);
        }
        if (asking != null) {
            TradeOwners.Owner owner =
                    owners.claim(Api.ALIPAY, outTradeNo, asking, trades.scripted(outTradeNo).isPresent());
            if (!TradeOwners.sameMerchant(owner, asking)) {
                trades.record(new RecordedRequest(
                        Api.ALIPAY,
                        outTradeNo,
                        false,
                        "another merchant's trade (answered ACQ.TRADE_NOT_EXIST)",
                        request.lowerCaseHeaders(),
                        params,
                        request.receivedAt()));
                return answer(app, outTradeNo, ScriptedTrade.of(TradeState.NOT_FOUND, 0));
            }
        }
        trades.record(new RecordedRequest(
                Api.ALIPAY, outTradeNo, true, null, request.lowerCaseHeaders(), params, request.receivedAt()));
        ScriptedTrade trade = trades.answerFor(outTradeNo);
        Faults.pauseIfSlow(trade);
        return answer(app, outTradeNo, trade);
    }

    private Reply answer(AlipayApp app, String outTradeNo, ScriptedTrade trade) {
        Fault fault = trade.fault();
        if (fault == Fault.HTTP_500) {
            return Reply.proxyError500();
        }
        if (fault == Fault.ERROR_RESPONSE) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", "20000");
            error.put("msg", "Service Currently Unavailable");
            error.put("sub_code", "isp.unknow-error");
            error.put("sub_msg", "系统繁忙");
            return Reply.of(200, CONTENT_TYPE, "{\"error_response\":" + write(error) + "}");
        }
        Map<String, Object> response;
        TradeState state = trade.state();
        if (state == TradeState.NOT_FOUND) {
            response = businessError("ACQ.TRADE_NOT_EXIST", "交易不存在");
            response.put("buyer_pay_amount", "0.00");
            response.put("out_trade_no", outTradeNo);
        } else {
            String total = yuan(trade.amountFen());
            response = new LinkedHashMap<>();
            response.put("code", "10000");
            response.put("msg", "Success");
            response.put("buyer_logon_id", fault == Fault.ESCAPED_SLASHES ? BUYER_LOGON_ID_WITH_SLASH : BUYER_LOGON_ID);
            response.put("buyer_pay_amount", state.paid() ? total : "0.00");
            response.put("out_trade_no", outTradeNo);
            if (state.paid()) {
                response.put("send_pay_date", BeijingTime.plain(trade.paidAt()));
            }
            response.put("total_amount", total);
            response.put("trade_no", trade.transactionId());
            response.put("trade_status", trade.rawState() != null ? trade.rawState() : state.alipayName());
        }
        String text = write(response);
        String inBody = fault == Fault.ESCAPED_SLASHES ? text.replace("/", "\\/") : text;
        String sign = null;
        if (fault != Fault.UNSIGNED) {
            sign = AlipaySigner.signAnswer(
                    text, fault == Fault.BAD_SIGNATURE ? foreignKeys.rsa() : app.alipayPrivateKey());
        }
        return Reply.of(200, CONTENT_TYPE, AlipayCerts.envelope(ROOT, inBody, certs.answerSn(app.appId()), sign));
    }

    /** A signed answer of {@code app} (with {@code alipay_cert_sn} in certificate mode). */
    private Reply signedAnswer(AlipayApp app, String root, String text) {
        String sign = AlipaySigner.signAnswer(text, app.alipayPrivateKey());
        return Reply.of(200, CONTENT_TYPE, AlipayCerts.envelope(root, text, certs.answerSn(app.appId()), sign));
    }

    /** The query string's and the form body's parameters; the body's win where both have one. */
    private static Map<String, String> parameters(ReceivedRequest request) {
        Map<String, String> params = new LinkedHashMap<>(ReceivedRequest.formPairs(request.rawQuery()));
        String contentType = request.header("Content-Type");
        if (contentType == null
                || contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            params.putAll(ReceivedRequest.formPairs(request.bodyText()));
        }
        return params;
    }

    /** The first common parameter Alipay would refuse, as its sub_code, or null. */
    private static String checkCommonParameters(Map<String, String> params) {
        if (isBlank(params.get("sign_type"))) {
            return "isv.missing-signature-type";
        }
        if (!"RSA2".equals(params.get("sign_type"))) {
            return "isv.invalid-signature-type";
        }
        if (isBlank(params.get("sign"))) {
            return "isv.missing-signature";
        }
        if (!"utf-8".equalsIgnoreCase(params.get("charset"))) {
            return "isv.invalid-charset";
        }
        if (isBlank(params.get("timestamp"))) {
            return "isv.missing-timestamp";
        }
        try {
            BeijingTime.PLAIN.parse(params.get("timestamp"));
        } catch (DateTimeParseException e) {
            return "isv.invalid-timestamp";
        }
        if (isBlank(params.get("version"))) {
            return "isv.missing-version";
        }
        return null;
    }

    private static Map<String, Object> errorFor(String subCode) {
        return switch (subCode) {
            case "isv.missing-signature-type" -> error("40001", subCode, "缺少签名类型参数");
            case "isv.invalid-signature-type" -> error("40002", subCode, "无效签名类型");
            case "isv.missing-signature" -> error("40001", subCode, "缺少签名参数");
            case "isv.invalid-charset" -> error("40002", subCode, "字符集错误");
            case "isv.missing-timestamp" -> error("40001", subCode, "缺少时间戳参数");
            case "isv.invalid-timestamp" -> error("40002", subCode, "非法的时间戳参数");
            case "isv.missing-version" -> error("40001", subCode, "缺少版本参数");
            default -> error("40002", subCode, subCode);
        };
    }

    private Reply refuse(
            ReceivedRequest request,
            Map<String, String> params,
            String outTradeNo,
            String why,
            String root,
            Map<String, Object> error,
            AlipayApp signer) {
        trades.record(new RecordedRequest(
                Api.ALIPAY, outTradeNo, false, why, request.lowerCaseHeaders(), params, request.receivedAt()));
        String text = write(error);
        String sign = signer == null ? null : AlipaySigner.signAnswer(text, signer.alipayPrivateKey());
        String certSn = signer == null ? null : certs.answerSn(signer.appId());
        return Reply.of(200, CONTENT_TYPE, AlipayCerts.envelope(root, text, certSn, sign));
    }

    private static Map<String, Object> error(String code, String subCode, String subMsg) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("msg", code.equals("40001") ? "Missing Required Arguments" : "Invalid Arguments");
        error.put("sub_code", subCode);
        error.put("sub_msg", subMsg);
        return error;
    }

    private static Map<String, Object> businessError(String subCode, String subMsg) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", "40004");
        error.put("msg", "Business Failed");
        error.put("sub_code", subCode);
        error.put("sub_msg", subMsg);
        return error;
    }

    private String outTradeNo(String bizContent) {
        if (isBlank(bizContent)) {
            return null;
        }
        try {
            JsonNode node = json.readTree(bizContent).path("out_trade_no");
            return node.isTextual() ? node.asText() : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** Fen as Alipay's yuan string: 100 → "1.00". */
    static String yuan(long fen) {
        return BigDecimal.valueOf(fen, 2).toPlainString();
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
