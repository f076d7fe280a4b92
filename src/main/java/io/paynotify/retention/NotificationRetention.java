package io.paynotify.retention;

import io.paynotify.config.PaynotifyConfig;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.NotificationPartitions;
import io.paynotify.persistence.Transactions;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The lifetime of recorded notifications (docs/operations.md "Retention and sizing"), on every replica:
 *
 * <ol>
 *   <li>the partitions of this month and the next {@link #MONTHS_AHEAD} exist (at start, then every hour), so an insert
 *       never meets a month without one;
 *   <li>every monthly partition whose rows are all older than {@code paynotify.notifications.retention} (default 13
 *       months) is dropped whole: no row of live data is ever deleted one by one;
 *   <li>the raw body and the decoded text of every row older than
 *       {@code paynotify.notifications.personal-data-retention} (default 180 days) are erased, in statements of at most
 *       {@link NotificationPartitions#ERASE_BATCH} rows; the row, its outcome, amount and ids stay, and the admin API
 *       shows {@code personalDataErasedAt}.
 * </ol>
 *
 * Orders, refunds, events and statements are other tables, never touched here. Replicas running this at once take turns
 * on an advisory lock for steps 1 and 2 and skip each other's rows in step 3 ({@code SKIP LOCKED}).
 */
@ApplicationScoped
public class NotificationRetention {

    /** Months created ahead of the current one. */
    public static final int MONTHS_AHEAD = 3;

    /** Erasure statements per run, at most (a million rows; the next run continues). */
    static final int MAX_ERASE_STATEMENTS = 1000;

    private static final Logger LOG = Logger.getLogger("io.paynotify.retention");

    private final Transactions transactions;
    private final Clock clock;
    private final Duration retention;
    private final Duration personalDataRetention;

    /**
     * What one run did.
     *
     * @param created partitions created
     * @param dropped partitions dropped
     * @param erased rows erased per statement (ends with 0 unless the run hit its bound)
     */
    public record Run(List<String> created, List<String> dropped, List<Integer> erased) {
        public int erasedRows() {
            return erased.stream().mapToInt(Integer::intValue).sum();
        }
    }

    @Inject
    public NotificationRetention(Transactions transactions, Clock clock, PaynotifyConfig config) {
        this.transactions = transactions;
        this.clock = clock;
        this.retention = config.notifications().retention();
        this.personalDataRetention = config.notifications().personalDataRetention();
    }

    void onStart(@Observes StartupEvent event) {
        try {
            List<String> created = createAhead(clock.instant());
            if (!created.isEmpty()) {
                LOG.infof("notification partitions created %s", created);
            }
        } catch (DatabaseUnavailable e) {
            // the hourly run tries again; the migration created three months ahead
            LOG.warnf("notification partitions not checked at start (SQLState %s)", e.sqlState());
        }
    }

    /** Every hour on each replica; a run still going is not started twice on one replica. */
    @Scheduled(
            identity = "notification-retention",
            every = "1h",
            delayed = "2m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            Run r = run(clock.instant());
            if (!r.created().isEmpty() || !r.dropped().isEmpty() || r.erasedRows() > 0) {
                LOG.infof(
                        "notification retention created=%s dropped=%s erased=%d statements=%d",
                        r.created(), r.dropped(), r.erasedRows(), r.erased().size());
            }
        } catch (DatabaseUnavailable e) {
            // every statement that ran has committed; the next run continues
            LOG.warnf("notification retention failed (SQLState %s)", e.sqlState());
        }
    }

    /** One full run as of {@code now}: create ahead, drop what is past the retention, erase personal data. */
    public Run run(Instant now) {
        List<String> created = createAhead(now);
        List<String> dropped = dropExpired(now.minus(retention));
        List<Integer> erased = erase(now.minus(personalDataRetention));
        return new Run(created, dropped, erased);
    }

    /** Step 1 alone: the partitions of {@code now}'s month and the next ones; the names it created. */
    public List<String> createAhead(Instant now) {
        return transactions.inTransaction(
                Transactions.Retry.NONE, c -> NotificationPartitions.createAhead(c, now, MONTHS_AHEAD));
    }

    /** Step 2 alone: drops the partitions whose rows are all older than the cutoff; the names it dropped. */
    public List<String> dropExpired(Instant cutoff) {
        return transactions.inTransaction(Transactions.Retry.NONE, c -> NotificationPartitions.dropBefore(c, cutoff));
    }

    /** Step 3 alone: erases the personal data of rows received before the cutoff; the rows per statement. */
    public List<Integer> erase(Instant cutoff) {
        return transactions.autoCommit(c -> {
            var counts = new ArrayList<Integer>();
            for (int i = 0; i < MAX_ERASE_STATEMENTS; i++) {
                int n = NotificationPartitions.eraseBefore(c, cutoff);
                counts.add(n);
                if (n == 0) {
                    break;
                }
            }
            return counts;
        });
    }
}
