package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.core.http.HttpRequest;
import com.wechat.pay.java.core.http.HttpResponse;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import java.io.InputStream;
import java.security.PublicKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * wechatpay-java, WeChat Pay's official v3 SDK, queries the gateway with an {@link RSAPublicKeyConfig} (the merchant's
 * API key signs, the platform public key {@code PUB_KEY_ID_…} verifies): the SDK signs the Authorization and checks
 * the answer's {@code Wechatpay-*} headers itself ({@code WechatPay2Validator}), so a passing query proves both
 * directions of the v3 signature and the exact header spelling the SDK needs.
 */
class WechatV3SdkInteropTest extends GatewayTestBase {

    private static final String WECHAT_HOST = "https://api.mch.weixin.qq.com";

    /**
     * The SDK's services hard-code {@code https://api.mch.weixin.qq.com} (their {@code HostName} only swaps in other
     * WeChat hosts), so the test hands them an {@link HttpClient} that moves each request to the gateway. The
     * Authorization signs only the path and query, which the move leaves alone.
     */
    private static NativePayService sdk(String platformSerial, PublicKey platformKey) {
        RSAPublicKeyConfig config = new RSAPublicKeyConfig.Builder()
                .merchantId(TestGateways.V3_MCH_ID)
                .privateKey(keys.v3Merchant.getPrivate())
                .merchantSerialNumber(TestGateways.V3_MERCHANT_SERIAL)
                .publicKeyId(platformSerial)
                .publicKey(platformKey)
                .apiV3Key("0123456789abcdef0123456789abcdef")
                .build();
        HttpClient toGateway = new GatewayHttpClient(
                new DefaultHttpClientBuilder().config(config).build());
        return new NativePayService.Builder().httpClient(toGateway).build();
    }

    private static NativePayService sdk() {
        return sdk(TestGateways.V3_PLATFORM_SERIAL, keys.v3Platform.getPublic());
    }

    private static Transaction query(NativePayService service, String outTradeNo) {
        QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
        request.setMchid(TestGateways.V3_MCH_ID);
        request.setOutTradeNo(outTradeNo);
        return service.queryOrderByOutTradeNo(request);
    }

    @Test
    void a_paid_trade_is_the_verified_transaction() {
        gateway.script(
                "v3-paid",
                ScriptedTrade.of(TradeState.PAID, 2500)
                        .withTransactionId("4200000000202405010000000003")
                        .withPaidAt(Instant.parse("2024-05-01T02:03:04Z")));

        Transaction t = query(sdk(), "v3-paid");

        assertEquals(Transaction.TradeStateEnum.SUCCESS, t.getTradeState());
        assertEquals("4200000000202405010000000003", t.getTransactionId());
        assertEquals(2500, t.getAmount().getTotal());
        assertEquals(2500, t.getAmount().getPayerTotal());
        assertEquals("CNY", t.getAmount().getCurrency());
        assertEquals("2024-05-01T10:03:04+08:00", t.getSuccessTime());
        assertEquals(TestGateways.V3_MCH_ID, t.getMchid());
        assertEquals(TestGateways.V3_APP_ID, t.getAppid());
        assertEquals("v3-paid", t.getOutTradeNo());
        assertEquals(WechatV2Api.PAYER_OPENID, t.getPayer().getOpenid());
        RecordedRequest request = onlyRequest();
        assertTrue(request.accepted(), () -> "the SDK's request was refused: " + request.rejection());
        assertEquals(Api.WECHATPAY_V3, request.api());
        assertEquals(TestGateways.V3_MCH_ID, request.params().get("mchid"));
        assertEquals(TestGateways.V3_PLATFORM_SERIAL, request.headers().get("wechatpay-serial"));
        assertTrue(request.headers().get("user-agent").startsWith("WechatPay-Java/"));
    }

    @Test
    void an_unpaid_trade_has_no_transaction_id_or_success_time() {
        gateway.script("v3-notpay", ScriptedTrade.of(TradeState.NOTPAY, 100));

        Transaction t = query(sdk(), "v3-notpay");

        assertEquals(Transaction.TradeStateEnum.NOTPAY, t.getTradeState());
        assertNull(t.getTransactionId());
        assertNull(t.getSuccessTime());
        assertEquals(100, t.getAmount().getTotal());
    }

    @Test
    void an_unknown_order_is_404_ORDER_NOT_EXIST() {
        ServiceException e = assertThrows(ServiceException.class, () -> query(sdk(), "v3-nobody"));

        assertEquals(404, e.getHttpStatusCode());
        assertEquals("ORDER_NOT_EXIST", e.getErrorCode());
        assertTrue(onlyRequest().accepted());
    }

    @Test
    void the_answer_is_signed_with_the_platform_key_the_request_names() {
        gateway.script("v3-other-key", ScriptedTrade.of(TradeState.PAID, 100));

        Transaction t =
                query(sdk(TestGateways.V3_OTHER_PLATFORM_SERIAL, keys.v3OtherPlatform.getPublic()), "v3-other-key");

        assertEquals(Transaction.TradeStateEnum.SUCCESS, t.getTradeState());
    }

    @Test
    void a_badly_signed_answer_fails_the_sdk_check() {
        gateway.script("v3-forged", ScriptedTrade.of(TradeState.PAID, 100).withFault(Fault.BAD_SIGNATURE));

        assertThrows(ValidationException.class, () -> query(sdk(), "v3-forged"));
        assertTrue(onlyRequest().accepted());
    }

    @Test
    void an_unsigned_answer_fails_the_sdk_check() {
        gateway.script("v3-unsigned", ScriptedTrade.of(TradeState.PAID, 100).withFault(Fault.UNSIGNED));

        // WechatPay2Validator finds no Wechatpay-Timestamp and refuses the answer
        assertThrows(IllegalArgumentException.class, () -> query(sdk(), "v3-unsigned"));
    }

    private static RecordedRequest onlyRequest() {
        List<RecordedRequest> requests = gateway.requests();
        assertEquals(1, requests.size(), () -> "requests: " + requests);
        return requests.get(0);
    }

    /** Sends the SDK's requests to the gateway instead of WeChat; everything else is the SDK's own client. */
    private record GatewayHttpClient(HttpClient sdkClient) implements HttpClient {
        @Override
        public <T> HttpResponse<T> execute(HttpRequest request, Class<T> responseClass) {
            HttpRequest moved = new HttpRequest.Builder()
                    .url(request.getUrl().toString().replace(WECHAT_HOST, gateway.baseUrl()))
                    .httpMethod(request.getHttpMethod())
                    .headers(request.getHeaders())
                    .body(request.getBody())
                    .build();
            return sdkClient.execute(moved, responseClass);
        }

        @Override
        public InputStream download(String url) {
            return sdkClient.download(url.replace(WECHAT_HOST, gateway.baseUrl()));
        }
    }
}
