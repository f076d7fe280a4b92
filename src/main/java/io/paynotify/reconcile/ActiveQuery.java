package io.paynotify.reconcile;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.Source;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;
import io.paynotify.intake.IntakeOutcome;
import io.paynotify.intake.NotificationIntake;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Transactions;
import io.paynotify.provider.OrderQuery;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The active query of docs/api.md "Active query": asks the provider about each PENDING order of a query-enabled channel once its
 * age passes each step of {@code paynotify.reconcile.schedule}, and applies a verified final answer through the same
 * write path as a notification ({@link NotificationIntake}, recorded with source {@code QUERY}).
 *
 * <p>Every second ({@code paynotify.reconcile.tick}), for each query-enabled channel, one short transaction claims the due orders
 * ({@link Orders#claimDue}: {@code FOR UPDATE SKIP LOCKED}, next due time advanced, so each step runs once across all
 * replicas), at most as many as this replica may start now: {@code max-rate} per channel in any one-second window,
 * and no more than its free query threads. The transaction commits before any provider is called: no transaction, row
 * lock or pool connection is held while a provider answers (up to 5 s), so a slow provider never delays a
 * notification's answer. A claimed order whose call fails is not claimed again before its next step.
 */
@ApplicationScoped
public class ActiveQuery {

    private static final Logger LOG = Logger.getLogger(ActiveQuery.class);

    /** Queries in flight at once on one replica; each may wait up to 5 s for its provider. */
    static final int THREADS = 16;

    /** Unscheduled PENDING orders scheduled per statement at start. */
    private static final int BACKFILL_BATCH = 1000;

    /** How long applying one answer may wait for the order's turn in the intake. */
    private static final Duration APPLY_DEADLINE = Duration.ofSeconds(10);

    private final ChannelRegistry registry;
    private final Transactions transactions;
    private final NotificationIntake intake;
    private final Meters metrics;
    private final Map<Provider, OrderQuery> queries = new EnumMap<>(Provider.class);
    private final List<Channel> channels;
    private final Map<String, RateLimit> limits;
    private final Semaphore threads = new Semaphore(THREADS);
    private final ExecutorService workers =
            Executors.newFixedThreadPool(THREADS, DaemonThreads.named("paynotify-query"));
    private ScheduledExecutorService ticker;

    @Inject
    public ActiveQuery(
            ChannelRegistry registry,
            Transactions transactions,
            NotificationIntake intake,
            Meters metrics,
            Instance<OrderQuery> all) {
        this(registry, transactions, intake, metrics, (Iterable<OrderQuery>) all);
    }

    /** For tests that run a second replica in the same process. */
    ActiveQuery(
            ChannelRegistry registry,
            Transactions transactions,
            NotificationIntake intake,
            Meters metrics,
            Iterable<OrderQuery> all) {
        this.registry = registry;
        this.transactions = transactions;
        this.intake = intake;
        this.metrics = metrics;
        all.forEach(q -> queries.put(q.provider(), q));
        this.channels = registry.channels().values().stream()
                .filter(c -> c.keys().queryEnabled())
                .toList();
        var perChannel = new HashMap<String, RateLimit>();
        channels.forEach(c -> perChannel.put(c.name(), new RateLimit(registry.queryMaxRate(), System::nanoTime)));
        this.limits = Map.copyOf(perChannel);
    }

    void onStart(@Observes StartupEvent event) {
        registerCredentialGauges();
        start();
    }

    /**
     * {@code paynotify_isv_tokens_invalid{channel}} for every ISV channel (docs/api.md "Account modes"), read from its
     * provider's query at each scrape: zero on a channel that does not query (its tokens are never sent, so never
     * checked).
     */
    void registerCredentialGauges() {
        for (Channel c : registry.channels().values()) {
            if (c.mode() != AccountMode.ISV) {
                continue;
            }
            OrderQuery q = queries.get(c.provider());
            boolean checked = q != null && c.keys().queryEnabled();
            metrics.isvTokensInvalid(c.name(), () -> checked ? q.failedCredentials(c) : 0);
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }

    /** Schedules the orders that were never scheduled and starts the one-second tick, when a channel queries. */
    public synchronized void start() {
        if (channels.isEmpty() || ticker != null) {
            return;
        }
        ticker = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("paynotify-query-tick"));
        ticker.execute(this::backfill);
        long tick = registry.queryTick().toMillis();
        ticker.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** Stops ticking; queries in flight end on their own (each within 5 s) and are applied if they can be. */
    public synchronized void stop() {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
        workers.shutdown();
    }

    /**
     * PENDING orders created while their channel did not query (or before this version) get their first due time:
     * creation plus the first step, collapsed at the first claim like any late step; orders older than the last step
     * are left alone (never queried after the last step).
     */
    void backfill() {
        List<Duration> schedule = registry.querySchedule();
        for (Channel channel : channels) {
            try {
                int scheduled;
                int total = 0;
                do {
                    scheduled = transactions.inTransaction(
                            Transactions.Retry.ON_CONFLICT,
                            c -> Orders.scheduleUnscheduled(
                                    c,
                                    channel.name(),
                                    schedule.get(0),
                                    schedule.get(schedule.size() - 1),
                                    BACKFILL_BATCH));
                    total += scheduled;
                } while (scheduled == BACKFILL_BATCH);
                if (total > 0) {
                    LOG.infof("query channel=%s scheduled %d PENDING orders created before it queried", channel, total);
                }
            } catch (DatabaseUnavailable e) {
                LOG.warnf(
                        "query channel=%s could not schedule older PENDING orders: %s", channel.name(), e.getMessage());
            }
        }
    }

    /**
     * One round: for each query-enabled channel, claims as many due orders as may start now and hands each to a
     * query thread. Returns how many it started (for tests, which call it directly on a second instance).
     */
    int tick() {
        int started = 0;
        for (Channel channel : channels) {
            RateLimit limit = limits.get(channel.name());
            int room = Math.min(limit.available(), threads.availablePermits());
            if (room == 0) {
                continue;
            }
            List<Orders.DueQuery> due;
            try {
                due = transactions.inTransaction(
                        Transactions.Retry.NONE,
                        c -> Orders.claimDue(c, channel.name(), registry.querySchedule(), room));
            } catch (DatabaseUnavailable e) {
                LOG.warnf("query channel=%s could not claim due orders: %s", channel.name(), e.getMessage());
                return started;
            } catch (RuntimeException e) {
                LOG.errorf(e, "query channel=%s claim failed", channel.name());
                return started;
            }
            for (Orders.DueQuery d : due) {
                // the permits were free when counted, and only this thread takes them
                limit.tryAcquire();
                threads.acquireUninterruptibly();
                try {
                    workers.execute(() -> {
                        try {
                            run(channel, new QueryTarget(d.outTradeNo(), d.subMerchantId(), d.subAppId()));
                        } finally {
                            threads.release();
                        }
                    });
                    started++;
                } catch (RuntimeException e) {
                    threads.release();
                    LOG.warnf("query channel=%s outTradeNo=%s not started: %s", channel.name(), d.outTradeNo(), e);
                }
            }
        }
        return started;
    }

    /** What an operator's query found: the result, and the id of the notification it recorded (or null). */
    public record Outcome(QueryResult result, Long notificationId) {}

    /** The order is not PENDING, or its channel does not query: the operator's call answers 409. */
    public static final class NotQueryable extends RuntimeException {
        NotQueryable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * An operator's query of one order now (docs/api.md "Active query"): counted on the order like a scheduled one, run on the
     * caller's thread, the answer applied before this returns.
     *
     * @throws NotQueryable the channel does not query, or the order is not PENDING (or does not exist)
     */
    public Outcome queryNow(Channel channel, String outTradeNo) {
        if (!channel.keys().queryEnabled() || !queries.containsKey(channel.provider())) {
            throw new NotQueryable("The channel does not have query-enabled=true.");
        }
        Orders.DueQuery pending = transactions.inTransaction(
                Transactions.Retry.NONE, c -> Orders.recordQuery(c, channel.name(), outTradeNo));
        if (pending == null) {
            throw new NotQueryable("Only a PENDING order is queried.");
        }
        return run(channel, new QueryTarget(outTradeNo, pending.subMerchantId(), pending.subAppId()));
    }

    /**
     * The one active query a statement difference schedules (CONTRACT.md §11: a MISSING_LOCALLY on a PENDING order),
     * counted on the order like any query and started within the channel's {@code max-rate}: it waits for a free
     * start of this replica's rate limit, then runs on the caller's thread.
     *
     * @throws NotQueryable the channel does not query, or the order is no longer PENDING
     */
    public Outcome queryForStatement(Channel channel, String outTradeNo) throws InterruptedException {
        RateLimit limit = limits.get(channel.name());
        if (limit == null || !queries.containsKey(channel.provider())) {
            throw new NotQueryable("The channel does not have query-enabled=true.");
        }
        while (!limit.tryAcquire()) {
            Thread.sleep(20);
        }
        return queryNow(channel, outTradeNo);
    }

    private Outcome run(Channel channel, QueryTarget order) {
        String outTradeNo = order.outTradeNo();
        long started = System.nanoTime();
        QueryAnswer answer;
        try {
            answer = queries.get(channel.provider()).query(channel, order);
        } catch (RuntimeException e) {
            // an OrderQuery never throws by contract; a bug must not kill the query thread
            LOG.errorf(e, "query channel=%s outTradeNo=%s failed unexpectedly", channel.name(), outTradeNo);
            answer = QueryAnswer.error(QueryError.TRANSPORT);
        }
        Long notificationId = null;
        QueryResult result = answer.result();
        if (answer.notification() != null) {
            IntakeOutcome r =
                    intake.handle(answer.notification(), Source.QUERY, System.nanoTime() + APPLY_DEADLINE.toNanos());
            if (r.decided()) {
                var d = r.decision();
                metrics.recorded(channel.name(), channel.provider(), d.outcome(), d.reason());
                notificationId = r.notificationId();
                LOG.infof(
                        "query channel=%s outTradeNo=%s result=%s providerStatus=%s outcome=%s reason=%s latencyMs=%d",
                        channel.name(),
                        outTradeNo,
                        result,
                        answer.providerStatus(),
                        d.outcome(),
                        d.reason() == null ? "-" : d.reason(),
                        (System.nanoTime() - started) / 1_000_000);
            } else {
                // not applied (not admitted, expired, the database failed): the next step asks again
                LOG.warnf(
                        "query channel=%s outTradeNo=%s result=%s not applied: %s%s",
                        channel.name(),
                        outTradeNo,
                        result,
                        r.kind(),
                        r.sqlState() == null ? "" : " (SQLState " + r.sqlState() + ")");
                result = QueryResult.ERROR;
            }
        } else {
            LOG.infof(
                    "query channel=%s outTradeNo=%s result=%s providerStatus=%s error=%s latencyMs=%d",
                    channel.name(),
                    outTradeNo,
                    result,
                    answer.providerStatus() == null ? "-" : answer.providerStatus(),
                    answer.error() == null ? "-" : answer.error(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        metrics.query(channel.name(), result, answer.error());
        return new Outcome(result, notificationId);
    }
}
