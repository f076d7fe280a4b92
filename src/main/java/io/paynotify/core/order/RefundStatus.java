package io.paynotify.core.order;

/** A refund's status (docs/api.md "Refunds"). SUCCESS and CLOSED are final; a refund that succeeded never goes back. */
public enum RefundStatus {
    /** Accepted by the provider, money not yet returned. */
    PROCESSING,
    /** The money reached the payer: counts in the order's refunded amount. */
    SUCCESS,
    /** Closed without refunding. */
    CLOSED,
    /** The money did not reach the payer (a closed card, a frozen account): an operator acts. */
    ABNORMAL
}
