package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The bill APIs and {@code /_sim/bills} over plain HTTP: the control API's answers, the requests the bill APIs refuse
 * as the providers do, and which trades a bill holds (only those the merchant asked about through that API).
 */
class BillsRawTest extends GatewayTestBase {

    static final Instant PAID_AT = Instant.parse("2026-03-01T02:03:04Z");

    HttpResponse<String> put(String path, String json) {
        return raw.send(raw.request(path)
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .header("Content-Type", "application/json")
                .build());
    }

    static Map<String, String> v2Bill(String billDate, String key) {
        Map<String, String> f = new TreeMap<>();
        f.put("appid", TestGateways.V2_APP_ID);
        f.put("mch_id", TestGateways.V2_MCH_ID);
        f.put("nonce_str", "5K8264ILTKCH16CQ2502SI8ZNMTM67VS");
        f.put("sign_type", "MD5");
        f.put("bill_date", billDate);
        f.put("bill_type", "ALL");
        f.put("sign", RawRequests.v2Sign(f, "MD5", key));
        return f;
    }

    HttpResponse<String> v2(Map<String, String> f) {
        String xml = f.entrySet().stream()
                .map(e -> "<" + e.getKey() + ">" + e.getValue() + "</" + e.getKey() + ">")
                .collect(Collectors.joining("", "<xml>", "</xml>"));
        return raw.send(raw.request("/pay/downloadbill")
                .POST(HttpRequest.BodyPublishers.ofString(xml))
                .header("Content-Type", "text/xml")
                .build());
    }

    void knownToV2(String outTradeNo, long fen) {
        gateway.script(outTradeNo, ScriptedTrade.of(TradeState.PAID, fen).withPaidAt(PAID_AT));
        raw.v2(RawRequests.v2Query(
                TestGateways.V2_MCH_ID, TestGateways.V2_APP_ID, outTradeNo, "MD5", TestGateways.V2_API_KEY));
    }

    // ------------------------------------------------------------------ control

    @Test
    void a_bill_script_is_stored_shown_and_forgotten() {
        HttpResponse<String> put = put(
                "/_sim/bills/wechatpay_v2/2026-03-01",
                "{\"status\":\"READY\",\"extraPayments\":[{\"outTradeNo\":\"x-1\",\"amount\":990}],"
                        + "\"amounts\":{\"o-1\":1},\"refunds\":[{\"outTradeNo\":\"o-1\",\"outRefundNo\":\"RF1\",\"amount\":5}]}");
        assertEquals(204, put.statusCode(), put.body());
        JsonNode shown = json(raw.send(raw.request("/_sim/bills/WECHATPAY_V2/2026-03-01").GET().build()));
        assertTrue(shown.path("scripted").asBoolean());
        assertEquals("x-1", shown.path("extraPayments").get(0).path("outTradeNo").asText());
        assertEquals(1, shown.path("amounts").path("o-1").asLong());
        assertEquals("RF1", shown.path("refunds").get(0).path("outRefundNo").asText());
        assertEquals(204, raw.send(raw.request("/_sim/bills").DELETE().build()).statusCode());
        JsonNode after = json(raw.send(raw.request("/_sim/bills/WECHATPAY_V2/2026-03-01").GET().build()));
        assertFalse(after.path("scripted").asBoolean());
    }

    @Test
    void a_bad_script_or_path_is_refused_with_the_reason() {
        assertEquals(400, put("/_sim/bills/ALIPAY/2026-03-01", "{\"colour\":\"red\"}").statusCode());
        assertEquals(400, put("/_sim/bills/ALIPAY/2026-03-01", "{\"status\":\"LATER\"}").statusCode());
        assertEquals(400, put("/_sim/bills/ALIPAY/2026-03-01", "{\"refunds\":[{\"outTradeNo\":\"a\",\"amount\":1}]}")
                .statusCode(), "a refund needs its number");
        assertEquals(404, put("/_sim/bills/PAYPAL/2026-03-01", "{}").statusCode());
        assertEquals(404, put("/_sim/bills/ALIPAY/2026-02-30", "{}").statusCode());
    }

    // ------------------------------------------------------------------ WeChat Pay v2

    @Test
    void v2_without_tar_type_answers_the_text_and_a_wrong_sign_is_refused() {
        knownToV2("raw-v2-1", 100);
        HttpResponse<String> text = v2(v2Bill("20260301", TestGateways.V2_API_KEY));
        assertEquals(200, text.statusCode());
        assertTrue(text.body().startsWith("\uFEFF交易时间,公众账号ID"), text.body());
        assertTrue(text.body().contains("`raw-v2-1,`"));
        assertTrue(text.body().endsWith("`1,`1.00,`0.00,`0.00,`0.00600,`1.00,`0.00\r\n"), text.body());
        HttpResponse<String> forged = v2(v2Bill("20260301", "0".repeat(32)));
        assertTrue(forged.body().contains("<return_msg><![CDATA[签名错误]]></return_msg>"), forged.body());
    }

