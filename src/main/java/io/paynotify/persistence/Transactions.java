package io.paynotify.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * The one way this service talks to PostgreSQL: every transaction and every read runs through here.
 *
 * <p>A transaction either commits or is rolled back <em>before its connection goes back to the pool</em>, whatever
 * was thrown ({@link Error}s and unchecked exceptions included). That matters because Agroal resets a returned
 * connection with {@code setAutoCommit(true)}, and the PostgreSQL driver commits an open transaction on that call:
 * without the rollback, a notification row inserted before an unexpected exception would be committed half-done.
 *
 * <p>Where the caller allows it ({@link Retry#ON_CONFLICT}), a transaction that meets a unique violation, a
 * serialization failure or a deadlock runs again from the start on a fresh connection, at most
 * {@link #MAX_ATTEMPTS} times: the work then sees what the other transaction committed and decides again.
 *
 * <p>Every {@link SQLException} leaves as {@link DatabaseUnavailable}; nothing above this class handles SQL errors.
 */
@ApplicationScoped
public class Transactions {

    /** Attempts of a retried transaction, the first included. */
    static final int MAX_ATTEMPTS = 3;

    /** Whether a transaction runs again after a conflict with a concurrent one. */
    public enum Retry {
        /** Never: the conflict is an answer (503) for the caller. */
        NONE,
        /** Unique violation (23505), serialization failure (40001), deadlock (40P01): run the work again. */
        ON_CONFLICT
    }

    /** Work inside one transaction (or one read), on a connection that the work must not close. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private static final Executor SAME_THREAD = Runnable::run;

    private final DataSource dataSource;

    @Inject
    public Transactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Runs the work in one transaction and commits it. The work may call {@link Connection#rollback()} itself to
     * end the transaction without effect (the commit that follows then does nothing).
     *
     * @throws DatabaseUnavailable the database failed, or the COMMIT's outcome is unknown
     */
    public <T> T inTransaction(Retry retry, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return once(work);
            } catch (SQLException e) {
                if (retry == Retry.ON_CONFLICT && attempt < MAX_ATTEMPTS && conflict(e)) {
                    continue;
                }
                throw new DatabaseUnavailable(e);
            }
        }
    }

    /**
     * Runs the work in one transaction under another {@code statement_timeout} (e.g. {@code 30s}, {@code 500ms},
     * {@code 2min}), for work that locks no order. The server's bound is {@code SET LOCAL}, so it ends with the
     * transaction: never a session-level {@code SET}, which behind PgBouncer's transaction pooling would miss the
     * work's own statements (each autocommit statement may run on another server connection) and stay on a server
     * connection that other clients then get (PgBouncerIT read the role's 1.5 s back as 30 s). The client's bound,
     * the driver's socket timeout (3 s), is raised to the statement timeout and 5 s more for the work and put back
     * before the connection returns to the pool: otherwise the driver would give up on any statement after 3 s
     * whatever the server allows. Not retried.
     */
    public <T> T underStatementTimeout(String statementTimeout, Work<T> work) {
        long millis = millis(statementTimeout);
        return inTransaction(Retry.NONE, c -> {
            int socketTimeout = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, Math.toIntExact(millis + 5_000));
            try {
                try (Statement st = c.createStatement()) {
                    st.execute("SET LOCAL statement_timeout = '" + statementTimeout + "'");
                }
                return work.run(c);
            } finally {
                c.setNetworkTimeout(Runnable::run, socketTimeout);
            }
        });
    }

    /** {@code 30s}, {@code 500ms} or {@code 2min} in milliseconds; anything else is refused. */
    static long millis(String statementTimeout) {
        var m = java.util.regex.Pattern.compile("([0-9]{1,6})(ms|s|min)").matcher(statementTimeout);
        if (!m.matches()) {
            throw new IllegalArgumentException("a statement timeout such as 30s");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> n;
            case "s" -> n * 1_000;
            default -> n * 60_000;
        };
    }

    /**
     * Runs the work in autocommit mode: each statement is its own transaction (reads, and batched deletes that must
     * not hold locks for long).
     */
    public <T> T autoCommit(Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return work.run(c);
        } catch (SQLException e) {
            throw new DatabaseUnavailable(e);
        }
    }

    private <T> T once(Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            boolean committed = false;
            try {
                T result = work.run(c);
                c.commit();
                committed = true;
                return result;
            } finally {
                if (!committed) {
                    rollbackBeforeRelease(c);
                }
            }
        }
    }

    /**
     * Rolls back; when even that fails the connection is aborted, so that the pool discards it instead of resetting
     * it (and the server rolls back when the socket closes).
     */
    private static void rollbackBeforeRelease(Connection c) {
        try {
            c.rollback();
        } catch (SQLException | RuntimeException e) {
            try {
                c.abort(SAME_THREAD);
            } catch (SQLException | RuntimeException ignored) {
                // nothing more can be done: the connection is broken either way
            }
        }
    }

    /**
     * True for the errors after which the same work, run again, may succeed: unique violation (23505), serialization
     * failure (40001), deadlock (40P01).
     */
    public static boolean conflict(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "40001".equals(state) || "40P01".equals(state);
    }
}
