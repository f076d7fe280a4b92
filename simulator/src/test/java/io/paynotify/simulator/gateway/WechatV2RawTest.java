package io.paynotify.simulator.gateway;

import static io.paynotify.simulator.gateway.TestGateways.V2_API_KEY;
import static io.paynotify.simulator.gateway.TestGateways.V2_APP_ID;
import static io.paynotify.simulator.gateway.TestGateways.V2_MCH_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** WeChat Pay v2 requests and answers the SDK cannot produce or would hide: refusals and faulty answers. */
class WechatV2RawTest extends GatewayTestBase {

    private static Map<String, String> answer(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response::body);
        return SafeXml.parse(response.body().getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, String> query(String outTradeNo) {
        return answer(raw.v2(RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, outTradeNo, "HMAC-SHA256", V2_API_KEY)));
    }

    private static boolean signedWithTheApiKey(Map<String, String> answer, String signType) {
        return RawRequests.v2Sign(answer, signType, V2_API_KEY).equals(answer.get("sign"));
    }

    @Test
    void a_request_without_sign_type_is_md5_and_so_is_the_answer() {
        gateway.script("v2-md5", ScriptedTrade.of(TradeState.PAID, 1));

        Map<String, String> answer =
                answer(raw.v2(RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, "v2-md5", null, V2_API_KEY)));

        assertEquals("SUCCESS", answer.get("trade_state"));
        assertEquals(32, answer.get("sign").length());
        assertTrue(signedWithTheApiKey(answer, "MD5"), answer::toString);
        assertTrue(gateway.requests().get(0).accepted());
    }

    @Test
    void a_request_signed_with_another_key_is_refused_with_the_signature_error() {
        HttpResponse<String> response = raw.v2(
                RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, "v2-intruder", "MD5", "another-key-another-key-another-"));

        Map<String, String> answer = answer(response);
        assertEquals(Map.of("return_code", "FAIL", "return_msg", "签名错误"), answer);
        RecordedRequest request = gateway.requests().get(0);
        assertFalse(request.accepted());
        assertEquals("v2-intruder", request.outTradeNo());
        assertEquals("wrong or missing sign", request.rejection());
        assertEquals(1, gateway.queryCount("v2-intruder"));
    }

    @Test
    void an_unsigned_request_and_an_unknown_merchant_are_refused() {
        Map<String, String> unsigned = RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, "v2-unsigned", "MD5", V2_API_KEY);
        unsigned.remove("sign");

        assertEquals("FAIL", answer(raw.v2(unsigned)).get("return_code"));
        assertEquals(
                "FAIL",
                answer(raw.v2(RawRequests.v2Query("1999999998", V2_APP_ID, "x1", "MD5", V2_API_KEY)))
                        .get("return_code"));
        assertEquals(
                "FAIL",
                answer(raw.v2(RawRequests.v2Query(V2_MCH_ID, "wxother", "x2", "MD5", V2_API_KEY)))
                        .get("return_code"));
        assertTrue(gateway.requests().stream().noneMatch(RecordedRequest::accepted));
    }

    @Test
    void a_document_with_a_dtd_is_refused_unread() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<xml><mch_id>&x;</mch_id></xml>";
        HttpResponse<String> response =
                raw.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/pay/orderquery"))
                        .POST(HttpRequest.BodyPublishers.ofString(xxe))
                        .build());

        assertEquals("FAIL", answer(response).get("return_code"));
        assertFalse(response.body().contains("root:"));
        assertFalse(gateway.requests().get(0).accepted());
    }

    @Test
    void a_refund_answer_carries_the_payment_unless_told_to_omit_it() {
        gateway.script("v2-refund", ScriptedTrade.of(TradeState.REFUND, 700));
        gateway.script(
                "v2-bare-refund", ScriptedTrade.of(TradeState.REFUND, 700).withFault(Fault.OMIT_PAYMENT));

        Map<String, String> full = query("v2-refund");
        Map<String, String> bare = query("v2-bare-refund");

        assertEquals("700", full.get("total_fee"));
        assertEquals("REFUND", bare.get("trade_state"));
        assertNull(bare.get("transaction_id"));
        assertNull(bare.get("total_fee"));
        assertTrue(signedWithTheApiKey(bare, "HMAC-SHA256"));
    }

    @Test
    void wrong_mch_raw_state_unsigned_and_error_faults() {
        gateway.script("v2-wrong-mch", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.WRONG_MCH));
        gateway.script("v2-weird", ScriptedTrade.of(TradeState.PAID, 1).withRawState("WEIRD"));
        gateway.script("v2-unsigned", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.UNSIGNED));
        gateway.script("v2-error", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.ERROR_RESPONSE));

        Map<String, String> wrongMch = query("v2-wrong-mch");
        assertEquals(WechatV2Api.OTHER_MCH_ID, wrongMch.get("mch_id"));
        assertTrue(signedWithTheApiKey(wrongMch, "HMAC-SHA256"), "WRONG_MCH is correctly signed");
        assertEquals("WEIRD", query("v2-weird").get("trade_state"));
        assertNull(query("v2-unsigned").get("sign"));
        Map<String, String> error = query("v2-error");
        assertEquals("FAIL", error.get("return_code"));
        assertNull(error.get("sign"));
        assertTrue(gateway.requests().stream().allMatch(RecordedRequest::accepted));
    }

    @Test
    void http_500_is_a_front_proxy_page() {
        gateway.script("v2-500", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.HTTP_500));

        HttpResponse<String> response = raw.v2(RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, "v2-500", "MD5", V2_API_KEY));

        assertEquals(500, response.statusCode());
        assertTrue(response.body().contains("500 Internal Server Error"));
    }
}
