package io.paynotify.core.statement;

/**
 * A day's statement status (CONTRACT.md §11). {@code NO_BILL}, {@code NOT_READY} and {@code ERROR} are stored as
 * fetched; a day with a read bill is {@code DIFFERENCES} while it has an OPEN difference, else {@code RECONCILED}.
 */
public enum StatementStatus {
    RECONCILED,
    DIFFERENCES,
    NO_BILL,
    NOT_READY,
    ERROR;

    /** Whether the day counts as settled for the missing-at-provider windows (a bill read, or no bill at all). */
    public boolean settled() {
        return this == RECONCILED || this == DIFFERENCES || this == NO_BILL;
    }
}
