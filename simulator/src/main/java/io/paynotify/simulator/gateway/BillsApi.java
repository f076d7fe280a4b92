package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.simulator.gateway.GatewayConfig.AlipayApp;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV2Merchant;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV3Merchant;
import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.simulator.sign.WechatV2Signer;
import io.paynotify.simulator.sign.WechatV3Signer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The providers' bill download APIs, answered from the trades the gateway knows ({@link Bills}) in the providers'
 * exact formats ({@link BillFormats}), and the control API's {@code /_sim/bills}:
 *
 * <ul>
 *   <li>WeChat Pay v2 {@code POST /pay/downloadbill}: the signed XML request checked as the order query's; the answer
 *       is the bill itself (gzip with {@code tar_type=GZIP}, else text), or {@code No Bill Exist} /
 *       {@code Bill Creating} in WeChat's unsigned XML;
 *   <li>WeChat Pay v3 {@code GET /v3/bill/tradebill?bill_date=&bill_type=ALL&tar_type=GZIP}: the Authorization
 *       checked, the signed {@code {"hash_type":"SHA1","hash_value","download_url"}} with the download on this host
 *       ({@code /v3/billdownload/file?token=…}, 5 minutes, its own Authorization checked, the answer unsigned), or
 *       {@code 400 NO_STATEMENT_EXIST} / {@code STATEMENT_CREATING};
 *   <li>Alipay {@code POST /gateway.do} with {@code method=alipay.data.dataservice.bill.downloadurl.query}: the
 *       signed answer's {@code bill_download_url} on this host ({@code /downloadBillFile.resource?…}, 30 s, a plain
 *       GET) to the GBK zip, or a signed {@code 40004 isp.bill_not_exist}.
 * </ul>
 *
 * <pre>
 * PUT    /_sim/bills/{api}/{yyyy-MM-dd}  {"status":"READY|NOT_READY|NO_BILL","hashMismatch":false,
 *                                         "extraPayments":[{"outTradeNo","amount"}],"amounts":{"no":fen},
 *                                         "refunds":[{"outTradeNo","outRefundNo","amount"}]}   → 204
 * GET    /_sim/bills/{api}/{yyyy-MM-dd}  → the script, and "requests": bill API calls received for that api
 * DELETE /_sim/bills                     → 204; forgets bill scripts and links
 * </pre>
 *
 * {@code api} is {@code WECHATPAY_V2}, {@code WECHATPAY_V3} or {@code ALIPAY} (any case).
 */
final class BillsApi {

    static final String V2_PATH = "/pay/downloadbill";
    static final String V3_PATH = "/v3/bill/tradebill";
    static final String V3_DOWNLOAD_PATH = "/v3/billdownload/file";
    static final String ALIPAY_METHOD = "alipay.data.dataservice.bill.downloadurl.query";
    static final String ALIPAY_ROOT = "alipay_data_dataservice_bill_downloadurl_query_response";
    static final String ALIPAY_DOWNLOAD_PATH = "/downloadBillFile.resource";
    static final String CONTROL = "/_sim/bills";

    /** The newer WeChat page gives the download 5 minutes (the older said 30 s); Alipay's lives 30 s. */
    static final Duration V3_LINK = Duration.ofMinutes(5);

    static final Duration ALIPAY_LINK = Duration.ofSeconds(30);

