package io.paynotify.core.statement;

/** Why a day's statement is {@code ERROR} (CONTRACT.md §11 "Statuses and scheduling"): the contract's error codes. */
public enum StatementError {
    SIGNATURE,
    HASH,
    TRUNCATED,
    UNPARSEABLE,
    HTTP,
    TIMEOUT,
    URL_REFUSED,
    PROVIDER,
    NOT_READY,
    TOO_LARGE,
    WRONG_DAY,
    WRONG_ACCOUNT;

    /** Whether a fetch that ended with this error is tried again every {@code paynotify.statements.retry}. */
    public boolean retried() {
        return this == NOT_READY
                || this == HTTP
                || this == TIMEOUT
                || this == PROVIDER
                || this == HASH
                || this == TRUNCATED;
    }
}
