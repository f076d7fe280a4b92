package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Unit.RECEIVED_AT;
import static io.paynotify.provider.wechatv2.WechatV2Unit.TIME_END;
import static io.paynotify.provider.wechatv2.WechatV2Unit.accepted;
import static io.paynotify.provider.wechatv2.WechatV2Unit.assertRefused;
import static io.paynotify.provider.wechatv2.WechatV2Unit.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Unit.newTxn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderSnapshot;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.core.order.Outcome;
import io.paynotify.core.order.Reason;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The provider's part of the outcome matrix (docs/state-machine.md) for WeChat Pay v2: which class each status is, and the
 * fields the state machine decides on (amount, currency, transaction id, account ids). What each class does to an
 * order of each state is {@code OrderStateMachineTest}'s, cell by cell; what the database does with a decision is
 * {@code intake/NotificationRulesTest}'s and {@code WechatV2IntakeTest}'s. WeChat sends no close notices, so v2 has no CLOSE class.
 */
@Tag("unit")
class WechatV2ClassificationTest {

    static final ObjectMapper JSON = new ObjectMapper();

    // ---- payment notices: result_code

    @Test
    void aPaymentNoticeIsPaidWithEveryField() {
        String no = newOrderNo();
        String txn = newTxn();
        byte[] body = WechatV2Fixtures.payment(no, txn, 100).md5();
        VerifiedNotification v = accepted(body);
        assertEquals(Provider.WECHATPAY_V2, v.provider());
        assertEquals(TestChannels.WX, v.channel());
        assertEquals(no, v.outTradeNo());
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals("SUCCESS", v.providerStatus());
        assertEquals(txn, v.transactionId());
        assertEquals(100L, v.amountMinor());
        assertEquals("CNY", v.currency());
        assertEquals(TIME_END, v.paidAt());
        assertFalse(v.accountMismatch());
        assertFalse(v.finishedNotice());
        // v2 payment notices carry no id of their own and nothing encrypted
        assertNull(v.notifyId());
        assertNull(v.decoded());
        assertArrayEquals(body, v.rawBody());
        assertEquals(RECEIVED_AT, v.receivedAt());
    }

    @ParameterizedTest(name = "result_code {0} -> {1}")
    @CsvSource({
        "SUCCESS, PAID",
        "FAIL, INFO",
        // anything else is recorded and flagged (UNKNOWN_STATUS), matched case-sensitively
        "PROCESSING, UNKNOWN",
        "success, UNKNOWN",
        "fail, UNKNOWN",
        "REFUND, UNKNOWN",
        "NOTPAY, UNKNOWN"
    })
    void resultCodeIsTheClass(String resultCode, NotifyClass expected) {
        String txn = newTxn();
        VerifiedNotification v = accepted(WechatV2Fixtures.payment(newOrderNo(), txn, 100)
                .with("result_code", resultCode)
                .md5());
        assertEquals(expected, v.notifyClass());
        assertEquals(resultCode, v.providerStatus());
        // the fields are read whatever the class: the state machine and the operators see them
        assertEquals(txn, v.transactionId());
        assertEquals(100L, v.amountMinor());
        assertEquals(TIME_END, v.paidAt());
    }

