package io.paynotify.statements;

/**
 * Why an operator's upload or fetch was refused before it changed anything: the HTTP status the admin API answers,
 * a short type, and a detail without any value of the bill.
 */
public final class StatementProblem extends RuntimeException {

    private final int status;
    private final String type;

    StatementProblem(int status, String type, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    static StatementProblem claimed() {
        return new StatementProblem(409, "statement-claimed", "This day's statement is being fetched or uploaded.");
    }
}
