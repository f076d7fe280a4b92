package io.paynotify.persistence;

import io.paynotify.core.order.RefundSnapshot;
import io.paynotify.core.order.RefundStatus;
import java.time.Instant;

/**
 * One row of {@code refunds}, as {@link Refunds} reads it.
 *
 * @param amount fen: the refund's amount, whatever its status (only SUCCESS refunds count in the order's refunded amount)
 * @param succeededAt when it succeeded, or null
 */
public record RefundRow(
        long id,
        long orderId,
        String outRefundNo,
        String refundId,
        long amount,
        RefundStatus status,
        Instant succeededAt,
        Instant createdAt,
        Instant updatedAt) {

    /** What the state machine needs of this refund. */
    public RefundSnapshot snapshot() {
        return new RefundSnapshot(status, amount);
    }
}
