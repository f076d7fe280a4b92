package io.paynotify.events;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.ClientCredentials;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Events;
import io.paynotify.persistence.Transactions;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Retention of the merchant events (docs/api.md "Merchant events", {@code paynotify.events.retention}, default 30 days), on every
 * replica, modelled on {@link io.paynotify.idempotency.IdempotencyCleanupJob}: every statement is its own short
 * autocommit transaction touching at most 1000 rows, picked with {@code FOR UPDATE SKIP LOCKED}, so replicas running
 * it at the same moment never wait on or delete the same rows.
 *
 * <p>One run, in this order:
 *
 * <ol>
 *   <li>a PENDING delivery created before the cutoff becomes FAILED with error {@code expired}; one whose client no
 *       longer has that {@code webhook-url} configured becomes FAILED with {@code unsubscribed}, whatever its age
 *       ({@link Deliveries#failStale}; a delivery with an attempt in flight is left for the next run);
 *   <li>the attempts, then the deliveries, then the events of every event created before the cutoff none of whose
 *       deliveries is PENDING are deleted ({@link Deliveries#deleteOldAttempts}, {@link Deliveries#deleteOldDeliveries},
 *       {@link Events#deleteOld}). Deleting the children first keeps every statement at one batch even though
 *       deliveries and attempts would also go by {@code ON DELETE CASCADE}.
 * </ol>
 *
 * Each step repeats until a statement finds nothing, at most {@link #MAX_STATEMENTS} times (the next run continues).
 * An event whose delivery is still PENDING stays until step 1 has failed that delivery.
 */
@ApplicationScoped
public class EventRetentionJob {

    /** Statements per step and run, at most. */
    static final int MAX_STATEMENTS = 1000;

    private static final Logger LOG = Logger.getLogger("io.paynotify.events");

    private final Transactions transactions;
    private final ChannelRegistry registry;
    private final Clock clock;
    private final Duration retention;

    @Inject
    public EventRetentionJob(Transactions transactions, ChannelRegistry registry, Clock clock, PaynotifyConfig config) {
        this.transactions = transactions;
        this.registry = registry;
        this.clock = clock;
        this.retention = config.events().retention();
    }

    /**
     * The rows each statement of one run changed, per step, in order. Each list ends with a 0 unless its step hit
     * {@link #MAX_STATEMENTS}.
     *
     * @param failed PENDING deliveries turned FAILED per statement (at most {@link Deliveries#BATCH} each)
     * @param attempts attempts deleted per statement (at most {@link Deliveries#DELETE_BATCH} each)
     * @param deliveries deliveries deleted per statement (at most {@link Deliveries#DELETE_BATCH} each)
     * @param events events deleted per statement (at most {@link Events#BATCH} each)
     */
    public record Run(List<Integer> failed, List<Integer> attempts, List<Integer> deliveries, List<Integer> events) {

        static int sum(List<Integer> counts) {
            return counts.stream().mapToInt(Integer::intValue).sum();
        }

        /** Every statement of the run, all steps together. */
        public int statements() {
            return failed.size() + attempts.size() + deliveries.size() + events.size();
        }
    }

    /** Every five minutes on each replica; a run still going is not started twice on one replica. */
    @Scheduled(
            identity = "event-retention",
            every = "5m",
            delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            Run r = run(clock.instant().minus(retention));
            if (Run.sum(r.failed()) + Run.sum(r.events()) + Run.sum(r.deliveries()) + Run.sum(r.attempts()) > 0) {
                LOG.infof(
                        "event retention failed=%d deletedEvents=%d deletedDeliveries=%d deletedAttempts=%d"
                                + " statements=%d",
                        Run.sum(r.failed()),
                        Run.sum(r.events()),
                        Run.sum(r.deliveries()),
                        Run.sum(r.attempts()),
                        r.statements());
            }
        } catch (DatabaseUnavailable e) {
            // the next run continues where this one stopped: every statement that ran has committed
            LOG.warnf("event retention failed (SQLState %s)", e.sqlState());
        }
    }

    /**
     * One retention run with this cutoff: what is older is expired.
     *
     * @param cutoff normally now minus {@code paynotify.events.retention}
     */
    public Run run(Instant cutoff) {
        List<String[]> subscriptions = subscriptions();
        return transactions.autoCommit(c -> new Run(
                repeat(c, x -> Deliveries.failStale(x, cutoff, subscriptions)),
                repeat(c, x -> Deliveries.deleteOldAttempts(x, cutoff)),
                repeat(c, x -> Deliveries.deleteOldDeliveries(x, cutoff)),
                repeat(c, x -> Events.deleteOld(x, cutoff))));
    }

    /** The configured {@code (client id, webhook-url)} pairs, as the delivery rows spell the URL. */
    List<String[]> subscriptions() {
        var out = new ArrayList<String[]>();
        for (ClientCredentials client : registry.clients().values()) {
            if (client.webhook() != null) {
                out.add(new String[] {client.id(), client.webhook().url().toString()});
            }
        }
        return out;
    }

    @FunctionalInterface
    private interface Statement {
        int run(Connection c) throws SQLException;
    }

    private static List<Integer> repeat(Connection c, Statement statement) throws SQLException {
        var counts = new ArrayList<Integer>();
        for (int i = 0; i < MAX_STATEMENTS; i++) {
            int n = statement.run(c);
            counts.add(n);
            if (n == 0) {
                break;
            }
        }
        return counts;
    }
}
