package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.AlipayClient;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.domain.AlipayTradeQueryModel;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.response.AlipayTradeQueryResponse;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * alipay-sdk-java's {@link DefaultAlipayClient}, Alipay's official client, runs {@code alipay.trade.query} against the
 * gateway: it signs the request (common parameters in the URL, {@code biz_content} in the form body) and verifies the
 * answer's {@code sign} over the response object's text itself ({@code AbstractAlipayClient.checkResponseSign}), so
 * a passing query proves both directions of RSA2.
 */
class AlipaySdkInteropTest extends GatewayTestBase {

    private static AlipayClient sdk(PrivateKey appKey) {
        return new DefaultAlipayClient(
                gateway.baseUrl() + "/gateway.do",
                TestGateways.ALIPAY_APP_ID,
                TestKeys.base64(appKey),
                "json",
                "utf-8",
                TestKeys.base64(keys.alipayPlatform.getPublic()),
                "RSA2");
    }

    private static AlipayTradeQueryResponse query(AlipayClient client, String outTradeNo) throws AlipayApiException {
        AlipayTradeQueryModel model = new AlipayTradeQueryModel();
        model.setOutTradeNo(outTradeNo);
        AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
        request.setBizModel(model);
        return client.execute(request);
    }

    private static AlipayTradeQueryResponse query(String outTradeNo) throws AlipayApiException {
        return query(sdk(keys.alipayApp.getPrivate()), outTradeNo);
    }

    @Test
    void a_paid_trade_is_a_verified_TRADE_SUCCESS() throws AlipayApiException {
        Instant paidAt = Instant.parse("2024-05-01T02:03:04Z");
        gateway.script(
                "ali-paid",
                ScriptedTrade.of(TradeState.PAID, 100)
                        .withTransactionId("2024050122001400000000000001")
                        .withPaidAt(paidAt));

        AlipayTradeQueryResponse response = query("ali-paid");

        assertTrue(response.isSuccess(), response::getBody);
        assertEquals("10000", response.getCode());
        assertEquals("TRADE_SUCCESS", response.getTradeStatus());
        assertEquals("1.00", response.getTotalAmount());
        assertEquals("1.00", response.getBuyerPayAmount());
        assertEquals("2024050122001400000000000001", response.getTradeNo());
        assertEquals("ali-paid", response.getOutTradeNo());
        assertEquals(paidAt, response.getSendPayDate().toInstant(), "send_pay_date is Beijing time");
        RecordedRequest request = onlyRequest();
        assertTrue(request.accepted(), () -> "the SDK's request was refused: " + request.rejection());
        assertEquals(Api.ALIPAY, request.api());
        assertEquals("ali-paid", request.outTradeNo());
        assertEquals("alipay.trade.query", request.params().get("method"));
        assertEquals("RSA2", request.params().get("sign_type"));
    }

    @Test
    void a_waiting_trade_has_no_send_pay_date() throws AlipayApiException {
        gateway.script("ali-wait", ScriptedTrade.of(TradeState.NOTPAY, 100));

        AlipayTradeQueryResponse response = query("ali-wait");

        assertTrue(response.isSuccess());
        assertEquals("WAIT_BUYER_PAY", response.getTradeStatus());
        assertNull(response.getSendPayDate());
    }

    @Test
    void a_refunded_trade_is_TRADE_CLOSED_with_send_pay_date_and_a_closed_one_without() throws AlipayApiException {
        gateway.script("ali-refund", ScriptedTrade.of(TradeState.REFUND, 100));
        gateway.script("ali-closed", ScriptedTrade.of(TradeState.CLOSED, 100));

        AlipayTradeQueryResponse refunded = query("ali-refund");
        AlipayTradeQueryResponse closed = query("ali-closed");

        assertEquals("TRADE_CLOSED", refunded.getTradeStatus());
        assertTrue(refunded.getSendPayDate() != null, refunded::getBody);
        assertEquals("TRADE_CLOSED", closed.getTradeStatus());
        assertNull(closed.getSendPayDate());
    }

    @Test
    void escaped_slashes_still_verify_as_alipay_own_answers_do() throws AlipayApiException {
        gateway.script("ali-slash", ScriptedTrade.of(TradeState.FINISHED, 100).withFault(Fault.ESCAPED_SLASHES));

        AlipayTradeQueryResponse response = query("ali-slash");

        assertTrue(response.getBody().contains("a\\/b***@x.com"), response::getBody);
        assertEquals("a/b***@x.com", response.getBuyerLogonId());
        assertEquals("TRADE_FINISHED", response.getTradeStatus());
    }

    @Test
    void an_unknown_order_is_a_verified_ACQ_TRADE_NOT_EXIST() throws AlipayApiException {
        AlipayTradeQueryResponse response = query("ali-nobody");

        assertFalse(response.isSuccess());
        assertEquals("40004", response.getCode());
        assertEquals("ACQ.TRADE_NOT_EXIST", response.getSubCode());
        assertTrue(response.getBody().contains("\"sign\":"), "signed, and the SDK verified it: " + response.getBody());
        assertTrue(onlyRequest().accepted());
    }

    @Test
    void a_badly_signed_answer_fails_the_sdk_check() {
        gateway.script("ali-forged", ScriptedTrade.of(TradeState.PAID, 100).withFault(Fault.BAD_SIGNATURE));

        AlipayApiException e = assertThrows(AlipayApiException.class, () -> query("ali-forged"));

        assertTrue(e.getMessage().contains("sign check fail"), e::getMessage);
    }

    @Test
    void an_unsigned_answer_fails_the_sdk_check() {
        gateway.script("ali-unsigned", ScriptedTrade.of(TradeState.PAID, 100).withFault(Fault.UNSIGNED));

        // the SDK finds nothing to verify ("待验签内容不可为空") and throws, wrapped in a RuntimeException
        Exception e = assertThrows(Exception.class, () -> query("ali-unsigned"));
        assertTrue(String.valueOf(e.getMessage()).contains("验签"), e::toString);
    }

    @Test
    void an_error_response_is_not_a_success() throws AlipayApiException {
        gateway.script("ali-error", ScriptedTrade.of(TradeState.PAID, 100).withFault(Fault.ERROR_RESPONSE));

        AlipayTradeQueryResponse response = query("ali-error");

        assertFalse(response.isSuccess());
        assertEquals("20000", response.getCode());
        assertTrue(response.getBody().startsWith("{\"error_response\":"), response::getBody);
    }

    @Test
    void a_request_signed_with_another_key_is_refused_like_alipay_does() throws AlipayApiException {
        AlipayTradeQueryResponse response = query(sdk(keys.stranger.getPrivate()), "ali-intruder");

        assertFalse(response.isSuccess());
        assertEquals("40002", response.getCode());
        assertEquals("isv.invalid-signature", response.getSubCode());
        assertTrue(
                response.getSubMsg().contains("app_id=" + TestGateways.ALIPAY_APP_ID + "&amp;"), response::getSubMsg);
        RecordedRequest request = onlyRequest();
        assertFalse(request.accepted());
        assertEquals("ali-intruder", request.outTradeNo());
        assertEquals(1, gateway.queryCount("ali-intruder"));
    }

    private static RecordedRequest onlyRequest() {
        List<RecordedRequest> requests = gateway.requests();
        assertEquals(1, requests.size(), () -> "requests: " + requests);
        return requests.get(0);
    }
}
