package io.paynotify.idempotency;

import io.paynotify.metrics.Meters;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.IdempotencyKeyRows;
import io.paynotify.persistence.Transactions;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Deletes expired Idempotency-Keys (docs/api.md "Idempotency-Key", {@code paynotify.idempotency.retention}) in statements of at
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
    public static final int BATCH = IdempotencyKeyRows.CLEANUP_BATCH;

    /** Statements per run, at most: bounds one run at a million rows. */
    static final int MAX_STATEMENTS = 1000;

    private static final Logger LOG = Logger.getLogger("io.paynotify.idempotency");

    private final Transactions transactions;
    private final Clock clock;
    private final Meters metrics;

    @Inject
    public IdempotencyCleanupJob(Transactions transactions, Clock clock, Meters metrics) {
        this.transactions = transactions;
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
        } catch (DatabaseUnavailable e) {
            metrics.cleanupFailed();
            // the next run tries again; expired keys are already treated as absent by the claim
            LOG.warnf("idempotency cleanup failed (SQLState %s)", e.sqlState());
        }
    }

    /**
     * One cleanup run.
     *
     * @return the rows deleted by each statement, in order (each at most {@link #BATCH}; the last is 0 unless the
     *     run hit {@link #MAX_STATEMENTS})
     */
    public List<Integer> run() {
        Instant now = clock.instant();
        return transactions.autoCommit(c -> {
            var counts = new ArrayList<Integer>();
            for (int i = 0; i < MAX_STATEMENTS; i++) {
                int n = IdempotencyKeyRows.deleteExpiredBatch(c, now);
                counts.add(n);
                if (n == 0) {
                    break;
                }
            }
            return counts;
        });
    }
}
