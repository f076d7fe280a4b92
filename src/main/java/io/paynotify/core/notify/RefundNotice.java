package io.paynotify.core.notify;

import io.paynotify.core.order.RefundStatus;
import java.time.Instant;

/**
 * What a REFUND notice says about its refund (docs/api.md "Refunds"), in provider-neutral terms.
 *
 * @param outRefundNo the refund's identity within its trade (Alipay: {@code out_biz_no}, else the notice's id), or
 *     null when the notice names no refund (a v3 {@code TRANSACTION.*} with trade state REFUND)
 * @param ownRefundNo false when the identity fell back to the notice's own id (Alipay without {@code out_biz_no})
 * @param refundId the provider's refund id, or null
 * @param status the refund status the notice reports
 * @param amount fen: the refund's own amount; for a {@code cumulative} notice the trade's total refunded so far;
 *     null when absent or malformed
 * @param cumulative true when {@code amount} is the trade's running total (Alipay's {@code refund_fee})
 * @param tradeTotal fen: the trade total the notice states, compared with the order's amount (null: not compared)
 * @param succeededAt the provider's refund time, or null when absent or malformed
 */
public record RefundNotice(
        String outRefundNo,
        boolean ownRefundNo,
        String refundId,
        RefundStatus status,
        Long amount,
        boolean cumulative,
        Long tradeTotal,
        Instant succeededAt) {

    /** True when the notice names a refund (everything but a v3 {@code TRANSACTION.*} in trade state REFUND). */
    public boolean identified() {
        return outRefundNo != null;
    }

    /** A refund notice that names no refund: only the trade's state says "refunded". */
    public static RefundNotice unidentified() {
        return new RefundNotice(null, false, null, null, null, false, null, null);
    }
}
