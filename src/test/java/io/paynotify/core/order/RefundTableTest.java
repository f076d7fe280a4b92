package io.paynotify.core.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.RefundNotice;
import io.paynotify.core.notify.VerifiedNotification;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The refund table of docs/api.md "Refunds", row by row and in its order (first match wins), on the pure state machine.
 * The order is paid 1000 fen on T-1 unless a row needs otherwise.
 */
@Tag("unit")
class RefundTableTest {

    static final long AMOUNT = 1000;
    static final String TXN = "T-1";
    static final Instant RECEIVED = Instant.parse("2026-01-02T03:04:05Z");
    static final Instant SUCCEEDED = Instant.parse("2026-01-02T01:00:00Z");

    static OrderSnapshot paid(long refunded) {
        OrderState state = refunded == 0
                ? OrderState.SUCCESS
                : refunded == AMOUNT ? OrderState.REFUNDED : OrderState.PARTIALLY_REFUNDED;
        return new OrderSnapshot(state, AMOUNT, "CNY", TXN, "SUCCESS", refunded);
    }

    /** A WeChat (v2 or v3) refund notice: its own amount, the trade total, the order's transaction id. */
    static VerifiedNotification wechat(RefundStatus status, long amount) {
        return wechat(status, amount, AMOUNT, TXN, SUCCEEDED);
    }

    static VerifiedNotification wechat(RefundStatus status, long amount, long total, String txn, Instant at) {
        return notice(
                Provider.WECHATPAY_V3, txn, new RefundNotice("R1", true, "RID1", status, amount, false, total, at));
    }

    /** An Alipay refund notice: refund_fee is the trade's cumulative refunded total. */
    static VerifiedNotification alipay(String outBizNo, Long cumulative) {
        boolean own = outBizNo != null;
        return notice(
                Provider.ALIPAY,
                TXN,
                new RefundNotice(
                        own ? outBizNo : "notify-1", own, null, RefundStatus.SUCCESS, cumulative, true, null, null));
    }

    static VerifiedNotification notice(Provider p, String txn, RefundNotice r) {
        return VerifiedNotification.builder(p, "ch", "O1", NotifyClass.REFUND, "S", new byte[0], RECEIVED)
                .transactionId(txn)
                .amount(r.amount())
                .refund(r)
                .build();
    }

    static Decision decide(OrderSnapshot order, RefundSnapshot refund, VerifiedNotification n) {
        return OrderStateMachine.decide(order, refund, n, false);
    }

    static void assertOutcome(Decision d, Outcome outcome, Reason reason, boolean ok) {
        assertEquals(outcome, d.outcome(), "outcome");
        assertEquals(reason, d.reason(), "reason");
        assertEquals(ok, d.successAck(), "ack");
        assertEquals(outcome == Outcome.ANOMALY ? List.of(reason) : List.of(), d.attention(), "attention");
    }

    static void assertNothingApplied(Decision d) {
        assertNull(d.refund(), "no refund row created or changed");
        assertNull(d.newState());
        assertNull(d.refundedAmount());
    }

    @Test
    void rowAccountMismatchAndUnknownStatusComeFirst() {
        VerifiedNotification mismatched = VerifiedNotification.builder(
                        Provider.WECHATPAY_V3, "ch", "O1", NotifyClass.REFUND, "SUCCESS", new byte[0], RECEIVED)
                .accountMismatch(true)
                .refund(wechat(RefundStatus.SUCCESS, 10).refund())
                .build();
        assertOutcome(decide(paid(0), null, mismatched), Outcome.ANOMALY, Reason.ACCOUNT_MISMATCH, false);
        VerifiedNotification unknown = VerifiedNotification.builder(
                        Provider.WECHATPAY_V2, "ch", "O1", NotifyClass.UNKNOWN, "WHATEVER", new byte[0], RECEIVED)
                .build();
        assertOutcome(decide(paid(0), null, unknown), Outcome.ANOMALY, Reason.UNKNOWN_STATUS, false);
    }

