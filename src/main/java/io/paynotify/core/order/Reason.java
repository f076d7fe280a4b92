package io.paynotify.core.order;

/**
 * The reason codes of CONTRACT.md §1. Each carries whether its ack is the provider's success ack ("ok") or the
 * failure ack with status 422 ("fail"), so the outcome table lives here and not in an if-chain.
 */
public enum Reason {
    ACCOUNT_MISMATCH(false),
    TRANSACTION_ON_OTHER_ORDER(false),
    UNKNOWN_ORDER(false),
    AMOUNT_MISMATCH(false),
    UNKNOWN_STATUS(false),
    DUPLICATE_PAYMENT(true),
    PAID_AFTER_CLOSE(true),
    CLOSED_AFTER_PAID(true),
    REFUND_ON_UNPAID(true),
    ALREADY_PAID(true),
    NO_ORDER(true),
    REFUND(true),
    NOT_FINAL(true);

    private final boolean successAck;

    Reason(boolean successAck) {
        this.successAck = successAck;
    }

    /** True when a notification with this reason is answered with the provider's success ack. */
    public boolean successAck() {
        return successAck;
    }
}