    private static final String ALIPAY_CONTENT_TYPE = "text/html;charset=utf-8";
    private static final Pattern MCHID = Pattern.compile("mchid=\"([^\"]*)\"");
    private static final DateTimeFormatter COMPACT =
            DateTimeFormatter.ofPattern("uuuuMMdd").withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter DASHED =
            DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);
    private static final Set<String> FIELDS = Set.of("status", "hashMismatch", "extraPayments", "amounts", "refunds");

    private final GatewayConfig config;
    private final Bills bills;
    private final ObjectMapper json;
    private final AlipayCerts certs;

    BillsApi(GatewayConfig config, Trades trades, ObjectMapper json, AlipayCerts certs) {
        this.config = config;
        this.bills = new Bills(trades);
        this.json = json;
        this.certs = certs;
    }

    Bills bills() {
        return bills;
    }

    /** Whether this request is one of the bill APIs, a bill download or the bills' control API. */
    static boolean handles(ReceivedRequest request) {
        String path = request.rawPath();
        if (path.equals(V2_PATH)
                || path.equals(V3_PATH)
                || path.equals(V3_DOWNLOAD_PATH)
                || path.equals(ALIPAY_DOWNLOAD_PATH)
                || path.equals(CONTROL)
                || path.startsWith(CONTROL + "/")) {
            return true;
        }
        if (path.equals(AlipayApi.PATH)) {
            try {
                return ALIPAY_METHOD.equals(alipayParameters(request).get("method"));
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return false;
    }

    Reply handle(ReceivedRequest request) {
        String path = request.rawPath();
        String method = request.method();
        if (path.equals(CONTROL) || path.startsWith(CONTROL + "/")) {
            return control(request);
        }
        if (path.equals(V2_PATH)) {
            return method.equals("POST") ? wechatV2(request) : notAllowed("POST");
        }
        if (path.equals(V3_PATH)) {
            return method.equals("GET") ? wechatV3(request) : notAllowed("GET");
        }
        if (path.equals(V3_DOWNLOAD_PATH)) {
            return method.equals("GET") ? wechatV3Download(request) : notAllowed("GET");
        }
        if (path.equals(ALIPAY_DOWNLOAD_PATH)) {
            return method.equals("GET") ? alipayDownload(request) : notAllowed("GET");
        }
        return alipay(request);
    }

    // ------------------------------------------------------------------ WeChat Pay v2

    private Reply wechatV2(ReceivedRequest request) {
        bills.counted(Api.WECHATPAY_V2);
        Map<String, String> f;
        try {
            f = SafeXml.parse(request.body());
        } catch (IllegalArgumentException e) {
            return v2Failure("XML格式错误", null);
        }
        Optional<WechatV2Merchant> m = config.wechatV2(f.get("mch_id"));
        if (m.isEmpty()) {
            return v2Failure("商户号mch_id或sub_mch_id不存在", null);
        }
        if (!m.get().appId().equals(f.get("appid"))) {
            return v2Failure("appid和mch_id不匹配", null);
        }
        String signType = f.get("sign_type");
        if (!WechatV2Signer.known(signType) || !WechatV2Signer.matches(f, signType, m.get().apiKey())) {
            return v2Failure("签名错误", null);
        }
        if (isBlank(f.get("nonce_str"))) {
            return v2Failure("缺少参数nonce_str", null);
        }
        LocalDate day = date(f.get("bill_date"), COMPACT);
        if (day == null) {
            return v2Failure("invalid bill_date", "20001");
        }
        String type = f.getOrDefault("bill_type", "ALL");
        if (!type.equals("ALL")) {
            // the simulator writes ALL bills only
            return v2Failure("invalid bill_type", "20001");
        }
        BillScript script = bills.scriptOf(Api.WECHATPAY_V2, day);
        if (script.status() == BillScript.Status.NOT_READY) {
            return v2Failure("Bill Creating", null);
        }
        List<Bills.Entry> lines = bills.lines(Api.WECHATPAY_V2, m.get().mchId(), day);
        if (script.status() == BillScript.Status.NO_BILL || lines.isEmpty()) {
            return v2Failure("No Bill Exist", "20002");
        }
        byte[] text = BillFormats.utf8(BillFormats.wechat(m.get().appId(), m.get().mchId(), lines));
        if ("GZIP".equals(f.get("tar_type"))) {
            return new Reply(200, List.of(Map.entry("Content-Type", "application/x-gzip")), BillFormats.gzip(text));
        }
        return new Reply(200, List.of(Map.entry("Content-Type", "text/plain;charset=utf-8")), text);
    }

    /** {@code return_code FAIL}: never signed. */
    private static Reply v2Failure(String msg, String errorCode) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("return_code", "FAIL");
        a.put("return_msg", msg);
        if (errorCode != null) {
            a.put("error_code", errorCode);
        }
        return Reply.of(200, "text/xml; charset=utf-8", WechatV2Signer.xml("xml", a, WechatV2Signer.NUMERIC));
    }

    // ------------------------------------------------------------------ WeChat Pay v3

    private Reply wechatV3(ReceivedRequest request) {
        bills.counted(Api.WECHATPAY_V3);
        Map<String, String> query;
        try {
            query = ReceivedRequest.formPairs(request.rawQuery());
        } catch (IllegalArgumentException e) {
            return v3Error(null, request, 400, "PARAM_ERROR", "请求参数格式错误");
        }
        if (isBlank(request.header("Accept")) || isBlank(request.header("User-Agent"))) {
            return v3Error(null, request, 400, "PARAM_ERROR", "请求缺少Accept或User-Agent头");
        }
        WechatV3Authorization.Check check =
                WechatV3Authorization.check(config, request, authorizationMchid(request), Instant.now());
        if (!check.ok()) {
            return v3Error(check.merchant(), request, 401, "SIGN_ERROR", "签名错误: " + check.rejection());
        }
        WechatV3Merchant m = check.merchant();
        LocalDate day = date(query.get("bill_date"), DASHED);
        if (day == null) {
            return v3Error(m, request, 400, "PARAM_ERROR", "bill_date格式错误");
        }
        if (!query.getOrDefault("bill_type", "ALL").equals("ALL")) {
            return v3Error(m, request, 400, "PARAM_ERROR", "the simulator writes ALL bills only");
        }
        BillScript script = bills.scriptOf(Api.WECHATPAY_V3, day);
        if (script.status() == BillScript.Status.NOT_READY) {
            return v3Error(m, request, 400, "STATEMENT_CREATING", "账单生成中");
        }
        List<Bills.Entry> lines = bills.lines(Api.WECHATPAY_V3, m.mchId(), day);
        if (script.status() == BillScript.Status.NO_BILL || lines.isEmpty()) {
            return v3Error(m, request, 400, "NO_STATEMENT_EXIST", "请求的账单文件不存在");
        }
        String text = BillFormats.wechat(m.appId(), m.mchId(), lines);
        byte[] bytes = BillFormats.utf8(text);
        String hash = sha1(script.hashMismatch() ? BillFormats.utf8(text + "\r\n") : bytes);
        byte[] file = "GZIP".equals(query.get("tar_type")) ? BillFormats.gzip(bytes) : bytes;
        String token = bills.offer(file, m.mchId(), V3_LINK);
        Map<String, String> body = new LinkedHashMap<>();
        body.put("hash_type", "SHA1");
        body.put("hash_value", hash);
        body.put("download_url", origin(request) + V3_DOWNLOAD_PATH + "?token=" + token);
        return signed(Reply.json(200, write(body)), m, request);
    }

    private Reply wechatV3Download(ReceivedRequest request) {
        String token;
        try {
            token = ReceivedRequest.formPairs(request.rawQuery()).get("token");
        } catch (IllegalArgumentException e) {
            token = null;
        }
        Optional<Bills.Download> d = bills.download(token);
        if (d.isEmpty()) {
            return v3Error(null, request, 400, "INVALID_REQUEST", "下载链接已失效，请重新申请");
        }
        WechatV3Authorization.Check check =
                WechatV3Authorization.check(config, request, d.get().account(), Instant.now());
        if (!check.ok()) {
            // WeChat answers SIGN_ERROR to a download without its own Authorization (wechatpay-java#322)
            return v3Error(null, request, 401, "SIGN_ERROR", "签名错误: " + check.rejection());
        }
        // no Wechatpay-* signature on the file: its integrity is hash_value
        return new Reply(
                200,
                List.of(
                        Map.entry("Content-Type", "application/octet-stream"),
                        Map.entry("Request-ID", Nonces.alphanumeric(32))),
                d.get().bytes());
    }

    private static String authorizationMchid(ReceivedRequest request) {
        String header = request.header("Authorization");
        Matcher m = header == null ? null : MCHID.matcher(header);
        return m != null && m.find() ? m.group(1) : null;
    }

    private Reply v3Error(WechatV3Merchant m, ReceivedRequest request, int status, String code, String message) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("message", message);
        Reply reply = Reply.json(status, write(body));
        return m == null ? reply.withHeader("Request-ID", Nonces.alphanumeric(32)) : signed(reply, m, request);
    }

    /** WeChat's answer signature: SHA256withRSA over {@code TIMESTAMP\nNONCE\nBODY\n}, by the requested key. */
    private static Reply signed(Reply reply, WechatV3Merchant m, ReceivedRequest request) {
        String serial = m.signingSerial(request.header("Wechatpay-Serial"));
        PrivateKey key = m.platformKeys().get(serial);
        String timestamp = Long.toString(Instant.now().getEpochSecond());
        String nonce = Nonces.alphanumeric(32);
        return reply.withHeader("Request-ID", Nonces.alphanumeric(32))
                .withHeader("Wechatpay-Nonce", nonce)
                .withHeader("Wechatpay-Signature", WechatV3Signer.sign(key, timestamp, nonce, reply.body()))
                .withHeader("Wechatpay-Timestamp", timestamp)
                .withHeader("Wechatpay-Serial", serial);
    }

    // ------------------------------------------------------------------ Alipay

    private Reply alipay(ReceivedRequest request) {
        bills.counted(Api.ALIPAY);
        Map<String, String> p = alipayParameters(request);
        AlipayApp app = config.alipay(p.get("app_id")).orElse(null);
        if (app == null) {
            return alipayAnswer(null, error("40002", "Invalid Arguments", "isv.invalid-app-id", "无效的AppID参数"));
        }
        Map<String, Object> certError = certs.refusal(app.appId(), p);
        if (!"RSA2".equals(p.get("sign_type"))
                || !"utf-8".equalsIgnoreCase(p.get("charset"))
                || isBlank(p.get("timestamp"))
                || !AlipaySigner.verify(
                        AlipaySigner.requestContent(p),
                        StandardCharsets.UTF_8,
                        p.get("sign"),
                        app.appPublicKey(),
                        AlipaySigner.RSA2)) {
            return alipayAnswer(
                    app, error("40002", "Invalid Arguments", "isv.invalid-signature", "验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配"));
        }
        if (certError != null) {
            return alipayAnswer(app, certError);
        }
        JsonNode biz;
        try {
            biz = json.readTree(p.getOrDefault("biz_content", ""));
        } catch (IOException e) {
            biz = null;
        }
        String type = biz == null ? null : biz.path("bill_type").asText(null);
        LocalDate day = biz == null ? null : date(biz.path("bill_date").asText(null), DASHED);
        if (!"trade".equals(type) || day == null) {
            return alipayAnswer(
                    app, error("40004", "Business Failed", "isp.bill_type_or_date_invalid", "账单类型或日期不合法"));
        }
        BillScript script = bills.scriptOf(Api.ALIPAY, day);
        List<Bills.Entry> lines = bills.lines(Api.ALIPAY, app.appId(), day);
        if (script.status() != BillScript.Status.READY || lines.isEmpty()) {
            return alipayAnswer(app, error("40004", "Business Failed", "isp.bill_not_exist", "账单不存在"));
        }
        String account = BillFormats.alipayAccount(app.appId());
        String stem = BillFormats.alipayStem(account, day);
        String token = bills.offer(BillFormats.alipayZip(account, day, lines), app.appId(), ALIPAY_LINK);
        String url = origin(request) + ALIPAY_DOWNLOAD_PATH + "?bizType=trade&userId=" + account + "0156"
                + "&fileType=csv.zip&bizDates=" + day.format(DateTimeFormatter.BASIC_ISO_DATE) + "&downloadFileName="
                + stem + ".csv.zip&fileId=" + token;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("code", "10000");
        r.put("msg", "Success");
        r.put("bill_download_url", url);
        return alipayAnswer(app, r);
    }

    private Reply alipayDownload(ReceivedRequest request) {
        String token;
        try {
            token = ReceivedRequest.formPairs(request.rawQuery()).get("fileId");
        } catch (IllegalArgumentException e) {
            token = null;
        }
        return bills.download(token)
                .map(d -> new Reply(200, List.of(Map.entry("Content-Type", "application/oct-stream")), d.bytes()))
                .orElseGet(() -> Reply.text(404, "the link has expired (30 s): ask for a new one\n"));
    }

    private Reply alipayAnswer(AlipayApp app, Map<String, Object> response) {
        String text = write(response);
        String sign = app == null ? null : AlipaySigner.signAnswer(text, app.alipayPrivateKey());
        String certSn = app == null ? null : certs.answerSn(app.appId());
        return Reply.of(200, ALIPAY_CONTENT_TYPE, AlipayCerts.envelope(ALIPAY_ROOT, text, certSn, sign));
    }

    private static Map<String, Object> error(String code, String msg, String subCode, String subMsg) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("code", code);
        e.put("msg", msg);
        e.put("sub_code", subCode);
        e.put("sub_msg", subMsg);
        return e;
    }

    /** The query string's and the form body's parameters; the body's win where both have one. */
    private static Map<String, String> alipayParameters(ReceivedRequest request) {
        Map<String, String> params = new LinkedHashMap<>(ReceivedRequest.formPairs(request.rawQuery()));
        String contentType = request.header("Content-Type");
        if (contentType == null
                || contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            params.putAll(ReceivedRequest.formPairs(request.bodyText()));
        }
        return params;
    }

    // ------------------------------------------------------------------ control

    private Reply control(ReceivedRequest request) {
        String path = request.rawPath();
        String method = request.method();
        if (path.equals(CONTROL) || path.equals(CONTROL + "/")) {
            if (!method.equals("DELETE")) {
                return notAllowed("DELETE");
            }
            bills.reset();
            return Reply.empty(204);
        }
        String[] parts = path.substring(CONTROL.length() + 1).split("/", -1);
        Api api = parts.length == 2 ? api(parts[0]) : null;
        LocalDate day = parts.length == 2 ? date(parts[1], DASHED) : null;
        if (api == null || day == null) {
            return message(404, "no such path; see PUT/GET /_sim/bills/{WECHATPAY_V2|WECHATPAY_V3|ALIPAY}/{yyyy-MM-dd}");
        }
        return switch (method) {
            case "PUT" -> {
                try {
                    bills.script(api, day, parse(request.body()));
                    yield Reply.empty(204);
                } catch (IllegalArgumentException e) {
                    yield message(400, e.getMessage());
                }
            }
            case "GET" -> show(api, day);
            default -> notAllowed("PUT, GET");
        };
    }

    private static Api api(String segment) {
        for (Api a : Api.values()) {
            if (a.name().equalsIgnoreCase(segment.replace('-', '_'))) {
                return a;
            }
        }
        return null;
    }

    BillScript parse(byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + name + "\"; known: " + FIELDS);
            }
        }
        BillScript.Status status = BillScript.Status.READY;
        JsonNode s = root.get("status");
        if (s != null && !s.isNull()) {
            try {
                status = BillScript.Status.valueOf(s.asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"status\" must be READY, NOT_READY or NO_BILL, not " + s);
            }
        }
        JsonNode h = root.get("hashMismatch");
        if (h != null && !h.isNull() && !h.isBoolean()) {
            throw new IllegalArgumentException("\"hashMismatch\" must be true or false");
        }
        Map<String, Long> amounts = new HashMap<>();
        JsonNode a = root.get("amounts");
        if (a != null && !a.isNull()) {
            if (!a.isObject()) {
                throw new IllegalArgumentException("\"amounts\" must be an object of out_trade_no to fen");
            }
            a.fields().forEachRemaining(e -> amounts.put(e.getKey(), fen(e.getValue(), "amounts." + e.getKey())));
        }
        return new BillScript(
                status,
                h != null && h.asBoolean(),
                lines(root.get("extraPayments"), "extraPayments", false),
                amounts,
                lines(root.get("refunds"), "refunds", true));
    }

    private static List<BillScript.Line> lines(JsonNode node, String field, boolean refunds) {
        List<BillScript.Line> lines = new ArrayList<>();
        if (node == null || node.isNull()) {
            return lines;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("\"" + field + "\" must be an array");
        }
        for (JsonNode l : node) {
            String no = l.path("outTradeNo").asText(null);
            String refundNo = l.path("outRefundNo").asText(null);
            if (isBlank(no) || (refunds && isBlank(refundNo))) {
                throw new IllegalArgumentException("each of \"" + field + "\" needs \"outTradeNo\""
                        + (refunds ? " and \"outRefundNo\"" : "") + " and \"amount\"");
            }
            lines.add(new BillScript.Line(
                    no,
                    fen(l.get("amount"), field + ".amount"),
                    l.path("transactionId").asText(null),
                    refunds ? refundNo : null));
        }
        return lines;
    }

    private static long fen(JsonNode n, String field) {
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-negative integer (fen)");
        }
        return n.asLong();
    }

    private Reply show(Api api, LocalDate day) {
        BillScript s = bills.scriptOf(api, day);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("api", api.name());
        body.put("billDate", day.toString());
        body.put("scripted", bills.scripted(api, day).isPresent());
        body.put("status", s.status().name());
        body.put("hashMismatch", s.hashMismatch());
        body.put("extraPayments", s.extraPayments());
        body.put("amounts", s.amounts());
        body.put("refunds", s.refunds());
        body.put("requests", bills.requests(api));
        return Reply.json(200, write(body));
    }

    // ------------------------------------------------------------------ helpers

    /** The scheme and authority the request came to ({@code http://<Host>}): the links stay on the asked host. */
    private String origin(ReceivedRequest request) {
        String host = request.header("Host");
        return "http://" + (isBlank(host) ? "127.0.0.1" : host.strip());
    }

    private static LocalDate date(String text, DateTimeFormatter f) {
        if (text == null) {
            return null;
        }
        try {
            return LocalDate.parse(text, f);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Reply notAllowed(String allowed) {
        return message(405, "method not allowed here; allowed: " + allowed).withHeader("Allow", allowed);
    }

    private Reply message(int status, String message) {
        return Reply.json(status, write(Map.of("message", message)));
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