    @Test
    void row1ATransactionInTradeStateRefundNamesNoRefund() {
        VerifiedNotification n = VerifiedNotification.builder(
                        Provider.WECHATPAY_V3, "ch", "O1", NotifyClass.REFUND, "REFUND", new byte[0], RECEIVED)
                .build();
        Decision d = decide(paid(0), null, n);
        assertOutcome(d, Outcome.IGNORED, Reason.REFUND, true);
        assertNothingApplied(d);
        // even without an order
        assertOutcome(decide(null, null, n), Outcome.IGNORED, Reason.REFUND, true);
    }

    @Test
    void row2NoOrder() {
        Decision d = decide(null, null, wechat(RefundStatus.SUCCESS, 10));
        assertOutcome(d, Outcome.IGNORED, Reason.NO_ORDER, true);
        assertNothingApplied(d);
    }

    @Test
    void row3PendingFailsSoTheProviderRetriesUntilThePaymentIsApplied() {
        Decision d = decide(
                new OrderSnapshot(OrderState.PENDING, AMOUNT, "CNY", null, null),
                null,
                wechat(RefundStatus.SUCCESS, 10));
        assertOutcome(d, Outcome.ANOMALY, Reason.REFUND_ON_UNPAID, false);
        assertNothingApplied(d);
    }

    @Test
    void row4ClosedIsOk() {
        Decision d = decide(
                new OrderSnapshot(OrderState.CLOSED, AMOUNT, "CNY", null, null),
                null,
                wechat(RefundStatus.SUCCESS, 10));
        assertOutcome(d, Outcome.ANOMALY, Reason.REFUND_ON_UNPAID, true);
        assertNothingApplied(d);
    }

    @Test
    void row5AnotherTransactionIdIsAMismatch() {
        Decision d = decide(paid(0), null, wechat(RefundStatus.SUCCESS, 10, AMOUNT, "T-OTHER", SUCCEEDED));
        assertOutcome(d, Outcome.ANOMALY, Reason.REFUND_TRANSACTION_MISMATCH, false);
        assertNothingApplied(d);
        // Alipay's trade_no too
        VerifiedNotification ali = notice(
                Provider.ALIPAY,
                "T-OTHER",
                new RefundNotice("B1", true, null, RefundStatus.SUCCESS, 10L, true, null, null));
        assertOutcome(decide(paid(0), null, ali), Outcome.ANOMALY, Reason.REFUND_TRANSACTION_MISMATCH, false);
    }

    @Test
    void row6AnotherTradeTotalIsAnAmountMismatch() {
        Decision d = decide(paid(0), null, wechat(RefundStatus.SUCCESS, 10, AMOUNT + 1, TXN, SUCCEEDED));
        assertOutcome(d, Outcome.ANOMALY, Reason.AMOUNT_MISMATCH, false);
        assertNothingApplied(d);
    }

    @Test
    void row7AlipayWithoutAPositiveRefundFee() {
        for (Long fee : new Long[] {null, 0L}) {
            Decision d = decide(paid(0), null, alipay("B1", fee));
            assertOutcome(d, Outcome.IGNORED, Reason.REFUND, true);
            assertNothingApplied(d);
        }
    }

    @Test
    void row8AlipayThatAddsNothingIsADuplicate() {
        // without out_biz_no: a later notice whose running total is not higher
        Decision noId = decide(paid(300), null, alipay(null, 300L));
        assertOutcome(noId, Outcome.DUPLICATE, null, true);
        assertNothingApplied(noId);
        // with an out_biz_no already known
        Decision known = decide(paid(300), new RefundSnapshot(RefundStatus.SUCCESS, 300), alipay("B1", 200L));
        assertOutcome(known, Outcome.DUPLICATE, null, true);
        assertNothingApplied(known);
    }

    @Test
    void row9ARefundAlreadyClosed() {
        RefundSnapshot closed = new RefundSnapshot(RefundStatus.CLOSED, 0);
        Decision again = decide(paid(0), closed, wechat(RefundStatus.CLOSED, 10));
        assertOutcome(again, Outcome.DUPLICATE, null, true);
        assertNothingApplied(again);
        for (RefundStatus s : List.of(RefundStatus.SUCCESS, RefundStatus.PROCESSING, RefundStatus.ABNORMAL)) {
            Decision d = decide(paid(0), closed, wechat(s, 10));
            assertOutcome(d, Outcome.IGNORED, Reason.ALREADY_FINAL, true);
            assertNothingApplied(d);
        }
    }

