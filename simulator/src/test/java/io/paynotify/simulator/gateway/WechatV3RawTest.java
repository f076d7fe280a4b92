package io.paynotify.simulator.gateway;

import static io.paynotify.simulator.gateway.TestGateways.V3_MCH_ID;
import static io.paynotify.simulator.gateway.TestGateways.V3_MERCHANT_SERIAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** WeChat Pay v3 requests and answers the SDK cannot produce or would hide: refusals and faulty answers. */
class WechatV3RawTest extends GatewayTestBase {

    private static HttpResponse<String> query(String outTradeNo) {
        return raw.send(raw.v3Query(outTradeNo, V3_MCH_ID, V3_MERCHANT_SERIAL, keys.v3Merchant.getPrivate())
                .build());
    }

    private static boolean signedByThePlatform(HttpResponse<String> response) {
        return RawRequests.v3AnswerVerifies(response, keys.v3Platform.getPublic());
    }

    @Test
    void a_request_signed_with_another_key_is_401_SIGN_ERROR() {
        HttpResponse<String> response =
                raw.send(raw.v3Query("v3-intruder", V3_MCH_ID, V3_MERCHANT_SERIAL, keys.stranger.getPrivate())
                        .build());

        assertEquals(401, response.statusCode());
        assertEquals("SIGN_ERROR", json(response).path("code").asText());
        RecordedRequest request = gateway.requests().get(0);
        assertFalse(request.accepted());
        assertEquals("v3-intruder", request.outTradeNo());
        assertTrue(request.rejection().contains("signature"), request::rejection);
    }

    @Test
    void a_stale_timestamp_is_refused() {
        long sixMinutesAgo = Instant.now().minusSeconds(360).getEpochSecond();

        HttpResponse<String> response = raw.send(
                raw.v3Query("v3-stale", V3_MCH_ID, V3_MERCHANT_SERIAL, keys.v3Merchant.getPrivate(), sixMinutesAgo)
                        .build());

        assertEquals(401, response.statusCode());
        assertEquals("SIGN_ERROR", json(response).path("code").asText());
        assertTrue(gateway.requests().get(0).rejection().contains("timestamp"));
    }

    @Test
    void the_wrong_serial_or_a_query_for_another_mchid_is_refused() {
        HttpResponse<String> wrongSerial =
                raw.send(raw.v3Query("v3-serial", V3_MCH_ID, "0000000000000000", keys.v3Merchant.getPrivate())
                        .build());
        HttpResponse<String> otherMchid =
                raw.send(raw.v3Query("v3-other", "1999999998", V3_MERCHANT_SERIAL, keys.v3Merchant.getPrivate())
                        .build());

        assertEquals(401, wrongSerial.statusCode());
        assertEquals(401, otherMchid.statusCode());
        assertTrue(gateway.requests().stream().noneMatch(RecordedRequest::accepted));
    }

    @Test
    void a_request_without_user_agent_is_refused() {
        HttpResponse<String> response =
                raw.send(raw.v3Query("v3-no-ua", V3_MCH_ID, V3_MERCHANT_SERIAL, keys.v3Merchant.getPrivate())
                        .setHeader("User-Agent", "")
                        .build());

        // the JDK client sends its own User-Agent unless overridden; an empty one counts as missing
        assertEquals(400, response.statusCode(), response::body);
        assertEquals("PARAM_ERROR", json(response).path("code").asText());
        assertFalse(gateway.requests().get(0).accepted());
    }

    @Test
    void not_found_is_a_signed_404() {
        HttpResponse<String> response = query("v3-nobody");

        assertEquals(404, response.statusCode());
        assertEquals("ORDER_NOT_EXIST", json(response).path("code").asText());
        assertTrue(signedByThePlatform(response));
        assertEquals(
                TestGateways.V3_PLATFORM_SERIAL,
                response.headers().firstValue("Wechatpay-Serial").orElseThrow());
    }

    @Test
    void a_bare_refund_lacks_transaction_id_and_amount() {
        gateway.script(
                "v3-bare-refund", ScriptedTrade.of(TradeState.REFUND, 700).withFault(Fault.OMIT_PAYMENT));

        HttpResponse<String> response = query("v3-bare-refund");

        JsonNode t = json(response);
        assertEquals("REFUND", t.path("trade_state").asText());
        assertTrue(t.path("transaction_id").isMissingNode());
        assertTrue(t.path("amount").isMissingNode());
        assertTrue(signedByThePlatform(response));
    }

    @Test
    void wrong_mch_raw_state_and_unsigned_faults() {
        gateway.script("v3-wrong-mch", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.WRONG_MCH));
        gateway.script("v3-weird", ScriptedTrade.of(TradeState.PAID, 1).withRawState("WEIRD"));
        gateway.script("v3-unsigned", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.UNSIGNED));

        HttpResponse<String> wrongMch = query("v3-wrong-mch");
        assertEquals(WechatV2Api.OTHER_MCH_ID, json(wrongMch).path("mchid").asText());
        assertTrue(signedByThePlatform(wrongMch));
        assertEquals("WEIRD", json(query("v3-weird")).path("trade_state").asText());
        HttpResponse<String> unsigned = query("v3-unsigned");
        assertEquals(200, unsigned.statusCode());
        assertTrue(unsigned.headers().firstValue("Wechatpay-Signature").isEmpty());
        assertTrue(unsigned.headers().firstValue("Request-ID").isPresent());
    }

    @Test
    void error_response_is_a_signed_500_SYSTEM_ERROR_and_http_500_a_proxy_page() {
        gateway.script("v3-error", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.ERROR_RESPONSE));
        gateway.script("v3-500", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.HTTP_500));

        HttpResponse<String> error = query("v3-error");
        HttpResponse<String> proxy = query("v3-500");

        assertEquals(500, error.statusCode());
        assertEquals("SYSTEM_ERROR", json(error).path("code").asText());
        assertTrue(signedByThePlatform(error));
        assertEquals(500, proxy.statusCode());
        assertTrue(proxy.body().contains("500 Internal Server Error"));
        assertTrue(proxy.headers().firstValue("Wechatpay-Signature").isEmpty());
    }
}
