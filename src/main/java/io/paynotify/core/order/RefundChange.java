package io.paynotify.core.order;

import java.time.Instant;

/**
 * What a decision does to one refund row: create it or move it to a new status.
 *
 * @param outRefundNo the refund's identity within its trade
 * @param refundId the provider's refund id, or null
 * @param status the refund's status after the change
 * @param amount fen: what this refund adds to the order's refunded amount (0 unless it becomes SUCCESS)
 * @param succeededAt when it succeeded (only for SUCCESS), else null
 */
public record RefundChange(
        String outRefundNo, String refundId, RefundStatus status, long amount, Instant succeededAt) {}