    @Test
    void a_bill_holds_only_what_that_merchant_asked_about_through_that_api() {
        knownToV2("raw-v2-2", 100);
        // the same trade is not the Alipay app's: its bill of the day does not exist
        Map<String, String> p = new LinkedHashMap<>();
        p.put("app_id", TestGateways.ALIPAY_APP_ID);
        p.put("method", BillsApi.ALIPAY_METHOD);
        p.put("format", "JSON");
        p.put("charset", "utf-8");
        p.put("sign_type", "RSA2");
        p.put("timestamp", "2026-03-02 10:00:00");
        p.put("version", "1.0");
        p.put("biz_content", "{\"bill_type\":\"trade\",\"bill_date\":\"2026-03-01\"}");
        p.put("sign", RawRequests.rsaSign(keys.alipayApp.getPrivate(), RawRequests.alipaySignContent(p)));
        JsonNode a = json(raw.alipay(p)).path(BillsApi.ALIPAY_ROOT);
        assertEquals("isp.bill_not_exist", a.path("sub_code").asText());
        // another day of the v2 merchant has no bill either
        assertTrue(v2(v2Bill("20260302", TestGateways.V2_API_KEY)).body().contains("No Bill Exist"));
        // a scripted NO_BILL hides the day's trades
        gateway.scriptBill(
                Api.WECHATPAY_V2,
                java.time.LocalDate.of(2026, 3, 1),
                BillScript.ready().withStatus(BillScript.Status.NO_BILL));
        assertTrue(v2(v2Bill("20260301", TestGateways.V2_API_KEY)).body().contains("<error_code><![CDATA[20002]]>"));
    }

    @Test
    void alipay_refuses_a_request_signed_by_another_key() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("app_id", TestGateways.ALIPAY_APP_ID);
        p.put("method", BillsApi.ALIPAY_METHOD);
        p.put("charset", "utf-8");
        p.put("sign_type", "RSA2");
        p.put("timestamp", "2026-03-02 10:00:00");
        p.put("version", "1.0");
        p.put("biz_content", "{\"bill_type\":\"trade\",\"bill_date\":\"2026-03-01\"}");
        p.put("sign", RawRequests.rsaSign(keys.stranger.getPrivate(), RawRequests.alipaySignContent(p)));
        JsonNode a = json(raw.alipay(p)).path(BillsApi.ALIPAY_ROOT);
        assertEquals("isv.invalid-signature", a.path("sub_code").asText());
    }

    // ------------------------------------------------------------------ WeChat Pay v3

    @Test
    void v3_refuses_an_unsigned_tradebill_and_a_download_without_its_own_authorization() {
        HttpResponse<String> unsigned = raw.send(raw.request("/v3/bill/tradebill?bill_date=2026-03-01&bill_type=ALL")
                .header("Accept", "application/json")
                .header("User-Agent", "test")
                .GET()
                .build());
        assertEquals(401, unsigned.statusCode());
        assertEquals("SIGN_ERROR", json(unsigned).path("code").asText());

        gateway.script("raw-v3-1", ScriptedTrade.of(TradeState.PAID, 100).withPaidAt(PAID_AT));
        raw.send(raw.v3Query("raw-v3-1", TestGateways.V3_MCH_ID, TestGateways.V3_MERCHANT_SERIAL, keys.v3Merchant.getPrivate())
                .build());
        HttpResponse<String> answer = raw.send(signedGet("/v3/bill/tradebill?bill_date=2026-03-01&bill_type=ALL&tar_type=GZIP"));
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(RawRequests.v3AnswerVerifies(answer, keys.v3Platform.getPublic()), "signed by the platform key");
        String url = json(answer).path("download_url").asText();
        assertTrue(url.startsWith(gateway.baseUrl() + "/v3/billdownload/file?token="), url);
        String target = url.substring(gateway.baseUrl().length());

        HttpResponse<String> bare = raw.send(raw.request(target).GET().build());
        assertEquals(401, bare.statusCode(), "WeChat answers SIGN_ERROR without an Authorization");
        HttpResponse<byte[]> file = sendBytes(signedGet(target));
        assertEquals(200, file.statusCode());
        assertFalse(file.headers().firstValue("Wechatpay-Signature").isPresent(), "the file is not signed");
        assertEquals(0x1F, file.body()[0] & 0xFF, "gzip");
        assertEquals(0x8B, file.body()[1] & 0xFF);

        HttpResponse<String> expired = raw.send(signedGet("/v3/billdownload/file?token=unknown"));
        assertEquals(400, expired.statusCode());
    }

    HttpRequest signedGet(String target) {
        long ts = Instant.now().getEpochSecond();
        String nonce = "593BEC0C930BF1AFEB40B4A08C8FB242";
        String signature =
                RawRequests.rsaSign(keys.v3Merchant.getPrivate(), "GET\n" + target + "\n" + ts + "\n" + nonce + "\n\n");
        return raw.request(target)
                .header("Accept", "application/json")
                .header("User-Agent", "test")
                .header(
                        "Authorization",
                        "WECHATPAY2-SHA256-RSA2048 mchid=\"" + TestGateways.V3_MCH_ID + "\",nonce_str=\"" + nonce
                                + "\",signature=\"" + signature + "\",timestamp=\"" + ts + "\",serial_no=\""
                                + TestGateways.V3_MERCHANT_SERIAL + "\"")
                .GET()
                .build();
    }

    HttpResponse<byte[]> sendBytes(HttpRequest request) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

}
