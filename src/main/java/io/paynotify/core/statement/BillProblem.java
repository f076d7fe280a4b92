package io.paynotify.core.statement;

/**
 * A bill that cannot be used: its {@link StatementError} and a fixed description (a line number at most, never a
 * value of the bill, which may hold personal data). Nothing of such a bill is reconciled.
 */
public final class BillProblem extends Exception {

    private final StatementError error;

    public BillProblem(StatementError error, String detail) {
        super(error + ": " + detail, null, false, false);
        this.error = error;
    }

    public StatementError error() {
        return error;
    }
}
