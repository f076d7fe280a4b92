package io.paynotify.simulator.gateway;

import static io.paynotify.simulator.gateway.TestGateways.ALIPAY_APP_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Alipay requests as paynotify's contract sends them (every parameter in the form body) and the exact bytes of the
 * answers, which the SDK does not show.
 */
class AlipayRawTest extends GatewayTestBase {

    private static HttpResponse<String> query(String outTradeNo) {
        return raw.alipay(RawRequests.alipayQuery(ALIPAY_APP_ID, outTradeNo, keys.alipayApp.getPrivate()));
    }

    /** The text between {@code {"alipay_trade_query_response":} and {@code ,"sign":"}, and the sign. */
    private static String[] responseAndSign(String body) {
        String prefix = "{\"alipay_trade_query_response\":";
        int signAt = body.lastIndexOf(",\"sign\":\"");
        assertTrue(body.startsWith(prefix) && signAt > 0, body);
        return new String[] {body.substring(prefix.length(), signAt), body.substring(signAt + 9, body.length() - 2)};
    }

    @Test
    void a_form_only_request_is_accepted_and_the_sign_covers_the_exact_response_text() {
        gateway.script("ali-form", ScriptedTrade.of(TradeState.PAID, 12345));

        HttpResponse<String> response = query("ali-form");

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        String[] parts = responseAndSign(response.body());
        assertTrue(parts[0].contains("\"total_amount\":\"123.45\""), parts[0]);
        assertTrue(RawRequests.rsaVerify(keys.alipayPlatform.getPublic(), parts[0], parts[1]));
        assertTrue(gateway.requests().get(0).accepted());
    }

    @Test
    void escaped_slashes_are_signed_unescaped() {
        gateway.script("ali-slash", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.ESCAPED_SLASHES));

        String[] parts = responseAndSign(query("ali-slash").body());

        assertTrue(parts[0].contains("a\\/b***@x.com"), parts[0]);
        assertFalse(RawRequests.rsaVerify(keys.alipayPlatform.getPublic(), parts[0], parts[1]));
        assertTrue(RawRequests.rsaVerify(keys.alipayPlatform.getPublic(), parts[0].replace("\\/", "/"), parts[1]));
    }

    @Test
    void an_unknown_app_is_refused_unsigned() {
        HttpResponse<String> response =
                raw.alipay(RawRequests.alipayQuery("2021999999999999", "ali-stranger", keys.alipayApp.getPrivate()));

        assertEquals(
                "{\"alipay_trade_query_response\":{\"code\":\"40002\",\"msg\":\"Invalid Arguments\","
                        + "\"sub_code\":\"isv.invalid-app-id\",\"sub_msg\":\"无效的AppID参数\"}}",
                response.body());
        assertFalse(gateway.requests().get(0).accepted());
    }

    @Test
    void a_tampered_parameter_breaks_the_request_signature() {
        Map<String, String> params =
                RawRequests.alipayQuery(ALIPAY_APP_ID, "ali-tampered", keys.alipayApp.getPrivate());
        params.put("biz_content", "{\"out_trade_no\":\"ali-someone-else\"}");

        HttpResponse<String> response = raw.alipay(params);

        assertTrue(response.body().contains("\"sub_code\":\"isv.invalid-signature\""), response::body);
        String[] parts = responseAndSign(response.body());
        assertTrue(RawRequests.rsaVerify(keys.alipayPlatform.getPublic(), parts[0], parts[1]), "refusals are signed");
        RecordedRequest request = gateway.requests().get(0);
        assertFalse(request.accepted());
        assertEquals("ali-someone-else", request.outTradeNo());
    }

    @Test
    void http_500_and_unsigned() {
        gateway.script("ali-500", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.HTTP_500));
        gateway.script("ali-unsigned", ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.UNSIGNED));

        assertEquals(500, query("ali-500").statusCode());
        String unsigned = query("ali-unsigned").body();
        assertTrue(unsigned.startsWith("{\"alipay_trade_query_response\":{\"code\":\"10000\""), unsigned);
        assertFalse(unsigned.contains("\"sign\""), unsigned);
    }
}
