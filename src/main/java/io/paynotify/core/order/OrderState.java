package io.paynotify.core.order;

/**
 * The order states of docs/state-machine.md and docs/api.md "Refunds": {@code PENDING → SUCCESS | CLOSED}, then through refunds
 * {@code SUCCESS → PARTIALLY_REFUNDED → REFUNDED} (or {@code SUCCESS → REFUNDED} for a full refund). No state ever
 * goes back.
 */
public enum OrderState {
    PENDING,
    SUCCESS,
    PARTIALLY_REFUNDED,
    REFUNDED,
    CLOSED;

    /** The paid states: for payment and close notices each behaves as SUCCESS. */
    public boolean isPaid() {
        return this == SUCCESS || this == PARTIALLY_REFUNDED || this == REFUNDED;
    }
}
