package io.paynotify.core.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every cell of the outcome matrix (docs/state-machine.md), and its precedence rules, on the pure state machine. */
@Tag("unit")
class OrderStateMachineTest {

    static final String TXN = "T-1";
    static final long AMOUNT = 100;

    /** The order columns of the matrix. */
    enum Col {
        NONE,
        PENDING,
        SUCCESS_SAME_TXN,
        SUCCESS_OTHER_TXN,
        CLOSED;

        OrderSnapshot order() {
            return switch (this) {
                case NONE -> null;
                case PENDING -> new OrderSnapshot(OrderState.PENDING, AMOUNT, "CNY", null, null);
                case SUCCESS_SAME_TXN -> new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", TXN, "SUCCESS");
                case SUCCESS_OTHER_TXN -> new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", "T-OTHER", "SUCCESS");
                case CLOSED -> new OrderSnapshot(OrderState.CLOSED, AMOUNT, "CNY", null, null);
            };
        }
    }

    static VerifiedNotification n(NotifyClass cls, Long amount, String currency, boolean finished, boolean mismatch) {
        if (cls == NotifyClass.REFUND) {
            // a v3-shaped refund of 10 on the order's transaction and total: the refund table of docs/api.md "Refunds"
            // decides it
            return VerifiedNotification.builder(
                            Provider.WECHATPAY_V3, "wx3", "O1", cls, "SUCCESS", new byte[0], Instant.EPOCH)
                    .transactionId(TXN)
                    .amount(10L)
                    .accountMismatch(mismatch)
                    .refund(new io.paynotify.core.notify.RefundNotice(
                            "R1", true, "RID1", RefundStatus.SUCCESS, 10L, false, AMOUNT, null))
                    .build();
        }
        return VerifiedNotification.builder(
                        Provider.ALIPAY,
                        "ali-test",
                        "O1",
                        cls,
                        finished ? "TRADE_FINISHED" : "TRADE_SUCCESS",
                        new byte[0],
                        Instant.EPOCH)
                .transactionId(TXN)
                .amount(amount)
                .currency(currency)
                .finishedNotice(finished)
                .accountMismatch(mismatch)
                .notifyId("n1")
                .build();
    }

    static VerifiedNotification n(NotifyClass cls) {
        return n(cls, AMOUNT, "CNY", false, false);
    }

