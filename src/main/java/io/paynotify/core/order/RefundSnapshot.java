package io.paynotify.core.order;

/**
 * The part of a refund row the state machine needs: its status and the amount it added to the order.
 *
 * @param status the refund's current status
 * @param amount fen: the refund's amount (docs/api.md "Refunds"); only a SUCCESS refund counts in the order's
 *     refunded amount
 */
public record RefundSnapshot(RefundStatus status, long amount) {}
