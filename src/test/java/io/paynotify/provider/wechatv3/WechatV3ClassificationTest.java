package io.paynotify.provider.wechatv3;

import static io.paynotify.provider.wechatv3.WechatV3Unit.RECEIVED_AT;
import static io.paynotify.provider.wechatv3.WechatV3Unit.accepted;
import static io.paynotify.provider.wechatv3.WechatV3Unit.newOrderNo;
import static io.paynotify.provider.wechatv3.WechatV3Unit.signedResource;
import static io.paynotify.provider.wechatv3.WechatV3Unit.txnId;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The notification classes (docs/api.md "How a notification is handled"), the v3 rows, and the strict amount comparison (docs/api.md "Edge cases and how they are decided"): on the mapping
 * functions, and on whole notices through the adapter (the provider's part of the outcome matrix: which class, and
 * the fields the state machine decides on). What each class does to an order of each state is
 * {@code OrderStateMachineTest}'s.
 */
@Tag("unit")
class WechatV3ClassificationTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource({
        "TRANSACTION.SUCCESS, SUCCESS, PAID",
        "REFUND.SUCCESS, , REFUND",
        "REFUND.ABNORMAL, , REFUND",
        "REFUND.CLOSED, , REFUND",
        "REFUND.SUCCESS, SUCCESS, REFUND",
        "TRANSACTION.SUCCESS, REFUND, REFUND",
        "TRANSACTION.REFUND, REFUND, REFUND",
        "TRANSACTION.SUCCESS, NOTPAY, INFO",
        "TRANSACTION.SUCCESS, USERPAYING, INFO",
        "TRANSACTION.SUCCESS, ACCEPT, INFO",
        "TRANSACTION.SUCCESS, PAYERROR, INFO",
        "TRANSACTION.SUCCESS, REVOKED, INFO",
        "TRANSACTION.SUCCESS, CLOSED, INFO",
        "TRANSACTION.CLOSED, CLOSED, INFO",
        "TRANSACTION.SUCCESS, success, UNKNOWN",
        "TRANSACTION.SUCCESS, PAID, UNKNOWN",
        "TRANSACTION.CLOSED, SUCCESS, UNKNOWN",
        "transaction.success, SUCCESS, UNKNOWN",
        "PROFITSHARING.SUCCESS, , UNKNOWN",
        "PROFITSHARING.SUCCESS, REFUND, UNKNOWN",
        "MCHTRANSFER.BILL.FINISHED, SUCCESS, UNKNOWN"
    })
    void classifies(String eventType, String tradeState, NotifyClass expected) {
        assertEquals(expected, WechatV3Adapter.notifyClass(eventType, tradeState));
    }

    @Test
    void amountIsAJsonIntegerOfAtMostTenDigits() {
        var f = JsonNodeFactory.instance;
        assertEquals(1L, WechatV3Adapter.fen(f.numberNode(1)));
        assertEquals(0L, WechatV3Adapter.fen(f.numberNode(0)));
        assertEquals(9_999_999_999L, WechatV3Adapter.fen(f.numberNode(9_999_999_999L)));
        assertNull(WechatV3Adapter.fen(f.numberNode(10_000_000_000L)));
        assertNull(WechatV3Adapter.fen(f.numberNode(-1)));
        assertNull(WechatV3Adapter.fen(f.numberNode(1.0)));
        assertNull(WechatV3Adapter.fen(f.textNode("100")));
        assertNull(WechatV3Adapter.fen(f.nullNode()));
        assertNull(WechatV3Adapter.fen(null));
    }

    @Test
    void successTimeKeepsItsOwnOffset() {
        assertEquals(
                java.time.Instant.parse("2015-05-20T05:29:35Z"), WechatV3Adapter.rfc3339("2015-05-20T13:29:35+08:00"));
        assertEquals(java.time.Instant.parse("2015-05-20T13:29:35Z"), WechatV3Adapter.rfc3339("2015-05-20T13:29:35Z"));
        assertEquals(
                java.time.Instant.parse("2015-05-20T18:29:35Z"), WechatV3Adapter.rfc3339("2015-05-20T13:29:35-05:00"));
        org.junit.jupiter.api.Assertions.assertNull(WechatV3Adapter.rfc3339("2015-05-20T13:29:35"));
        org.junit.jupiter.api.Assertions.assertNull(WechatV3Adapter.rfc3339(null));
        org.junit.jupiter.api.Assertions.assertNull(WechatV3Adapter.rfc3339("x".repeat(41)));
    }

    // --- whole notices through the adapter ---------------------------------------------------------------------------

    @Test
    void aPaymentNoticeIsPaidWithEveryField() throws Exception {
        String no = newOrderNo();
        Map<String, Object> resource = WechatV3Fixtures.transaction(no, txnId(no), 100);
        Delivery d = signedResource("TRANSACTION.SUCCESS", resource);
        VerifiedNotification v = accepted(d);
        assertEquals(Provider.WECHATPAY_V3, v.provider());
        assertEquals(TestChannels.WX3, v.channel());
        assertEquals(no, v.outTradeNo());
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals("SUCCESS", v.providerStatus());
        assertEquals(txnId(no), v.transactionId());
        assertEquals(100L, v.amountMinor());
        assertEquals("CNY", v.currency());
        // success_time keeps its own offset
        assertEquals(Instant.parse("2018-06-08T02:34:56Z"), v.paidAt());
        assertFalse(v.accountMismatch());
        assertFalse(v.finishedNotice());
        // the envelope's id is the notice's id
        assertEquals(JSON.readTree(d.body()).get("id").textValue(), v.notifyId());
        assertTrue(v.notifyId().startsWith("EV-"));
        assertArrayEquals(d.body(), v.rawBody());
        // the decrypted resource, for operators: every field as sent
        assertEquals(JSON.readTree(WechatV3Fixtures.json(resource)), JSON.readTree(v.decoded()));
        assertEquals(RECEIVED_AT, v.receivedAt());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 49, 9_999_999_999L})
    void theAmountIsTheTotalAsSent(long total) {
        String no = newOrderNo();
        VerifiedNotification v =
                accepted(signedResource("TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(no, txnId(no), total)));
        assertEquals(total, v.amountMinor());
    }

    @ParameterizedTest(name = "currency [{0}] -> {1}")
    @CsvSource({"CNY, CNY", "USD, USD", "US$, INVALID", "'', INVALID"})
    void theCurrencyIsTheAmountsCurrency(String currency, String expected) {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 50);
        r.put("amount", Map.of("total", 50, "currency", currency));
        assertEquals(
                expected, accepted(signedResource("TRANSACTION.SUCCESS", r)).currency());
    }

    @Test
    void anAbsentOrNullCurrencyIsCny() {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 8);
        r.put("amount", Map.of("total", 8));
        assertEquals("CNY", accepted(signedResource("TRANSACTION.SUCCESS", r)).currency());
        var withNull = new HashMap<String, Object>();
        withNull.put("total", 8);
        withNull.put("currency", null);
        r.put("amount", withNull);
        assertEquals("CNY", accepted(signedResource("TRANSACTION.SUCCESS", r)).currency());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR", "REVOKED", "CLOSED"})
    void nonFinalTradeStatesAreInfoAndNeedNoTransaction(String state) {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 71);
        r.put("trade_state", state);
        r.remove("transaction_id");
        r.remove("success_time");
        VerifiedNotification v = accepted(signedResource("TRANSACTION.SUCCESS", r));
        assertEquals(NotifyClass.INFO, v.notifyClass());
        assertEquals(state, v.providerStatus());
        assertNull(v.transactionId());
        assertNull(v.paidAt());
        assertEquals(71L, v.amountMinor());
    }

    @Test
    void anUnknownTradeStateIsUnknown() {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 72);
        r.put("trade_state", "PAID_MAYBE");
        VerifiedNotification v = accepted(signedResource("TRANSACTION.SUCCESS", r));
        assertEquals(NotifyClass.UNKNOWN, v.notifyClass());
        assertEquals("PAID_MAYBE", v.providerStatus());
        assertEquals(txnId(no), v.transactionId());
    }

    @Test
    void aRefundNoticeIsRefundAndItsStatusIsTheRefundStatus() {
        String no = newOrderNo();
        VerifiedNotification v =
                accepted(signedResource("REFUND.SUCCESS", WechatV3Fixtures.refund(no, txnId(no), 80, 80)));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals("SUCCESS", v.providerStatus());
        assertEquals(no, v.outTradeNo());
        assertEquals(txnId(no), v.transactionId());
        assertEquals(80L, v.amountMinor());
        // the refund's success_time is not a payment time
        assertNull(v.paidAt());
        // a refund resource has no appid: only mchid counts
        assertFalse(v.accountMismatch());
        assertTrue(v.decoded().contains("招商银行信用卡0403"), v.decoded());

        Map<String, Object> abnormal = WechatV3Fixtures.refund(no, txnId(no), 81, 1);
        abnormal.put("refund_status", "ABNORMAL");
        VerifiedNotification a = accepted(signedResource("REFUND.ABNORMAL", abnormal));
        assertEquals(NotifyClass.REFUND, a.notifyClass());
        assertEquals("ABNORMAL", a.providerStatus());
    }

    @Test
    void aTransactionNoticeWithTradeStateRefundIsARefund() {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 80);
        r.put("trade_state", "REFUND");
        VerifiedNotification v = accepted(signedResource("TRANSACTION.SUCCESS", r));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals("REFUND", v.providerStatus());
    }

    @ParameterizedTest(name = "{0} = {1} -> mismatch {2}")
    @CsvSource({
        "appid, " + TestChannels.WX3_APPID + ", false",
        "appid, wxv3app000000002, true",
        "mchid, 1900000110, true",
        // service-provider mode is not this channel's
        "sp_mchid, " + TestChannels.WX3_MCH + ", true",
        "sub_mchid, 1900000111, true"
    })
    void accountIdsOfAPaymentNotice(String field, String value, boolean mismatch) {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 60);
        r.put(field, value);
        VerifiedNotification v = accepted(signedResource("TRANSACTION.SUCCESS", r));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(mismatch, v.accountMismatch());
    }

    @ParameterizedTest(name = "{0} = {1} -> mismatch {2}")
    @CsvSource({
        "mchid, 1900000110, true",
        "appid, wxv3app000000002, true",
        "appid, " + TestChannels.WX3_APPID + ", false",
        "sub_mchid, 1900000111, true"
    })
    void accountIdsOfARefundNotice(String field, String value, boolean mismatch) {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.refund(no, txnId(no), 82, 82);
        r.put(field, value);
        VerifiedNotification v = accepted(signedResource("REFUND.SUCCESS", r));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(mismatch, v.accountMismatch());
    }
}
