package io.paynotify.simulator.trigger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.github.binarywang.wxpay.bean.notify.WxPayOrderNotifyResult;
import com.github.binarywang.wxpay.bean.notify.WxPayRefundNotifyResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RSAPublicKeyNotificationConfig;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.refund.model.RefundNotification;
import com.wechat.pay.java.service.refund.model.Status;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every notice the simulator sends is accepted by the provider's official SDK verifier, and the evil ones that a
 * verifier can catch (a field changed after signing, a key that is not the channel's) are rejected by it.
 */
class OfficialSdkTest {

    private static final Clock CLOCK = Clock.systemUTC();

    private static Trade trade(Provider provider) {
        return Trade.fresh(provider, "SDK-" + provider.ordinal() + "-ORDER-1", 12345);
    }

    /** WxJava (weixin-java-pay 4.7.0), API v2. */
    @Nested
    class WechatV2 {

        private WxPayService service(String apiKey) {
            WxPayConfig config = new WxPayConfig();
            config.setAppId(TestKeys.WX.appId());
            config.setMchId(TestKeys.WX.mchId());
            config.setMchKey(apiKey);
            WxPayServiceImpl service = new WxPayServiceImpl();
            service.setConfig(config);
            return service;
        }

        private String xml(Notice n) {
            return new String(n.body(), StandardCharsets.UTF_8);
        }

        @ParameterizedTest
        @ValueSource(strings = {"MD5", "HMAC-SHA256"})
        void paymentNoticeVerifies(String signType) throws WxPayException {
            Notice n = Notices.of(TestKeys.WX, CLOCK, signType).payment(trade(Provider.WECHATPAY_V2));
            WxPayOrderNotifyResult r = service(TestKeys.WX.apiKey()).parseOrderNotifyResult(xml(n), signType);
            assertEquals("SDK-0-ORDER-1", r.getOutTradeNo());
            assertEquals(12345, r.getTotalFee());
            assertEquals("SUCCESS", r.getResultCode());
            assertEquals(signType, r.getSignType());
            // the one-argument form takes the sign type from the notice itself
            service(TestKeys.WX.apiKey()).parseOrderNotifyResult(xml(n));
        }

        @ParameterizedTest
        @ValueSource(strings = {"MD5", "HMAC-SHA256"})
        void tamperedNoticeIsRejected(String signType) {
            Notice n = Notices.of(TestKeys.WX, CLOCK, signType).tampered(trade(Provider.WECHATPAY_V2));
            assertThrows(
                    WxPayException.class, () -> service(TestKeys.WX.apiKey()).parseOrderNotifyResult(xml(n), signType));
        }

        @ParameterizedTest
        @ValueSource(strings = {"MD5", "HMAC-SHA256"})
        void anotherKeyIsRejected(String signType) {
            Notice n = Notices.of(TestKeys.WX, CLOCK, signType).payment(trade(Provider.WECHATPAY_V2));
            assertThrows(
                    WxPayException.class,
                    () -> service("otherotherotherotherotherother32").parseOrderNotifyResult(xml(n), signType));
        }

        @Test
        void wrongAppNoticeIsCorrectlySignedForAnotherApp() throws WxPayException {
            Notice n = Notices.of(TestKeys.WX, CLOCK, null).wrongApp(trade(Provider.WECHATPAY_V2));
            WxPayOrderNotifyResult r = service(TestKeys.WX.apiKey()).parseOrderNotifyResult(xml(n));
            assertNotEquals(TestKeys.WX.appId(), r.getAppid());
        }

        @Test
        void refundNoticeDecrypts() throws WxPayException {
            Trade t = trade(Provider.WECHATPAY_V2);
            Notice n = Notices.of(TestKeys.WX, CLOCK, null).refund(t);
            WxPayRefundNotifyResult r = service(TestKeys.WX.apiKey()).parseRefundNotifyResult(xml(n));
            assertEquals("SUCCESS", r.getReturnCode());
            assertEquals(t.outTradeNo(), r.getReqInfo().getOutTradeNo());
            assertEquals(t.transactionId(), r.getReqInfo().getTransactionId());
            assertEquals(t.outRefundNo(), r.getReqInfo().getOutRefundNo());
            assertEquals(t.refundId(), r.getReqInfo().getRefundId());
            assertEquals("SUCCESS", r.getReqInfo().getRefundStatus());
            assertEquals(12345, r.getReqInfo().getRefundFee());
            assertEquals(12345, r.getReqInfo().getTotalFee());
            assertFalse(xml(n).contains("<sign>"), "a v2 refund notice carries no sign");
        }

        @Test
        void refundNoticeDoesNotDecryptWithAnotherKey() {
            Notice n = Notices.of(TestKeys.WX, CLOCK, null).refund(trade(Provider.WECHATPAY_V2));
            assertThrows(
                    WxPayException.class,
                    () -> service("otherotherotherotherotherother32").parseRefundNotifyResult(xml(n)));
        }
    }

    /** wechatpay-java 0.2.17 NotificationParser with RSAPublicKeyNotificationConfig, API v3. */
    @Nested
    class WechatV3 {

        private NotificationParser parser(PublicKey key) {
            return new NotificationParser(new RSAPublicKeyNotificationConfig.Builder()
                    .publicKey(key)
                    .publicKeyId(TestKeys.WX3.platformSerial())
                    .apiV3Key(TestKeys.WX3.apiV3Key())
                    .build());
        }

        private RequestParam request(Notice n) {
            Map<String, String> h = n.headers();
            return new RequestParam.Builder()
                    .serialNumber(h.get("Wechatpay-Serial"))
                    .nonce(h.get("Wechatpay-Nonce"))
                    .signature(h.get("Wechatpay-Signature"))
                    .timestamp(h.get("Wechatpay-Timestamp"))
                    .signType(h.get("Wechatpay-Signature-Type"))
                    .body(new String(n.body(), StandardCharsets.UTF_8))
                    .build();
        }

        private Notices notices() {
            return Notices.of(TestKeys.WX3, CLOCK, null);
        }

        @Test
        void paymentNoticeVerifiesAndDecrypts() {
            Trade t = trade(Provider.WECHATPAY_V3);
            Transaction tx =
                    parser(TestKeys.platformPublicKey()).parse(request(notices().payment(t)), Transaction.class);
            assertEquals(t.outTradeNo(), tx.getOutTradeNo());
            assertEquals(t.transactionId(), tx.getTransactionId());
            assertEquals(Transaction.TradeStateEnum.SUCCESS, tx.getTradeState());
            assertEquals(12345, tx.getAmount().getTotal());
            assertEquals(TestKeys.WX3.appId(), tx.getAppid());
            assertEquals(TestKeys.WX3.mchId(), tx.getMchid());
        }

        @Test
        void redeliveryIsSignedAfreshOverTheSameBody() {
            Notice first = notices().payment(trade(Provider.WECHATPAY_V3));
            Notice again = notices().again(first);
            assertEquals(
                    new String(first.body(), StandardCharsets.UTF_8), new String(again.body(), StandardCharsets.UTF_8));
            assertNotEquals(
                    first.headers().get("Wechatpay-Nonce"), again.headers().get("Wechatpay-Nonce"));
            parser(TestKeys.platformPublicKey()).parse(request(again), Transaction.class);
        }

        @Test
        void refundNoticeVerifiesAndDecrypts() {
            Trade t = trade(Provider.WECHATPAY_V3);
            RefundNotification r =
                    parser(TestKeys.platformPublicKey()).parse(request(notices().refund(t)), RefundNotification.class);
            assertEquals(t.outTradeNo(), r.getOutTradeNo());
            assertEquals(t.outRefundNo(), r.getOutRefundNo());
            assertEquals(t.refundId(), r.getRefundId());
            assertEquals(t.transactionId(), r.getTransactionId());
            assertEquals(Status.SUCCESS, r.getRefundStatus());
            assertEquals(12345, r.getAmount().getRefund());
            assertEquals(12345, r.getAmount().getTotal());
        }

        @Test
        void tamperedNoticeIsRejected() {
            Notice n = notices().tampered(trade(Provider.WECHATPAY_V3));
            assertThrows(
                    ValidationException.class,
                    () -> parser(TestKeys.platformPublicKey()).parse(request(n), Transaction.class));
        }

        @Test
        void anotherPlatformKeyIsRejected() {
            Notice n = notices().payment(trade(Provider.WECHATPAY_V3));
            assertThrows(
                    ValidationException.class,
                    () -> parser(TestKeys.otherPublicKey()).parse(request(n), Transaction.class));
        }

        /** The SDK checks no freshness (as its source shows): the stale notice verifies, 10 minutes old. */
        @Test
        void staleNoticeIsSignedButTenMinutesOld() {
            Notice n = notices().stale(trade(Provider.WECHATPAY_V3)).orElseThrow();
            parser(TestKeys.platformPublicKey()).parse(request(n), Transaction.class);
            long age =
                    Instant.now().getEpochSecond() - Long.parseLong(n.headers().get("Wechatpay-Timestamp"));
            assertTrue(age >= 599 && age <= 610, "age " + age);
        }

        @Test
        void wrongAppNoticeIsCorrectlySignedForAnotherApp() {
            Transaction tx = parser(TestKeys.platformPublicKey())
                    .parse(request(notices().wrongApp(trade(Provider.WECHATPAY_V3))), Transaction.class);
            assertNotEquals(TestKeys.WX3.appId(), tx.getAppid());
        }
    }

    /** alipay-sdk-java 4.40.734.ALL AlipaySignature.rsaCheckV1 with RSA2. */
    @Nested
    class Alipay {

        private final Notices notices = Notices.of(TestKeys.ALI, CLOCK, null);

        private boolean verifies(Notice n, String publicKey) throws AlipayApiException {
            return AlipaySignature.rsaCheckV1(TestKeys.form(n.body()), publicKey, "utf-8", "RSA2");
        }

        @Test
        void paymentNoticeVerifies() throws AlipayApiException {
            Notice n = notices.payment(trade(Provider.ALIPAY));
            assertTrue(verifies(n, TestKeys.alipayPublicKeyBase64()));
            Map<String, String> p = TestKeys.form(n.body());
            assertEquals("TRADE_SUCCESS", p.get("trade_status"));
            assertEquals("123.45", p.get("total_amount"));
            assertEquals(TestKeys.ALI.appId(), p.get("app_id"));
        }

        @Test
        void fullRefundNoticeVerifies() throws AlipayApiException {
            Trade t = trade(Provider.ALIPAY);
            Notice n = notices.refund(t);
            assertTrue(verifies(n, TestKeys.alipayPublicKeyBase64()));
            Map<String, String> p = TestKeys.form(n.body());
            assertEquals("TRADE_CLOSED", p.get("trade_status"));
            assertEquals("123.45", p.get("refund_fee"));
            assertEquals(t.outRefundNo(), p.get("out_biz_no"));
            assertTrue(p.get("gmt_refund").matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}"));
        }

        @Test
        void partialRefundNoticeStaysTradeSuccess() throws AlipayApiException {
            Notice n = notices.refund(trade(Provider.ALIPAY).withRefund(100));
            assertTrue(verifies(n, TestKeys.alipayPublicKeyBase64()));
            Map<String, String> p = TestKeys.form(n.body());
            assertEquals("TRADE_SUCCESS", p.get("trade_status"));
            assertEquals("1.00", p.get("refund_fee"));
        }

        @Test
        void closeNoticeVerifies() throws AlipayApiException {
            Notice n = notices.close(trade(Provider.ALIPAY)).orElseThrow();
            assertTrue(verifies(n, TestKeys.alipayPublicKeyBase64()));
            Map<String, String> p = TestKeys.form(n.body());
            assertEquals("TRADE_CLOSED", p.get("trade_status"));
            assertFalse(p.containsKey("refund_fee") || p.containsKey("gmt_refund") || p.containsKey("out_biz_no"));
        }

        @Test
        void tamperedNoticeIsRejected() throws AlipayApiException {
            assertFalse(verifies(notices.tampered(trade(Provider.ALIPAY)), TestKeys.alipayPublicKeyBase64()));
        }

        @Test
        void anotherAlipayKeyIsRejected() throws AlipayApiException {
            String other =
                    Base64.getEncoder().encodeToString(TestKeys.otherPublicKey().getEncoded());
            assertFalse(verifies(notices.payment(trade(Provider.ALIPAY)), other));
        }

        @Test
        void wrongAppNoticeIsCorrectlySignedForAnotherApp() throws AlipayApiException {
            Notice n = notices.wrongApp(trade(Provider.ALIPAY));
            assertTrue(verifies(n, TestKeys.alipayPublicKeyBase64()));
            assertNotEquals(TestKeys.ALI.appId(), TestKeys.form(n.body()).get("app_id"));
        }
    }
}
