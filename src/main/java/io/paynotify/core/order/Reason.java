package io.paynotify.core.order;

/**
 * The reason codes of docs/state-machine.md and docs/api.md "Refunds". Each carries whether its ack is usually the provider's success ack
 * ("ok") or the failure ack with status 422 ("fail"), so the outcome table lives here and not in an if-chain. One
 * exception is decided by the cell: REFUND_ON_UNPAID fails on a PENDING order (the provider retries until the
 * payment is applied) and is ok on a CLOSED one.
 */
public enum Reason {
    ACCOUNT_MISMATCH(false),
    TRANSACTION_ON_OTHER_ORDER(false),
    UNKNOWN_ORDER(false),
    AMOUNT_MISMATCH(false),
    UNKNOWN_STATUS(false),
    REFUND_TRANSACTION_MISMATCH(false),
    REFUND_EXCEEDS_AMOUNT(false),
    REFUND_ABNORMAL(true),
    ALREADY_FINAL(true),
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