    @Test
    void row10SuccessOnARefundAlreadySucceeded() {
        Decision d = decide(paid(10), new RefundSnapshot(RefundStatus.SUCCESS, 10), wechat(RefundStatus.SUCCESS, 10));
        assertOutcome(d, Outcome.DUPLICATE, null, true);
        assertNothingApplied(d);
    }

    @Test
    void row11SuccessThatWouldExceedTheAmount() {
        Decision d = decide(paid(900), null, wechat(RefundStatus.SUCCESS, 101));
        assertOutcome(d, Outcome.ANOMALY, Reason.REFUND_EXCEEDS_AMOUNT, false);
        assertNothingApplied(d);
        // Alipay: a running total above the order's amount
        Decision ali = decide(paid(0), null, alipay("B1", AMOUNT + 1));
        assertOutcome(ali, Outcome.ANOMALY, Reason.REFUND_EXCEEDS_AMOUNT, false);
        assertNothingApplied(ali);
    }

    @Test
    void row12SuccessIsApplied() {
        Decision partial = decide(paid(0), null, wechat(RefundStatus.SUCCESS, 300));
        assertOutcome(partial, Outcome.APPLIED, null, true);
        assertEquals(OrderState.PARTIALLY_REFUNDED, partial.newState());
        assertEquals(300L, partial.refundedAmount());
        assertEquals(new RefundChange("R1", "RID1", RefundStatus.SUCCESS, 300L, SUCCEEDED), partial.refund());

        Decision full = decide(paid(300), null, wechat(RefundStatus.SUCCESS, 700));
        assertEquals(OrderState.REFUNDED, full.newState());
        assertEquals(AMOUNT, full.refundedAmount());

        // straight to REFUNDED for a full refund; a missing refund time is the receipt time
        Decision direct = decide(paid(0), null, wechat(RefundStatus.SUCCESS, AMOUNT, AMOUNT, TXN, null));
        assertEquals(OrderState.REFUNDED, direct.newState());
        assertEquals(RECEIVED, direct.refund().succeededAt());

        // a refund that was PROCESSING or ABNORMAL succeeds
        for (RefundStatus before : List.of(RefundStatus.PROCESSING, RefundStatus.ABNORMAL)) {
            Decision d = decide(paid(0), new RefundSnapshot(before, 0), wechat(RefundStatus.SUCCESS, 300));
            assertEquals(Outcome.APPLIED, d.outcome());
            assertEquals(RefundStatus.SUCCESS, d.refund().status());
        }
    }

    @Test
    void row12AlipayAddsWhatItsRunningTotalHasOverTheCount() {
        Decision first = decide(paid(0), null, alipay("B1", 300L));
        assertEquals(300, first.refund().amount());
        assertEquals(300L, first.refundedAmount());
        assertEquals(OrderState.PARTIALLY_REFUNDED, first.newState());

        Decision second = decide(paid(300), null, alipay("B2", 1000L));
        assertEquals(700, second.refund().amount());
        assertEquals(AMOUNT, second.refundedAmount());
        assertEquals(OrderState.REFUNDED, second.newState());

        // out of order: a new refund whose running total is below what is counted adds 0 and changes no state
        Decision late = decide(paid(1000), null, alipay("B1", 300L));
        assertOutcome(late, Outcome.APPLIED, null, true);
        assertEquals(0, late.refund().amount());
        assertNull(late.refundedAmount());
        assertNull(late.newState());

        // a full refund that arrives as TRADE_CLOSED with refund_fee (and no out_biz_no) is applied the same way
        Decision closedFull = decide(paid(0), null, alipay(null, AMOUNT));
        assertEquals(Outcome.APPLIED, closedFull.outcome());
        assertEquals("notify-1", closedFull.refund().outRefundNo());
        assertEquals(OrderState.REFUNDED, closedFull.newState());
    }

    @Test
    void row13ARefundThatSucceededNeverGoesBack() {
        RefundSnapshot succeeded = new RefundSnapshot(RefundStatus.SUCCESS, 300);
        for (RefundStatus s : List.of(RefundStatus.CLOSED, RefundStatus.PROCESSING, RefundStatus.ABNORMAL)) {
            Decision d = decide(paid(300), succeeded, wechat(s, 300));
            assertOutcome(d, Outcome.IGNORED, Reason.ALREADY_FINAL, true);
            assertNothingApplied(d);
        }
    }

