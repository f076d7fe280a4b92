package io.paynotify.persistence;

import java.sql.SQLException;

/**
 * PostgreSQL could not be reached in time, failed a statement, or left a COMMIT's outcome unknown. Every caller
 * answers it the same way: a provider's failure ack or a {@code 503} problem with {@code Retry-After}; never a
 * success. The SQLState (a fixed code, never data) is kept for the log line.
 */
public final class DatabaseUnavailable extends RuntimeException {

    private final String sqlState;

    public DatabaseUnavailable(SQLException cause) {
        super("database unavailable", cause, false, false);
        this.sqlState = cause.getSQLState();
    }

    /** The SQLState of the failure, or {@code "-"} when the driver gave none. */
    public String sqlState() {
        return sqlState == null ? "-" : sqlState;
    }
}
