package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dev gateway ({@link GatewayConfig#dev()}, what {@code serve} runs) answers the account-mode queries of CONTRACT
 * §10 as the providers do, checked with hand-built requests: WeChat partner queries (v2 {@code sub_mch_id}, v3
 * {@code /v3/pay/partner/…}) see only their sub-merchant's trades, the Alipay ISV's {@code app_auth_token} selects
 * the merchant and {@code alipay.open.auth.token.app.query} confirms it, and the certificate-mode app needs its SNs,
 * answers naming {@code alipay_cert_sn} and hands out (re-issued) certificates.
 */
class AccountModesRawTest {

    /** The dev SNs as alipay-sdk-java computes them (AccountModesSdkTest proves it; simulator/keys/README.md). */
    static final String APP_CERT_SN = "8048a70217ac8c1f6769eae03eb9ea59";

    static final String ALIPAY_CERT_SN = "4e89dc8c5a9e6d749324aef6d2da5eba";
    static final String REISSUED_SN = "31151ecd6225d744b1321d44274ead80";
    static final String ROOT_CERT_SN = "321e2ee15e1a58d15c04deeb4da521ae";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String V2_SUB_A = DevMerchants.WECHAT_V2_SP_SUB_MERCHANTS.get(0);
    private static final String V2_SUB_B = DevMerchants.WECHAT_V2_SP_SUB_MERCHANTS.get(1);
    private static final String V3_SUB_A = DevMerchants.WECHAT_V3_SP_SUB_MERCHANTS.get(0);
    private static final String V3_SUB_B = DevMerchants.WECHAT_V3_SP_SUB_MERCHANTS.get(1);
    private static final String ISV_A = "2021000000000021";
    private static final String ISV_B = "2021000000000022";

    static Gateway gateway;
    static RawRequests raw;

    @BeforeAll
    static void start() throws IOException {
        gateway = Gateway.start(GatewayConfig.dev().withPort(0));
        raw = new RawRequests(gateway);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void reset() {
        gateway.reset();
    }

    // ------------------------------------------------------------------ WeChat v2 partner

    static Map<String, String> v2PartnerQuery(String outTradeNo, String subMchId, String subAppId) {
        Map<String, String> f = new TreeMap<>();
        f.put("appid", DevMerchants.WECHAT_V2_SP_APP_ID);
        f.put("mch_id", DevMerchants.WECHAT_V2_SP_MCH_ID);
        if (subMchId != null) {
            f.put("sub_mch_id", subMchId);
        }
        if (subAppId != null) {
            f.put("sub_appid", subAppId);
        }
        f.put("out_trade_no", outTradeNo);
        f.put("nonce_str", "5K8264ILTKCH16CQ2502SI8ZNMTM67VS");
        f.put("sign_type", "HMAC-SHA256");
        f.put("sign", RawRequests.v2Sign(f, "HMAC-SHA256", DevMerchants.WECHAT_V2_SP_API_KEY));
        return f;
    }

    static Map<String, String> v2Answer(HttpResponse<String> r) {
        assertEquals(200, r.statusCode());
        return SafeXml.parse(r.body().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void v2_partner_query_answers_the_sub_merchant_and_echoes_it_signed_with_the_providers_key() {
        gateway.script("SP2-1", ScriptedTrade.of(TradeState.PAID, 300));

        Map<String, String> a = v2Answer(raw.v2(v2PartnerQuery("SP2-1", V2_SUB_A, "wxsubapp0000000a")));

        assertEquals("SUCCESS", a.get("result_code"), a.toString());
        assertEquals("SUCCESS", a.get("trade_state"));
        assertEquals(DevMerchants.WECHAT_V2_SP_MCH_ID, a.get("mch_id"));
        assertEquals(DevMerchants.WECHAT_V2_SP_APP_ID, a.get("appid"));
        assertEquals(V2_SUB_A, a.get("sub_mch_id"));
        assertEquals("wxsubapp0000000a", a.get("sub_appid"));
        assertEquals("300", a.get("total_fee"));
        assertEquals(RawRequests.v2Sign(a, "HMAC-SHA256", DevMerchants.WECHAT_V2_SP_API_KEY), a.get("sign"));
    }

    @Test
    void v2_another_sub_merchant_asking_for_the_trade_gets_order_not_exist() {
        gateway.script("SP2-2", ScriptedTrade.of(TradeState.PAID, 300));
        assertEquals("SUCCESS", v2Answer(raw.v2(v2PartnerQuery("SP2-2", V2_SUB_A, null))).get("result_code"));

        Map<String, String> other = v2Answer(raw.v2(v2PartnerQuery("SP2-2", V2_SUB_B, null)));
        assertEquals("SUCCESS", other.get("return_code"));
        assertEquals("FAIL", other.get("result_code"));
        assertEquals("ORDERNOTEXIST", other.get("err_code"));
        assertEquals(V2_SUB_B, other.get("sub_mch_id"));
        assertNull(other.get("trade_state"));
        // the owner still sees it
        assertEquals("SUCCESS", v2Answer(raw.v2(v2PartnerQuery("SP2-2", V2_SUB_A, null))).get("trade_state"));
    }

    @Test
    void v2_a_trade_scripted_for_a_sub_merchant_is_not_found_under_the_first_other_asker() {
        scriptOver("SP2-3", "{\"state\":\"PAID\",\"amount\":100,\"subMerchant\":\"" + V2_SUB_B + "\"}");

        assertEquals("ORDERNOTEXIST", v2Answer(raw.v2(v2PartnerQuery("SP2-3", V2_SUB_A, null))).get("err_code"));
        assertEquals("SUCCESS", v2Answer(raw.v2(v2PartnerQuery("SP2-3", V2_SUB_B, null))).get("trade_state"));
    }

    @Test
    void v2_a_service_provider_must_name_one_of_its_sub_merchants() {
        gateway.script("SP2-4", ScriptedTrade.of(TradeState.PAID, 100));

        Map<String, String> none = v2Answer(raw.v2(v2PartnerQuery("SP2-4", null, null)));
        assertEquals("FAIL", none.get("return_code"));
        assertEquals("缺少参数sub_mch_id", none.get("return_msg"));
        Map<String, String> foreign = v2Answer(raw.v2(v2PartnerQuery("SP2-4", "1999999991", null)));
        assertEquals("FAIL", foreign.get("return_code"));
        assertEquals("mch_id与sub_mch_id不匹配", foreign.get("return_msg"));
    }

    @Test
    void concurrent_first_queries_of_two_sub_merchants_bind_the_trade_to_exactly_one() {
        gateway.script("SP2-RACE", ScriptedTrade.of(TradeState.PAID, 100));
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 32; i++) {
            String sub = i % 2 == 0 ? V2_SUB_A : V2_SUB_B;
            String xml = v2PartnerQuery("SP2-RACE", sub, null).entrySet().stream()
                    .map(e -> "<" + e.getKey() + ">" + e.getValue() + "</" + e.getKey() + ">")
                    .collect(java.util.stream.Collectors.joining("", "<xml>", "</xml>"));
            sent.add(raw.sendAsync(raw.request("/pay/orderquery")
                    .header("Content-Type", "text/xml")
                    .POST(HttpRequest.BodyPublishers.ofString(xml))
                    .build()));
        }
        Map<String, Long> paidBySub = new TreeMap<>();
        Map<String, Long> missingBySub = new TreeMap<>();
        for (var f : sent) {
            Map<String, String> a = v2Answer(f.join());
            (a.containsKey("trade_state") ? paidBySub : missingBySub).merge(a.get("sub_mch_id"), 1L, Long::sum);
        }
        assertEquals(1, paidBySub.size(), "one sub-merchant owns the trade: " + paidBySub + " / " + missingBySub);
        String owner = paidBySub.keySet().iterator().next();
        assertEquals(16L, paidBySub.get(owner));
        assertEquals(1, missingBySub.size());
        assertEquals(16L, missingBySub.get(owner.equals(V2_SUB_A) ? V2_SUB_B : V2_SUB_A));
        assertEquals(16, gateway.requests().stream().filter(RecordedRequest::accepted).count());
    }

    // ------------------------------------------------------------------ WeChat v3 partner

    static PrivateKey spMerchantKey() {
        return DevMerchants.privateKeyResource(DevMerchants.KEY_DIR + "wechatpay-v3-dev-sp-merchant-private.pem");
    }

    static PublicKey spPlatformKey() {
        return DevMerchants.publicKeyResource(DevMerchants.KEY_DIR + "wechatpay-v3-dev-sp-platform-public.pem");
    }

    static HttpResponse<String> v3Partner(String outTradeNo, String query) {
        String target = "/v3/pay/partner/transactions/out-trade-no/" + outTradeNo + "?" + query;
        long timestamp = Instant.now().getEpochSecond();
        String nonce = "593BEC0C930BF1AFEB40B4A08C8FB242";
        String signature =
                RawRequests.rsaSign(spMerchantKey(), "GET\n" + target + "\n" + timestamp + "\n" + nonce + "\n\n");
        String authorization = "WECHATPAY2-SHA256-RSA2048 mchid=\"" + DevMerchants.WECHAT_V3_SP_MCH_ID
                + "\",nonce_str=\"" + nonce + "\",signature=\"" + signature + "\",timestamp=\"" + timestamp
                + "\",serial_no=\"" + DevMerchants.WECHAT_V3_SP_MERCHANT_SERIAL + "\"";
        return raw.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + target))
                .header("Accept", "application/json")
                .header("User-Agent", "paynotify-simulator-test/1.0")
                .header("Authorization", authorization)
                .GET()
                .build());
    }

    static String spQuery(String sub) {
        return "sp_mchid=" + DevMerchants.WECHAT_V3_SP_MCH_ID + (sub == null ? "" : "&sub_mchid=" + sub);
    }

    @Test
    void v3_partner_query_answers_the_partner_transaction_signed_with_the_providers_platform_key() {
        scriptOver(
                "SP3-1",
                "{\"state\":\"PAID\",\"amount\":700,\"subMerchant\":\"" + V3_SUB_A
                        + "\",\"subAppId\":\"wxsubapp0000000c\"}");

        HttpResponse<String> r = v3Partner("SP3-1", spQuery(V3_SUB_A));

        assertEquals(200, r.statusCode(), r.body());
        assertTrue(RawRequests.v3AnswerVerifies(r, spPlatformKey()));
        assertEquals(
                DevMerchants.WECHAT_V3_SP_PLATFORM_SERIAL,
                r.headers().firstValue("Wechatpay-Serial").orElseThrow());
        JsonNode t = json(r);
        assertEquals(DevMerchants.WECHAT_V3_SP_MCH_ID, t.path("sp_mchid").asText());
        assertEquals(DevMerchants.WECHAT_V3_SP_APP_ID, t.path("sp_appid").asText());
        assertEquals(V3_SUB_A, t.path("sub_mchid").asText());
        assertEquals("wxsubapp0000000c", t.path("sub_appid").asText());
        assertFalse(t.has("mchid"));
        assertFalse(t.has("appid"));
        assertEquals("SUCCESS", t.path("trade_state").asText());
        assertEquals(700, t.path("amount").path("total").asInt());
        assertTrue(t.path("payer").has("sp_openid"));
    }

    @Test
    void v3_another_sub_merchant_gets_order_not_exist_and_a_missing_or_foreign_sub_mchid_is_refused() {
        gateway.script("SP3-2", ScriptedTrade.of(TradeState.PAID, 100));
        assertEquals(200, v3Partner("SP3-2", spQuery(V3_SUB_A)).statusCode());

        HttpResponse<String> other = v3Partner("SP3-2", spQuery(V3_SUB_B));
        assertEquals(404, other.statusCode());
        assertEquals("ORDER_NOT_EXIST", json(other).path("code").asText());
        assertTrue(RawRequests.v3AnswerVerifies(other, spPlatformKey()));

        HttpResponse<String> none = v3Partner("SP3-2", spQuery(null));
        assertEquals(400, none.statusCode());
        assertEquals("PARAM_ERROR", json(none).path("code").asText());
        assertEquals(400, v3Partner("SP3-2", spQuery("1999999991")).statusCode());
    }

    // ------------------------------------------------------------------ Alipay ISV

    static PrivateKey isvKey() {
        return DevMerchants.privateKeyResource(DevMerchants.KEY_DIR + "alipay-isv-dev-app-private.pem");
    }

    static PublicKey isvAlipayKey() {
        return DevMerchants.publicKeyResource(DevMerchants.KEY_DIR + "alipay-isv-dev-public.pem");
    }

    /** A signed request of {@code appId}; {@code extra} (app_auth_token, SNs) signed with the rest. */
    static Map<String, String> alipay(
            String appId, String method, String bizContent, Map<String, String> extra, PrivateKey key) {
        Map<String, String> p = new LinkedHashMap<>(RawRequests.alipayQuery(appId, "x", key));
        p.remove("sign");
        p.put("method", method);
        p.put("biz_content", bizContent);
        p.putAll(extra);
        p.put("sign", RawRequests.rsaSign(key, RawRequests.alipaySignContent(p)));
        return p;
    }

    /** The response object, after checking the answer's sign over its exact text with {@code alipayKey}. */
    static JsonNode alipayAnswer(HttpResponse<String> r, String root, PublicKey alipayKey) {
        assertEquals(200, r.statusCode());
        String body = r.body();
        String prefix = "{\"" + root + "\":";
        assertTrue(body.startsWith(prefix), body);
        JsonNode whole = json(r);
        String text = whole.get(root).toString();
        assertTrue(body.startsWith(prefix + text), "the response object is written compactly: " + body);
        assertTrue(RawRequests.rsaVerify(alipayKey, text, whole.path("sign").asText()), body);
        return whole;
    }

    @Test
    void isv_app_auth_token_selects_the_merchant_whose_trades_alone_it_sees() {
        gateway.script("ISV-1", ScriptedTrade.of(TradeState.PAID, 1200));
        String biz = "{\"out_trade_no\":\"ISV-1\"}";
        String root = "alipay_trade_query_response";

        JsonNode a = alipayAnswer(
                raw.alipay(alipay(
                        DevMerchants.ALIPAY_ISV_APP_ID,
                        "alipay.trade.query",
                        biz,
                        Map.of("app_auth_token", DevMerchants.ALIPAY_ISV_TOKENS.get(ISV_A)),
                        isvKey())),
                root,
                isvAlipayKey());
        assertEquals("10000", a.path(root).path("code").asText());
        assertEquals("TRADE_SUCCESS", a.path(root).path("trade_status").asText());

        JsonNode b = alipayAnswer(
                raw.alipay(alipay(
                        DevMerchants.ALIPAY_ISV_APP_ID,
                        "alipay.trade.query",
                        biz,
                        Map.of("app_auth_token", DevMerchants.ALIPAY_ISV_TOKENS.get(ISV_B)),
                        isvKey())),
                root,
                isvAlipayKey());
        assertEquals("ACQ.TRADE_NOT_EXIST", b.path(root).path("sub_code").asText());

        JsonNode bogus = alipayAnswer(
                raw.alipay(alipay(
                        DevMerchants.ALIPAY_ISV_APP_ID,
                        "alipay.trade.query",
                        biz,
                        Map.of("app_auth_token", "202601BBnotatoken"),
                        isvKey())),
                root,
                isvAlipayKey());
        assertEquals("20001", bogus.path(root).path("code").asText());
        assertEquals("aop.invalid-app-auth-token", bogus.path(root).path("sub_code").asText());
    }

    @Test
    void isv_token_query_confirms_a_granted_token_and_refuses_an_unknown_one() {
        String root = "alipay_open_auth_token_app_query_response";
        for (Map.Entry<String, String> e : DevMerchants.ALIPAY_ISV_TOKENS.entrySet()) {
            JsonNode r = alipayAnswer(
                    raw.alipay(alipay(
                            DevMerchants.ALIPAY_ISV_APP_ID,
                            AlipayIsv.TOKEN_QUERY_METHOD,
                            "{\"app_auth_token\":\"" + e.getValue() + "\"}",
                            Map.of(),
                            isvKey())),
                    root,
                    isvAlipayKey());
            assertEquals("10000", r.path(root).path("code").asText());
            assertEquals("valid", r.path(root).path("status").asText());
            assertEquals(e.getKey(), r.path(root).path("auth_app_id").asText());
            assertTrue(r.path(root).path("user_id").asText().startsWith("2088"));
            assertEquals(31536000, r.path(root).path("expires_in").asLong());
        }
        JsonNode unknown = alipayAnswer(
                raw.alipay(alipay(
                        DevMerchants.ALIPAY_ISV_APP_ID,
                        AlipayIsv.TOKEN_QUERY_METHOD,
                        "{\"app_auth_token\":\"202601BBnotatoken\"}",
                        Map.of(),
                        isvKey())),
                root,
                isvAlipayKey());
        assertEquals("40004", unknown.path(root).path("code").asText());
        assertFalse(unknown.path(root).has("status"));
    }

    // ------------------------------------------------------------------ Alipay certificate mode

    static PrivateKey certAppKey() {
        return DevMerchants.privateKeyResource(DevMerchants.KEY_DIR + "alipay-cert-dev-app-private.pem");
    }

    static PublicKey certAlipayKey() {
        return DevMerchants.publicKeyResource(DevMerchants.KEY_DIR + "alipay-cert-dev-public.pem");
    }

    static Map<String, String> sns(String app, String root) {
        Map<String, String> m = new LinkedHashMap<>();
        if (app != null) {
            m.put("app_cert_sn", app);
        }
        if (root != null) {
            m.put("alipay_root_cert_sn", root);
        }
        return m;
    }

    static HttpResponse<String> certQuery(String outTradeNo, Map<String, String> sns) {
        return raw.alipay(alipay(
                DevMerchants.ALIPAY_CERT_APP_ID,
                "alipay.trade.query",
                "{\"out_trade_no\":\"" + outTradeNo + "\"}",
                sns,
                certAppKey()));
    }

    @Test
    void certificate_mode_requests_need_the_configured_sns() {
        gateway.script("CERT-1", ScriptedTrade.of(TradeState.PAID, 100));
        String root = "alipay_trade_query_response";
        Map<Map<String, String>, String> cases = new LinkedHashMap<>();
        cases.put(sns(null, ROOT_CERT_SN), "isv.missing-app-cert-sn");
        cases.put(sns(ALIPAY_CERT_SN, ROOT_CERT_SN), "isv.app-cert-not-exist");
        cases.put(sns(APP_CERT_SN, null), "isv.missing-alipay-root-cert-sn");
        cases.put(sns(APP_CERT_SN, "687b59193f3f462dd5336e5abf83c5d8_" + ROOT_CERT_SN), "isv.invalid-alipay-root-cert-sn");
        cases.forEach((params, subCode) -> {
            JsonNode r = alipayAnswer(certQuery("CERT-1", params), root, certAlipayKey());
            assertEquals(subCode, r.path(root).path("sub_code").asText(), params.toString());
        });
        assertEquals(0, gateway.requests().stream().filter(RecordedRequest::accepted).count());
    }

    @Test
    void certificate_mode_answers_name_alipay_cert_sn_beside_sign_and_a_rotation_hands_out_the_reissue() {
        gateway.script("CERT-2", ScriptedTrade.of(TradeState.PAID, 100));
        String root = "alipay_trade_query_response";

        HttpResponse<String> r = certQuery("CERT-2", sns(APP_CERT_SN, ROOT_CERT_SN));
        JsonNode ok = alipayAnswer(r, root, certAlipayKey());
        assertEquals("10000", ok.path(root).path("code").asText());
        assertEquals(ALIPAY_CERT_SN, ok.path("alipay_cert_sn").asText());
        assertTrue(r.body().contains("},\"alipay_cert_sn\":\"" + ALIPAY_CERT_SN + "\",\"sign\":\""), r.body());

        HttpResponse<String> put = raw.send(raw.request(AlipayCerts.CONTROL)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"rotated\":true}"))
                .build());
        assertEquals(204, put.statusCode());
        JsonNode rotated = alipayAnswer(certQuery("CERT-2", sns(APP_CERT_SN, ROOT_CERT_SN)), root, certAlipayKey());
        assertEquals(REISSUED_SN, rotated.path("alipay_cert_sn").asText());

        String dlRoot = "alipay_open_app_alipaycert_download_response";
        JsonNode dl = alipayAnswer(
                raw.alipay(alipay(
                        DevMerchants.ALIPAY_CERT_APP_ID,
                        AlipayCerts.DOWNLOAD_METHOD,
                        "{\"alipay_cert_sn\":\"" + REISSUED_SN + "\"}",
                        sns(APP_CERT_SN, ROOT_CERT_SN),
                        certAppKey())),
                dlRoot,
                certAlipayKey());
        assertEquals("10000", dl.path(dlRoot).path("code").asText());
        String pem = new String(
                Base64.getDecoder().decode(dl.path(dlRoot).path("alipay_cert_content").asText()),
                StandardCharsets.US_ASCII);
        List<X509Certificate> chain = AlipayCertMode.certificates(pem);
        X509Certificate leaf = AlipayCertMode.leaf(chain);
        assertEquals(REISSUED_SN, io.paynotify.simulator.sign.AlipayPki.sn(leaf));
        assertEquals(certAlipayKey(), leaf.getPublicKey(), "a re-issue keeps Alipay's key");

        JsonNode unknown = alipayAnswer(
                raw.alipay(alipay(
                        DevMerchants.ALIPAY_CERT_APP_ID,
                        AlipayCerts.DOWNLOAD_METHOD,
                        "{\"alipay_cert_sn\":\"00000000000000000000000000000000\"}",
                        sns(APP_CERT_SN, ROOT_CERT_SN),
                        certAppKey())),
                dlRoot,
                certAlipayKey());
        assertEquals("40004", unknown.path(dlRoot).path("code").asText());

        HttpResponse<String> delete =
                raw.send(raw.request("/_sim/trades").DELETE().build());
        assertEquals(204, delete.statusCode());
        gateway.script("CERT-2", ScriptedTrade.of(TradeState.PAID, 100));
        assertEquals(
                ALIPAY_CERT_SN,
                alipayAnswer(certQuery("CERT-2", sns(APP_CERT_SN, ROOT_CERT_SN)), root, certAlipayKey())
                        .path("alipay_cert_sn")
                        .asText());
    }

    @Test
    void a_direct_app_answers_without_alipay_cert_sn() {
        gateway.script("DIRECT-1", ScriptedTrade.of(TradeState.PAID, 100));
        PrivateKey key = DevMerchants.privateKeyResource(DevMerchants.KEY_DIR + "alipay-dev-app-private.pem");
        HttpResponse<String> r = raw.alipay(
                alipay(DevMerchants.ALIPAY_APP_ID, "alipay.trade.query", "{\"out_trade_no\":\"DIRECT-1\"}", Map.of(), key));
        JsonNode a = alipayAnswer(
                r,
                "alipay_trade_query_response",
                DevMerchants.publicKeyResource(DevMerchants.KEY_DIR + "alipay-dev-public.pem"));
        assertFalse(a.has("alipay_cert_sn"));
        assertEquals("10000", a.path("alipay_trade_query_response").path("code").asText());
    }

    // ------------------------------------------------------------------ plumbing

    static void scriptOver(String outTradeNo, String body) {
        HttpResponse<String> r = raw.send(raw.request("/_sim/trades/" + outTradeNo)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build());
        assertEquals(204, r.statusCode(), r.body());
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }
}
