package io.paynotify.core.order;

/**
 * The part of a refund row the state machine needs: its status and the amount it added to the order.
 *
 * @param status the refund's current status
 * @param amount fen: what this refund added to the order's refunded amount (0 unless SUCCESS)
 */
public record RefundSnapshot(RefundStatus status, long amount) {}
