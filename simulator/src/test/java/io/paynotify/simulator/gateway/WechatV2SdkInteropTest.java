package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.binarywang.wxpay.bean.result.WxPayOrderQueryResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.constant.WxPayConstants.SignType;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WxJava ({@code weixin-java-pay}), the most used WeChat Pay v2 client, queries the gateway: it signs the request
 * and verifies the answer's sign itself ({@code BaseWxPayResult.checkResult}), so a passing query proves both
 * directions of the v2 signature, for MD5 and HMAC-SHA256. (A request without {@code sign_type}, MD5 by default, is in
 * {@link WechatV2RawTest}.)
 */
class WechatV2SdkInteropTest extends GatewayTestBase {

    private static WxPayService wxJava(String signType) {
        WxPayConfig config = new WxPayConfig();
        config.setAppId(TestGateways.V2_APP_ID);
        config.setMchId(TestGateways.V2_MCH_ID);
        config.setMchKey(TestGateways.V2_API_KEY);
        config.setSignType(signType);
        config.setPayBaseUrl(gateway.baseUrl());
        WxPayService service = new WxPayServiceImpl();
        service.setConfig(config);
        return service;
    }

    @ParameterizedTest
    @ValueSource(strings = {SignType.MD5, SignType.HMAC_SHA256})
    void a_paid_trade_is_answered_with_a_verified_signature(String signType) throws WxPayException {
        Instant paidAt = Instant.parse("2024-05-01T02:03:04Z");
        gateway.script(
                "v2-paid",
                ScriptedTrade.of(TradeState.PAID, 1234)
                        .withTransactionId("4200000000202405010000000001")
                        .withPaidAt(paidAt));

        WxPayOrderQueryResult result = wxJava(signType).queryOrder(null, "v2-paid");

        assertEquals("SUCCESS", result.getTradeState());
        assertEquals(1234, result.getTotalFee());
        assertEquals(1234, result.getCashFee());
        assertEquals("4200000000202405010000000001", result.getTransactionId());
        assertEquals("20240501100304", result.getTimeEnd(), "time_end is Beijing time");
        assertEquals(TestGateways.V2_MCH_ID, result.getMchId());
        assertEquals(TestGateways.V2_APP_ID, result.getAppid());
        RecordedRequest request = onlyRequest();
        assertTrue(request.accepted(), () -> "the SDK's request was refused: " + request.rejection());
        assertEquals(Api.WECHATPAY_V2, request.api());
        assertEquals("v2-paid", request.outTradeNo());
        assertEquals(signType, request.params().get("sign_type"), "WxJava names even MD5");
    }

    @ParameterizedTest
    @ValueSource(strings = {SignType.MD5, SignType.HMAC_SHA256})
    void an_unpaid_trade_carries_no_payment(String signType) throws WxPayException {
        gateway.script("v2-notpay", ScriptedTrade.of(TradeState.NOTPAY, 100));

        WxPayOrderQueryResult result = wxJava(signType).queryOrder(null, "v2-notpay");

        assertEquals("NOTPAY", result.getTradeState());
        assertNull(result.getTransactionId());
        assertNull(result.getTotalFee());
        assertTrue(onlyRequest().accepted());
    }

    @ParameterizedTest
    @ValueSource(strings = {SignType.MD5, SignType.HMAC_SHA256})
    void an_unknown_order_is_ORDERNOTEXIST(String signType) {
        WxPayException e =
                assertThrows(WxPayException.class, () -> wxJava(signType).queryOrder(null, "v2-nobody"));

        assertEquals("ORDERNOTEXIST", e.getErrCode(), "the signed FAIL answer verified and was read: " + e);
        assertEquals("FAIL", e.getResultCode());
        assertTrue(onlyRequest().accepted());
        assertEquals(1, gateway.queryCount("v2-nobody"));
    }

    @ParameterizedTest
    @ValueSource(strings = {SignType.MD5, SignType.HMAC_SHA256})
    void a_refunded_trade_is_REFUND_with_its_payment(String signType) throws WxPayException {
        gateway.script("v2-refund", ScriptedTrade.of(TradeState.REFUND, 500));

        WxPayOrderQueryResult result = wxJava(signType).queryOrder(null, "v2-refund");

        assertEquals("REFUND", result.getTradeState());
        assertEquals(500, result.getTotalFee());
    }

    @ParameterizedTest
    @ValueSource(strings = {SignType.MD5, SignType.HMAC_SHA256})
    void a_badly_signed_answer_fails_the_sdk_check(String signType) {
        gateway.script("v2-forged", ScriptedTrade.of(TradeState.PAID, 100).withFault(Fault.BAD_SIGNATURE));

        WxPayException e =
                assertThrows(WxPayException.class, () -> wxJava(signType).queryOrder(null, "v2-forged"));

        assertEquals("参数格式校验错误！", e.getMessage(), "WxJava's message for a sign that does not verify");
    }

    private static RecordedRequest onlyRequest() {
        List<RecordedRequest> requests = gateway.requests();
        assertEquals(1, requests.size(), () -> "requests: " + requests);
        return requests.get(0);
    }
}
