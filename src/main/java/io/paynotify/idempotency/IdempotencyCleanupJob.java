package io.paynotify.idempotency;

import io.paynotify.metrics.NotifyMetrics;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Deletes expired Idempotency-Keys (CONTRACT.md §3, {@code paynotify.idempotency.retention}) in statements of at
 * most {@link #BATCH} rows, each its own short transaction, so no run holds many locks or a long transaction.
 *
 * <p>Safe under several replicas running it at the same moment: each statement picks its batch with
 * {@code FOR UPDATE SKIP LOCKED}, so two runs never wait on or delete the same rows, and a row a request is
 * replacing (the claim deletes an expired row of its key) is skipped rather than waited for. A run stops when a
 * statement finds nothing left, or after {@link #MAX_STATEMENTS} statements (the next run continues).
 */
@ApplicationScoped
public class IdempotencyCleanupJob {

    /** Rows per DELETE statement, at most. */
    public static final int BATCH = 1000;

    /** Statements per run, at most: bounds one run at a million rows. */
    static final int MAX_STATEMENTS = 1000;

    private static final Logger LOG = Logger.getLogger("io.paynotify.idempotency");

    private static final String DELETE_BATCH = "DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM"
            + " idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT " + BATCH + " FOR UPDATE SKIP LOCKED)";

    private final DataSource dataSource;
    private final Clock clock;
    private final NotifyMetrics metrics;

    @Inject
    public IdempotencyCleanupJob(DataSource dataSource, Clock clock, NotifyMetrics metrics) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Every five minutes on each replica; a run that is still going is not started twice on one replica. */
    @Scheduled(
            identity = "idempotency-cleanup",
            every = "5m",
            delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            List<Integer> deleted = run();
            int total = deleted.stream().mapToInt(Integer::intValue).sum();
            metrics.cleanupRun(total);
            if (total > 0) {
                LOG.infof("idempotency cleanup deleted=%d statements=%d", total, deleted.size());
            }
        } catch (SQLException e) {
            metrics.cleanupFailed();
            // the next run tries again; expired keys are already treated as absent by the claim
            LOG.warnf(
                    "idempotency cleanup failed: %s (SQLState %s)", e.getClass().getSimpleName(), e.getSQLState());
        }
    }

    /**
     * One cleanup run.
     *
     * @return the rows deleted by each statement, in order (each at most {@link #BATCH}; the last is 0 unless the
     *     run hit {@link #MAX_STATEMENTS})
     */
    public List<Integer> run() throws SQLException {
        var counts = new ArrayList<Integer>();
        Timestamp now = Timestamp.from(clock.instant());
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement(DELETE_BATCH)) {
                ps.setTimestamp(1, now);
                for (int i = 0; i < MAX_STATEMENTS; i++) {
                    int n = ps.executeUpdate();
                    counts.add(n);
                    if (n == 0) {
                        break;
                    }
                }
            }
        }
        return counts;
    }
}
