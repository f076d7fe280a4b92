package io.paynotify.core.statement;

import io.paynotify.core.order.OrderState;
import java.util.Objects;

/**
 * The rules of CONTRACT.md §11 "Comparing" that decide one bill line against the ledger: each line raises at most one
 * difference, the first kind that applies, in the table's order. Pure: the caller finds the order and the refunds.
 */
public final class Comparison {

    /** A WeChat refund line in this {@code 退款状态} raises nothing: the refund was closed when the line was written. */
    public static final String REFUND_CLOSED = "REFUNDCLOSE";

    private Comparison() {}

    /**
     * A payment line of the channel.
     *
     * @param order the order of its {@code outTradeNo} on the channel, or null
     * @param partner whether the channel is a service provider's (its orders name sub-merchants)
     * @return the difference it raises, or null
     */
    public static DifferenceKind payment(BillLine line, LedgerOrder order, boolean partner) {
        if (order == null) {
            return DifferenceKind.UNKNOWN_ORDER;
        }
        if (partner && !Objects.equals(line.subMerchantId(), order.subMerchantId())) {
            return DifferenceKind.ACCOUNT_MISMATCH;
        }
        if (order.state() == OrderState.PENDING || order.state() == OrderState.CLOSED) {
            return DifferenceKind.MISSING_LOCALLY;
        }
        if (!Objects.equals(line.transactionId(), order.transactionId())) {
            return DifferenceKind.TRANSACTION_MISMATCH;
        }
        if (line.amount() != order.amount()) {
            return DifferenceKind.AMOUNT_MISMATCH;
        }
        return null;
    }

    /**
     * A WeChat refund line of the channel.
     *
     * @param localAmount the amount of the local refund of that {@code (outTradeNo, outRefundNo)}, or null without one
     * @return {@code REFUND_MISSING_LOCALLY} or null
     */
    public static DifferenceKind wechatRefund(BillLine line, Long localAmount) {
        if (REFUND_CLOSED.equals(line.status())) {
            return null;
        }
        return localAmount == null || localAmount != line.amount() ? DifferenceKind.REFUND_MISSING_LOCALLY : null;
    }

    /**
     * An Alipay order's refunds: the refund lines of all stored bills against its {@code refundedAmount}.
     *
     * @param windowSettled whether every day from the last SUCCESS refund's day to that day + hold is settled
     * @return the difference, or null
     */
    public static DifferenceKind alipayRefunds(long billRefunds, long refundedAmount, boolean windowSettled) {
        if (billRefunds > refundedAmount) {
            return DifferenceKind.REFUND_MISSING_LOCALLY;
        }
        if (refundedAmount > billRefunds && windowSettled) {
            return DifferenceKind.REFUND_MISSING_AT_PROVIDER;
        }
        return null;
    }
}