    /** class, column, outcome, reason (or null), new state (or null), success ack, attention. */
    static Stream<Arguments> matrix() {
        var out = new ArrayList<Arguments>();
        NotifyClass P = NotifyClass.PAID;
        out.add(Arguments.of(P, Col.NONE, Outcome.ANOMALY, Reason.UNKNOWN_ORDER, null, false));
        out.add(Arguments.of(P, Col.PENDING, Outcome.APPLIED, null, OrderState.SUCCESS, true));
        out.add(Arguments.of(P, Col.SUCCESS_SAME_TXN, Outcome.DUPLICATE, null, null, true));
        out.add(Arguments.of(P, Col.SUCCESS_OTHER_TXN, Outcome.ANOMALY, Reason.DUPLICATE_PAYMENT, null, true));
        out.add(Arguments.of(P, Col.CLOSED, Outcome.ANOMALY, Reason.PAID_AFTER_CLOSE, null, true));
        NotifyClass C = NotifyClass.CLOSE;
        out.add(Arguments.of(C, Col.NONE, Outcome.IGNORED, Reason.NO_ORDER, null, true));
        out.add(Arguments.of(C, Col.PENDING, Outcome.APPLIED, null, OrderState.CLOSED, true));
        out.add(Arguments.of(C, Col.SUCCESS_SAME_TXN, Outcome.ANOMALY, Reason.CLOSED_AFTER_PAID, null, true));
        out.add(Arguments.of(C, Col.SUCCESS_OTHER_TXN, Outcome.ANOMALY, Reason.CLOSED_AFTER_PAID, null, true));
        out.add(Arguments.of(C, Col.CLOSED, Outcome.DUPLICATE, null, null, true));
        NotifyClass R = NotifyClass.REFUND;
        // the refund row is decided by the refund table (RefundTableTest has every row of it)
        out.add(Arguments.of(R, Col.NONE, Outcome.IGNORED, Reason.NO_ORDER, null, true));
        out.add(Arguments.of(R, Col.PENDING, Outcome.ANOMALY, Reason.REFUND_ON_UNPAID, null, false));
        out.add(Arguments.of(R, Col.SUCCESS_SAME_TXN, Outcome.APPLIED, null, OrderState.PARTIALLY_REFUNDED, true));
        out.add(Arguments.of(
                R, Col.SUCCESS_OTHER_TXN, Outcome.ANOMALY, Reason.REFUND_TRANSACTION_MISMATCH, null, false));
        out.add(Arguments.of(R, Col.CLOSED, Outcome.ANOMALY, Reason.REFUND_ON_UNPAID, null, true));
        NotifyClass I = NotifyClass.INFO;
        out.add(Arguments.of(I, Col.NONE, Outcome.IGNORED, Reason.NO_ORDER, null, true));
        for (Col c : List.of(Col.PENDING, Col.SUCCESS_SAME_TXN, Col.SUCCESS_OTHER_TXN, Col.CLOSED)) {
            out.add(Arguments.of(I, c, Outcome.IGNORED, Reason.NOT_FINAL, null, true));
        }
        for (Col c : Col.values()) {
            out.add(Arguments.of(NotifyClass.UNKNOWN, c, Outcome.ANOMALY, Reason.UNKNOWN_STATUS, null, false));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} x {1} -> {2} {3}")
    @MethodSource("matrix")
    void everyCellOfTheMatrix(
            NotifyClass cls, Col col, Outcome outcome, Reason reason, OrderState newState, boolean successAck) {
        Decision d = OrderStateMachine.decide(col.order(), n(cls), false);
        assertEquals(outcome, d.outcome());
        assertEquals(reason, d.reason());
        assertEquals(newState, d.newState());
        assertEquals(successAck, d.successAck());
        // every ANOMALY flags the order; nothing else does (with a matching amount)
        assertEquals(outcome == Outcome.ANOMALY ? List.of(reason) : List.of(), d.attention());
        assertEquals(outcome == Outcome.APPLIED && newState == OrderState.SUCCESS, d.pays());
    }

    @Test
    void matrixCoversEveryClassAndColumn() {
        assertEquals(NotifyClass.values().length * Col.values().length, matrix().count());
    }

    @ParameterizedTest(name = "ACCOUNT_MISMATCH overrides {0} x {1}")
    @MethodSource("allCells")
    void accountMismatchOverridesEveryCell(NotifyClass cls, Col col) {
        for (boolean elsewhere : new boolean[] {false, true}) {
            Decision d = OrderStateMachine.decide(col.order(), n(cls, AMOUNT, "CNY", false, true), elsewhere);
            assertEquals(Outcome.ANOMALY, d.outcome());
            assertEquals(Reason.ACCOUNT_MISMATCH, d.reason());
            assertNull(d.newState());
            assertFalse(d.successAck());
            assertEquals(List.of(Reason.ACCOUNT_MISMATCH), d.attention());
        }
    }

    @ParameterizedTest(name = "TRANSACTION_ON_OTHER_ORDER overrides PAID x {1}")
    @MethodSource("allCells")
    void transactionOnOtherOrderOverridesEveryPaidCell(NotifyClass cls, Col col) {
        Decision d = OrderStateMachine.decide(col.order(), n(cls), true);
        if (cls == NotifyClass.PAID) {
            assertEquals(Outcome.ANOMALY, d.outcome());
            assertEquals(Reason.TRANSACTION_ON_OTHER_ORDER, d.reason());
            assertNull(d.newState());
            assertFalse(d.successAck());
        } else {
            // only a PAID notice can take a transaction id: other classes ignore the flag
            assertEquals(OrderStateMachine.decide(col.order(), n(cls), false), d);
        }
    }

    static Stream<Arguments> allCells() {
        var out = new ArrayList<Arguments>();
        for (NotifyClass cls : NotifyClass.values()) {
            for (Col c : Col.values()) {
                out.add(Arguments.of(cls, c));
            }
        }
        return out.stream();
    }

    @Test
    void paidOnPendingWithAnotherAmountOrCurrencyIsAmountMismatch() {
        for (VerifiedNotification v : List.of(
                n(NotifyClass.PAID, AMOUNT + 1, "CNY", false, false),
                n(NotifyClass.PAID, AMOUNT - 1, "CNY", false, false),
                n(NotifyClass.PAID, null, "CNY", false, false),
                n(NotifyClass.PAID, AMOUNT, "USD", false, false))) {
            Decision d = OrderStateMachine.decide(Col.PENDING.order(), v, false);
            assertEquals(Outcome.ANOMALY, d.outcome());
            assertEquals(Reason.AMOUNT_MISMATCH, d.reason());
            assertNull(d.newState());
            assertFalse(d.successAck());
            assertEquals(List.of(Reason.AMOUNT_MISMATCH), d.attention());
        }
    }

    @Test
    void paidOnNonPendingWithAnotherAmountKeepsTheCellAndAddsAmountMismatch() {
        var v = n(NotifyClass.PAID, AMOUNT + 1, "CNY", false, false);
        Decision dup = OrderStateMachine.decide(Col.SUCCESS_SAME_TXN.order(), v, false);
        assertEquals(Outcome.DUPLICATE, dup.outcome());
        assertNull(dup.reason());
        assertTrue(dup.successAck());
        assertEquals(List.of(Reason.AMOUNT_MISMATCH), dup.attention());

        Decision other = OrderStateMachine.decide(Col.SUCCESS_OTHER_TXN.order(), v, false);
        assertEquals(Reason.DUPLICATE_PAYMENT, other.reason());
        assertTrue(other.successAck());
        assertEquals(List.of(Reason.DUPLICATE_PAYMENT, Reason.AMOUNT_MISMATCH), other.attention());

        Decision closed =
                OrderStateMachine.decide(Col.CLOSED.order(), n(NotifyClass.PAID, AMOUNT, "USD", false, false), false);
        assertEquals(Reason.PAID_AFTER_CLOSE, closed.reason());
        assertTrue(closed.successAck());
        assertEquals(List.of(Reason.PAID_AFTER_CLOSE, Reason.AMOUNT_MISMATCH), closed.attention());
    }

    @Test
    void tradeFinishedAfterTradeSuccessIsAlreadyPaid() {
        var finished = n(NotifyClass.PAID, AMOUNT, "CNY", true, false);
        Decision d = OrderStateMachine.decide(
                new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", TXN, "TRADE_SUCCESS"), finished, false);
        assertEquals(Outcome.IGNORED, d.outcome());
        assertEquals(Reason.ALREADY_PAID, d.reason());
        assertTrue(d.successAck());
        assertEquals(List.of(), d.attention());

        // TRADE_FINISHED again after a TRADE_FINISHED is the same fact: a duplicate
        Decision again = OrderStateMachine.decide(
                new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", TXN, "TRADE_FINISHED"), finished, false);
        assertEquals(Outcome.DUPLICATE, again.outcome());

        // ... with another amount: still ALREADY_PAID, and the amount is flagged
        Decision differing = OrderStateMachine.decide(
                new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", TXN, "TRADE_SUCCESS"),
                n(NotifyClass.PAID, AMOUNT + 5, "CNY", true, false),
                false);
        assertEquals(Reason.ALREADY_PAID, differing.reason());
        assertEquals(List.of(Reason.AMOUNT_MISMATCH), differing.attention());

        // with another trade number it is a second payment, whatever the status
        Decision otherTxn = OrderStateMachine.decide(
                new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", "T-OTHER", "TRADE_SUCCESS"), finished, false);
        assertEquals(Reason.DUPLICATE_PAYMENT, otherTxn.reason());
    }

    @Test
    void everyReasonCarriesTheContractAckPolicy() {
        // REFUND_ON_UNPAID's ack is decided by its cell (fail on PENDING, ok on CLOSED): its default is ok
        List<Reason> fail = List.of(
                Reason.ACCOUNT_MISMATCH,
                Reason.TRANSACTION_ON_OTHER_ORDER,
                Reason.UNKNOWN_ORDER,
                Reason.AMOUNT_MISMATCH,
                Reason.UNKNOWN_STATUS,
                Reason.REFUND_TRANSACTION_MISMATCH,
                Reason.REFUND_EXCEEDS_AMOUNT);
        for (Reason r : Reason.values()) {
            assertEquals(!fail.contains(r), r.successAck(), r.name());
        }
    }
}