    @Test
    void row14AbnormalFlagsTheOrderAndMarksTheRefund() {
        Decision d = decide(paid(0), null, wechat(RefundStatus.ABNORMAL, 300));
        assertOutcome(d, Outcome.ANOMALY, Reason.REFUND_ABNORMAL, true);
        // the amount that did not reach the payer is what an operator acts on
        assertEquals(new RefundChange("R1", "RID1", RefundStatus.ABNORMAL, 300L, null), d.refund());
        assertNull(d.newState());
        assertNull(d.refundedAmount());
    }

    @Test
    void row15ClosedIsApplied() {
        Decision d = decide(paid(0), new RefundSnapshot(RefundStatus.PROCESSING, 0), wechat(RefundStatus.CLOSED, 300));
        assertOutcome(d, Outcome.APPLIED, null, true);
        assertEquals(new RefundChange("R1", "RID1", RefundStatus.CLOSED, 300L, null), d.refund());
        assertNull(d.newState());
    }

    @Test
    void row16ProcessingCreatesTheRefundIfAbsent() {
        Decision created = decide(paid(0), null, wechat(RefundStatus.PROCESSING, 300));
        assertOutcome(created, Outcome.IGNORED, Reason.NOT_FINAL, true);
        assertEquals(new RefundChange("R1", "RID1", RefundStatus.PROCESSING, 300L, null), created.refund());
        Decision again =
                decide(paid(0), new RefundSnapshot(RefundStatus.PROCESSING, 0), wechat(RefundStatus.PROCESSING, 300));
        assertOutcome(again, Outcome.IGNORED, Reason.NOT_FINAL, true);
        assertNothingApplied(again);
    }

    @Test
    void aRefundThatIsNotSuccessKeepsTheAmountItsNoticeStatesAndOnlySuccessCounts() {
        for (RefundStatus s : List.of(RefundStatus.ABNORMAL, RefundStatus.CLOSED, RefundStatus.PROCESSING)) {
            Decision d = decide(paid(0), null, wechat(s, 250));
            assertEquals(250L, d.refund().amount(), s + ": the refund's amount is the notice's");
            assertNull(d.refundedAmount(), s + ": only a SUCCESS refund counts in the order's refunded amount");
            assertNull(d.newState());
        }
        // a v2 CHANGE or REFUNDCLOSE without refund_fee states no amount: the row keeps the one it has
        VerifiedNotification noFee = notice(
                Provider.WECHATPAY_V2,
                TXN,
                new RefundNotice("R1", true, "RID1", RefundStatus.ABNORMAL, null, false, AMOUNT, null));
        assertNull(decide(paid(0), new RefundSnapshot(RefundStatus.PROCESSING, 250), noFee)
                .refund()
                .amount());
        // a later SUCCESS of the same refund counts its amount once
        Decision later =
                decide(paid(0), new RefundSnapshot(RefundStatus.ABNORMAL, 250), wechat(RefundStatus.SUCCESS, 250));
        assertEquals(250L, later.refund().amount());
        assertEquals(250L, later.refundedAmount());
        assertEquals(OrderState.PARTIALLY_REFUNDED, later.newState());
    }

    @Test
    void paidStatesBehaveAsSuccessForPaymentAndCloseNotices() {
        for (long refunded : new long[] {300, AMOUNT}) {
            VerifiedNotification pay = VerifiedNotification.builder(
                            Provider.WECHATPAY_V2, "ch", "O1", NotifyClass.PAID, "SUCCESS", new byte[0], RECEIVED)
                    .transactionId(TXN)
                    .amount(AMOUNT)
                    .build();
            assertOutcome(decide(paid(refunded), null, pay), Outcome.DUPLICATE, null, true);
            VerifiedNotification close = VerifiedNotification.builder(
                            Provider.ALIPAY, "ch", "O1", NotifyClass.CLOSE, "TRADE_CLOSED", new byte[0], RECEIVED)
                    .build();
            assertOutcome(decide(paid(refunded), null, close), Outcome.ANOMALY, Reason.CLOSED_AFTER_PAID, true);
        }
    }
}
