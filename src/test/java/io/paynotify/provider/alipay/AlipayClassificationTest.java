package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayAdapterTest.ALI_RSA;
import static io.paynotify.provider.alipay.AlipayAdapterTest.assertBadRequest;
import static io.paynotify.provider.alipay.AlipayAdapterTest.verify;
import static io.paynotify.testing.AlipayFixtures.TRADE_NO;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderSnapshot;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.core.order.Outcome;
import io.paynotify.core.order.Reason;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.TestChannels;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an Alipay notice means (docs/api.md "How a notification is handled"), without Quarkus: the {@link NotifyClass} of each trade_status,
 * refunds that arrive as TRADE_SUCCESS or TRADE_CLOSED, the compared amount and the account ids. What each class
 * then does to an order is the pure state machine's ({@code OrderStateMachineTest}); the Alipay-only rows it does
 * not show (TRADE_FINISHED) are at the end, fed with what the adapter produced.
 */
@Tag("unit")
class AlipayClassificationTest {

    // ---- trade_status

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "TRADE_SUCCESS, PAID, false",
        "TRADE_FINISHED, PAID, true",
        "TRADE_CLOSED, CLOSE, false",
        "WAIT_BUYER_PAY, INFO, false",
        "TRADE_PENDING, UNKNOWN, false",
        "trade_success, UNKNOWN, false",
        "TRADE_SUCCESS_, UNKNOWN, false",
        "WAIT_SELLER_SEND_GOODS, UNKNOWN, false",
        "Trade_Closed, UNKNOWN, false"
    })
    void eachTradeStatusHasItsClass(String status, NotifyClass cls, boolean finishedNotice) {
        VerifiedNotification n = verify(aNotice().status(status));
        assertEquals(cls, n.notifyClass());
        assertEquals(status, n.providerStatus());
        assertEquals(finishedNotice, n.finishedNotice());
        assertEquals(100L, n.amountMinor());
        assertEquals(TRADE_NO, n.transactionId());
        assertFalse(n.accountMismatch());
    }

    // ---- refunds

    static final List<String> EVERY_STATUS =
            List.of("TRADE_SUCCESS", "TRADE_CLOSED", "TRADE_FINISHED", "WAIT_BUYER_PAY", "TRADE_PENDING");

    static Stream<Arguments> eachRefundFieldWithEachStatus() {
        var out = new ArrayList<Arguments>();
        for (String[] field :
                new String[][] {{"refund_fee", "0.01"}, {"out_biz_no", "RF-1"}, {"gmt_refund", "2026-01-03 10:00:00"}
                }) {
            for (String status : EVERY_STATUS) {
                out.add(Arguments.of(field[0], field[1], status));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}={1} with {2}")
    @MethodSource("eachRefundFieldWithEachStatus")
    void eachRefundFieldAloneMakesARefundWhateverTheStatus(String field, String value, String status) {
        VerifiedNotification n = verify(aNotice().status(status).set(field, value));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        // the status is kept as sent, for the record
        assertEquals(status, n.providerStatus());
    }

    @ParameterizedTest
    @ValueSource(strings = {"TRADE_SUCCESS", "TRADE_CLOSED", "TRADE_FINISHED"})
    void aRefundIsNeverAPaymentNorAClose(String status) {
        // a partial refund arrives as TRADE_SUCCESS, a full one as TRADE_CLOSED: neither may pay or close the order
        VerifiedNotification n = verify(aNotice()
                .status(status)
                .set("refund_fee", "1.00")
                .set("out_biz_no", "RF" + AlipayFixtures.ORDER_NO)
                .set("gmt_refund", "2026-01-03 10:00:00.123"));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertEquals(status, n.providerStatus());
        assertEquals(100L, n.amountMinor());
        assertEquals(TRADE_NO, n.transactionId());
    }

    @ParameterizedTest
    @CsvSource({
        "TRADE_SUCCESS, 0.00, PAID",
        "TRADE_SUCCESS, 0, PAID",
        "TRADE_FINISHED, 0.0, PAID",
        "TRADE_CLOSED, 0, CLOSE",
        "TRADE_CLOSED, 0.00, CLOSE",
        "WAIT_BUYER_PAY, 0.00, INFO"
    })
    void refundFeeZeroAloneIsNotARefund(String status, String refundFee, NotifyClass cls) {
        assertEquals(
                cls,
                verify(aNotice().status(status).set("refund_fee", refundFee)).notifyClass());
    }

    @Test
    void emptyRefundFieldsAreAbsent() {
        // empty values are not signed, and not a refund
        VerifiedNotification n =
                verify(aNotice().set("out_biz_no", "").set("gmt_refund", "").set("refund_fee", ""));
        assertEquals(NotifyClass.PAID, n.notifyClass());
    }

    static Stream<Arguments> malformedRefundFees() {
        var out = new ArrayList<Arguments>();
        for (String status : List.of("TRADE_SUCCESS", "TRADE_CLOSED", "WAIT_BUYER_PAY", "TRADE_FINISHED")) {
            for (String fee : List.of("abc", "1.001", "-1.00", "+1", "１.00", "1E+5000000", " 0.00")) {
                out.add(Arguments.of(status, fee));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} refund_fee=''{1}''")
    @MethodSource("malformedRefundFees")
    void aMalformedRefundFeeIs400InEveryClass(String status, String fee) {
        // refund_fee decides the class, so a notice whose refund_fee cannot be read cannot be classified
        assertBadRequest(
                Cause.BAD_AMOUNT,
                aNotice().status(status).set("refund_fee", fee).body());
    }

    // ---- the compared amount

    @Test
    void theAmountIsTotalAmountNeverTheOthers() {
        VerifiedNotification more =
                verify(aNotice().amount("1.01").set("receipt_amount", "1.00").set("buyer_pay_amount", "1.00"));
        assertEquals(101L, more.amountMinor());
        VerifiedNotification discounted = verify(aNotice()
                .amount("1.00")
                .set("receipt_amount", "0.80")
                .set("buyer_pay_amount", "0.70")
                .set("invoice_amount", "0.80")
                .set("point_amount", "0.20"));
        assertEquals(100L, discounted.amountMinor());
    }

    // ---- account ids (ACCOUNT_MISMATCH is decided by the state machine from this flag)

    @Test
    void theChannelsOwnIdsAreNoMismatch() {
        assertFalse(verify(aNotice()).accountMismatch());
        // an absent or empty auth_app_id is fine, and without seller-id on the channel any seller_id is
        assertFalse(verify(aNotice().without("auth_app_id").set("seller_id", "2088999999999999"))
                .accountMismatch());
        assertFalse(verify(aNotice().set("auth_app_id", "")).accountMismatch());
        assertFalse(verify(aNotice().without("seller_id")).accountMismatch());
    }

    @Test
    void anAppIdDifferingFromTheChannelIsAMismatch() {
        // another channel's app id, signed with this channel's key
        assertTrue(verify(aNotice()
                        .set("app_id", TestChannels.ALI_RSA_APPID)
                        .set("auth_app_id", TestChannels.ALI_RSA_APPID))
                .accountMismatch());
        assertTrue(verify(aNotice().set("app_id", TestChannels.ALI_RSA_APPID).without("auth_app_id"))
                .accountMismatch());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2021000000000097", "1", TestChannels.ALI_RSA_APPID})
    void anAuthAppIdDifferingFromAppIdIsAMismatch(String authAppId) {
        assertTrue(verify(aNotice().set("auth_app_id", authAppId)).accountMismatch());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "2088000000000002", "2088000000000001 ", " 2088000000000001"})
    void theSellerIdIsRequiredAndComparedWhereTheChannelSetsIt(String sellerId) {
        VerifiedNotification n = verify(
                ALI_RSA, aNotice().onRsaChannel().set("seller_id", sellerId).body());
        assertTrue(n.accountMismatch(), "seller_id=" + sellerId);
        assertEquals(NotifyClass.PAID, n.notifyClass());
    }

    @Test
    void theChannelsSellerIdIsNoMismatch() {
        assertEquals(
                TestChannels.ALI_RSA_SELLER, aNotice().onRsaChannel().params().get("seller_id"));
        assertFalse(verify(ALI_RSA, aNotice().onRsaChannel().body()).accountMismatch());
    }

    @ParameterizedTest
    @CsvSource({
        "TRADE_SUCCESS, PAID",
        "TRADE_CLOSED, CLOSE",
        "WAIT_BUYER_PAY, INFO",
        "TRADE_PENDING, UNKNOWN",
    })
    void aMismatchIsFlaggedInEveryClassWhichStaysAsItIs(String status, NotifyClass cls) {
        VerifiedNotification n = verify(aNotice().status(status).set("auth_app_id", "1"));
        assertTrue(n.accountMismatch());
        assertEquals(cls, n.notifyClass());
        VerifiedNotification refund =
                verify(aNotice().status(status).set("refund_fee", "1.00").set("auth_app_id", "1"));
        assertTrue(refund.accountMismatch());
        assertEquals(NotifyClass.REFUND, refund.notifyClass());
    }

    // ---- out_trade_no

    @ParameterizedTest
    @ValueSource(strings = {"Case-abc", "CASE-ABC", "case-abc", "Case-ab"})
    void theOrderNumberIsKeptExactlyAsSent(String orderNo) {
        // the lookup is byte for byte (intake/NotificationRulesTest): nothing here may fold case or trim
        assertEquals(orderNo, verify(aNotice().orderNo(orderNo)).outTradeNo());
    }

    // ---- TRADE_FINISHED through the state machine: the Alipay row OrderStateMachineTest does not show

    static final OrderSnapshot PENDING = new OrderSnapshot(OrderState.PENDING, 100, "CNY", null, null);

    static OrderSnapshot paidBy(String transactionId, String status) {
        return new OrderSnapshot(OrderState.SUCCESS, 100, "CNY", transactionId, status);
    }

    static final OrderSnapshot CLOSED = new OrderSnapshot(OrderState.CLOSED, 100, "CNY", null, null);

    static Decision decide(OrderSnapshot order, String status, boolean transactionOnOtherOrder) {
        return OrderStateMachine.decide(order, verify(aNotice().status(status)), transactionOnOtherOrder);
    }

    @Test
    void tradeFinishedOnAPendingOrderPaysIt() {
        Decision d = decide(PENDING, "TRADE_FINISHED", false);
        assertEquals(Outcome.APPLIED, d.outcome());
        assertEquals(OrderState.SUCCESS, d.newState());
        assertTrue(d.pays());
        assertTrue(d.successAck());
        assertEquals(List.of(), d.attention());
    }

    @Test
    void tradeFinishedOnAnyOtherOrderIsTheMatrixOfAPayment() {
        Decision none = decide(null, "TRADE_FINISHED", false);
        assertEquals(Reason.UNKNOWN_ORDER, none.reason());
        assertFalse(none.successAck());

        Decision paid = decide(paidBy(TRADE_NO, "TRADE_SUCCESS"), "TRADE_FINISHED", false);
        assertEquals(Outcome.IGNORED, paid.outcome());
        assertEquals(Reason.ALREADY_PAID, paid.reason());
        assertNull(paid.newState());
        assertTrue(paid.successAck());

        Decision again = decide(paidBy(TRADE_NO, "TRADE_FINISHED"), "TRADE_FINISHED", false);
        assertEquals(Outcome.DUPLICATE, again.outcome());

        Decision other = decide(paidBy("2026010222001400000000000009", "TRADE_SUCCESS"), "TRADE_FINISHED", false);
        assertEquals(Reason.DUPLICATE_PAYMENT, other.reason());
        assertEquals(List.of(Reason.DUPLICATE_PAYMENT), other.attention());

        Decision closed = decide(CLOSED, "TRADE_FINISHED", false);
        assertEquals(Reason.PAID_AFTER_CLOSE, closed.reason());
        assertEquals(List.of(Reason.PAID_AFTER_CLOSE), closed.attention());
    }

    @Test
    void tradeFinishedWithATradeNumberOfAnotherOrderIsTransactionOnOtherOrderEverywhere() {
        for (OrderSnapshot order : new OrderSnapshot[] {
            null,
            PENDING,
            paidBy(TRADE_NO, "TRADE_SUCCESS"),
            paidBy("2026010222001400000000000009", "TRADE_SUCCESS"),
            CLOSED
        }) {
            Decision d = decide(order, "TRADE_FINISHED", true);
            assertEquals(Outcome.ANOMALY, d.outcome(), String.valueOf(order));
            assertEquals(Reason.TRANSACTION_ON_OTHER_ORDER, d.reason(), String.valueOf(order));
            assertNull(d.newState());
            assertFalse(d.successAck());
        }
    }
}
