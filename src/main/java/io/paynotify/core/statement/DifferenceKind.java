package io.paynotify.core.statement;

/**
 * The kinds of difference between a bill and the ledger, in the order in which they are tried on one line
 * (CONTRACT.md §11 "Comparing"): each line raises at most the first that applies.
 */
public enum DifferenceKind {
    ACCOUNT_MISMATCH,
    UNKNOWN_ORDER,
    MISSING_LOCALLY,
    TRANSACTION_MISMATCH,
    AMOUNT_MISMATCH,
    REFUND_MISSING_LOCALLY,
    REFUND_MISSING_AT_PROVIDER,
    MISSING_AT_PROVIDER;

    /** Whether a difference of this kind concerns a refund (it then names an {@code outRefundNo}, except on Alipay). */
    public boolean refund() {
        return this == REFUND_MISSING_LOCALLY || this == REFUND_MISSING_AT_PROVIDER;
    }

    /** Whether it is raised from a bill line of the day (else from the ledger, once its window is settled). */
    public boolean fromLine() {
        return this != REFUND_MISSING_AT_PROVIDER && this != MISSING_AT_PROVIDER;
    }

    /** Whether money is at stake at once: the alert fires as soon as one is OPEN (else after 3 days). */
    public boolean urgent() {
        return this == UNKNOWN_ORDER
                || this == MISSING_LOCALLY
                || this == AMOUNT_MISMATCH
                || this == TRANSACTION_MISMATCH
                || this == ACCOUNT_MISMATCH;
    }

    /** The order attention reason a new OPEN difference adds: {@code STATEMENT_<kind>}. */
    public String attentionReason() {
        return "STATEMENT_" + name();
    }
}