    @Test
    void aResultCodeThatIsNoTokenIs400() {
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.MISSING_FIELD,
                WechatV2Fixtures.payment(newOrderNo(), newTxn(), 100)
                        .with("result_code", "SUCC ESS")
                        .md5());
    }

    @Test
    void aFailedPaymentIsInfoWithoutTransactionOrAmount() {
        VerifiedNotification v =
                accepted(WechatV2Fixtures.failedPayment(newOrderNo()).md5());
        assertEquals(NotifyClass.INFO, v.notifyClass());
        assertEquals("FAIL", v.providerStatus());
        assertNull(v.transactionId());
        assertNull(v.amountMinor());
        assertNull(v.paidAt());
        assertEquals("CNY", v.currency());
        assertFalse(v.accountMismatch());
    }

    @Test
    void anUnknownResultCodeNeedsNoTransactionOrAmountEither() {
        VerifiedNotification v = accepted(WechatV2Fixtures.failedPayment(newOrderNo())
                .with("result_code", "PROCESSING")
                .md5());
        assertEquals(NotifyClass.UNKNOWN, v.notifyClass());
        assertNull(v.transactionId());
        assertNull(v.amountMinor());
    }

    @ParameterizedTest(name = "fee_type [{0}] -> {1}")
    @CsvSource({
        "CNY, CNY",
        "USD, USD",
        "HKD, HKD",
        // a value that is no currency matches no order (AMOUNT_MISMATCH), never a default
        "US$, INVALID",
        "人民币, INVALID",
        // empty is as absent
        "'', CNY"
    })
    void feeTypeIsTheCurrency(String feeType, String currency) {
        VerifiedNotification v = accepted(WechatV2Fixtures.payment(newOrderNo(), newTxn(), 100)
                .with("fee_type", feeType)
                .md5());
        assertEquals(currency, v.currency());
    }

    @Test
    void absentFeeTypeIsCny() {
        VerifiedNotification v = accepted(WechatV2Fixtures.payment(newOrderNo(), newTxn(), 100)
                .without("fee_type")
                .md5());
        assertEquals("CNY", v.currency());
    }

    // ---- refund notices (req_info)

    @ParameterizedTest
    @ValueSource(strings = {"SUCCESS", "REFUNDCLOSE", "CHANGE"})
    void aRefundNoticeIsRefundAndItsStatusIsTheRefundStatus(String status) throws Exception {
        String no = newOrderNo();
        String txn = newTxn();
        byte[] body = WechatV2Fixtures.refundBody(no, txn, 100, status);
        VerifiedNotification v = accepted(body);
        assertEquals(Provider.WECHATPAY_V2, v.provider());
        assertEquals(no, v.outTradeNo());
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(status, v.providerStatus());
        assertEquals(txn, v.transactionId());
        assertEquals(100L, v.amountMinor());
        assertEquals("CNY", v.currency());
        // success_time is the refund's, never a payment time
        assertNull(v.paidAt());
        assertFalse(v.accountMismatch());
        assertEquals("50000408942018111907145868882", v.notifyId());
        assertArrayEquals(body, v.rawBody());
        // the decrypted req_info, for operators: every field as sent
        Map<?, ?> decoded = JSON.readValue(v.decoded(), Map.class);
        assertEquals(WechatV2Fixtures.refundInfo(no, txn, 100, status), decoded);
        assertTrue(v.decoded().contains("\"refund_recv_accout\":\"支付用户零钱\""), v.decoded());
    }

    @Test
    void aRefundNoticeOfAnotherTransactionIsStillARefund() {
        String other = newTxn();
        VerifiedNotification v = accepted(WechatV2Fixtures.refundBody(newOrderNo(), other, 100, "SUCCESS"));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(other, v.transactionId());
    }

    // ---- account ids: ACCOUNT_MISMATCH, decided by the state machine before anything else

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        "appid, " + TestChannels.WX_APPID_2,
        "appid, wxffffffffffffffff",
        "mch_id, 10000101",
        "sub_mch_id, 1900000109",
        "sub_appid, wxffffffffffffffff"
    })
    void theUnsignedOuterIdsOfARefundNoticeDecideNothing(String field, String value) {
        // anyone can rewrite the fields outside req_info without breaking its encryption: they never flag an order
        var f = WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(newOrderNo(), newTxn(), 100, "SUCCESS"), TestChannels.WX_KEY));
        f.put(field, value);
        VerifiedNotification v = accepted(WechatV2Fixtures.body(f));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertFalse(v.accountMismatch());
    }

    // ---- rules of the matrix that OrderStateMachineTest does not hold cell by cell, with real v2 notices

    static final long AMOUNT = 100;

    static Decision decide(OrderSnapshot order, byte[] body) {
        return OrderStateMachine.decide(order, accepted(body), false);
    }

    @Test
    void aDuplicateInAnotherCurrencyIsStillADuplicateButFlagsTheAmount() {
        String txn = newTxn();
        var order = new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", txn, "SUCCESS");
        Decision d = decide(
                order,
                WechatV2Fixtures.payment(newOrderNo(), txn, AMOUNT)
                        .with("fee_type", "HKD")
                        .md5());
        assertEquals(Outcome.DUPLICATE, d.outcome());
        assertNull(d.reason());
        assertNull(d.newState());
        assertTrue(d.successAck());
        assertEquals(List.of(Reason.AMOUNT_MISMATCH), d.attention());
    }

    @Test
    void aPaymentOfAnotherAmountOnAClosedOrderFlagsBoth() {
        var order = new OrderSnapshot(OrderState.CLOSED, AMOUNT, "CNY", null, null);
        Decision d = decide(
                order, WechatV2Fixtures.payment(newOrderNo(), newTxn(), 5).md5());
        assertEquals(Outcome.ANOMALY, d.outcome());
        assertEquals(Reason.PAID_AFTER_CLOSE, d.reason());
        assertNull(d.newState());
        assertTrue(d.successAck());
        assertEquals(List.of(Reason.PAID_AFTER_CLOSE, Reason.AMOUNT_MISMATCH), d.attention());
    }
}
