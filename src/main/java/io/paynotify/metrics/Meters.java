package io.paynotify.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.ConfiguredCertificate;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.order.Outcome;
import io.paynotify.core.order.Reason;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

/**
 * The service's own Micrometer meters, exported at {@code /q/metrics} in Prometheus format (docs/operations.md "Metrics").
 *
 * <p>Every label value is from a closed set, so that a flood of forged requests cannot grow the number of series
 * nor carry request data into the metrics: a channel label is a configured channel name or {@value #UNKNOWN}, the
 * other labels are enum names. Raw bodies, signatures, order numbers and keys never become labels.
 *
 * <table>
 *   <caption>Prometheus names</caption>
 *   <tr><td>{@code paynotify_notifications_total{channel,provider,outcome,reason}}</td>
 *       <td>recorded deliveries (reason {@code none} for APPLIED and DUPLICATE)</td></tr>
 *   <tr><td>{@code paynotify_refund_notifications_total{channel,provider,outcome,reason}}</td>
 *       <td>the refund notices among them (docs/api.md "Refunds")</td></tr>
 *   <tr><td>{@code paynotify_webhook_attempts_total{client,result}}</td>
 *       <td>webhook delivery attempts: {@code success}, {@code failure}, {@code gone} (a 410)</td></tr>
 *   <tr><td>{@code paynotify_webhook_deliveries_pending}</td>
 *       <td>gauge: PENDING webhook deliveries, all replicas together (refreshed every 15 s)</td></tr>
 *   <tr><td>{@code paynotify_webhook_oldest_pending_seconds}</td>
 *       <td>gauge: the age of the oldest PENDING delivery, 0 when there is none</td></tr>
 *   <tr><td>{@code paynotify_webhooks_disabled}</td><td>gauge: webhooks disabled by a 410 Gone</td></tr>
 *   <tr><td>{@code paynotify_notifications_rejected_total{channel,provider,cause}}</td>
 *       <td>deliveries refused before the state machine: counted, never stored</td></tr>
 *   <tr><td>{@code paynotify_ack_latency_seconds{provider,status}}</td>
 *       <td>histogram from arrival to the ack leaving</td></tr>
 *   <tr><td>{@code paynotify_intake_batch_size}</td>
 *       <td>histogram: notifications per intake transaction (group commit; 1 at low load)</td></tr>
 *   <tr><td>{@code paynotify_queries_total{channel,result}}</td>
 *       <td>active queries (docs/api.md "Active query") by result: PAID, CLOSE, NOT_FINAL, NOT_FOUND, UNKNOWN, ERROR</td></tr>
 *   <tr><td>{@code paynotify_query_answers_unverified_total{channel}}</td>
 *       <td>query answers that failed their signature or ids check (also counted as ERROR above)</td></tr>
 *   <tr><td>{@code paynotify_orders_attention{channel}}</td>
 *       <td>gauge: orders whose {@code attention} is not empty (all replicas; {@link AttentionMetrics})</td></tr>
 *   <tr><td>{@code paynotify_orders_attention_reasons{channel,reason}}</td>
 *       <td>gauge: orders whose {@code attention} holds that reason</td></tr>
 *   <tr><td>{@code paynotify_ready}</td>
 *       <td>gauge: 1 when this replica's last readiness check was UP, 0 when DOWN, NaN before the first</td></tr>
 *   <tr><td>{@code paynotify_database_async_standbys_only}</td>
 *       <td>gauge: 1 when the start found asynchronous standbys only (docs/operations.md "Failover"), else 0</td></tr>
 *   <tr><td>{@code paynotify_readiness_changes_total}</td>
 *       <td>readiness checks whose answer differed from the one before (UP to DOWN or back)</td></tr>
 *   <tr><td>{@code paynotify_idempotency_replays_total}</td><td>stored answers replayed</td></tr>
 *   <tr><td>{@code paynotify_idempotency_conflicts_total{kind}}</td>
 *       <td>{@code IN_FLIGHT} (409) or {@code OTHER_BODY} (422)</td></tr>
 *   <tr><td>{@code paynotify_idempotency_cleanup_runs_total{result}}</td><td>{@code ok} or {@code failed}</td></tr>
 *   <tr><td>{@code paynotify_idempotency_cleanup_removed_total}</td><td>expired keys deleted</td></tr>
 *   <tr><td>{@code paynotify_certificate_expiry_seconds{channel,key,sn}}</td>
 *       <td>gauge: seconds until a configured certificate expires, negative once it has (docs/api.md "Account modes")</td></tr>
 *   <tr><td>{@code paynotify_isv_tokens_invalid{channel}}</td>
 *       <td>gauge: an ISV channel's configured {@code app_auth_token}s that failed Alipay's check</td></tr>
 * </table>
 */
@ApplicationScoped
public class Meters {

    /** The channel label of anything that is not a configured channel name. */
    public static final String UNKNOWN = "_unknown";

    /** The reason label of outcomes that carry none (APPLIED, DUPLICATE). */
    public static final String NO_REASON = "none";

    static final String NOTIFICATIONS = "paynotify.notifications";
    static final String REJECTED = "paynotify.notifications.rejected";
    static final String REFUNDS = "paynotify.refund.notifications";
    static final String WEBHOOK_ATTEMPTS = "paynotify.webhook.attempts";
    static final String ACK_LATENCY = "paynotify.ack.latency";
    static final String IDEMPOTENCY_REPLAYS = "paynotify.idempotency.replays";
    static final String IDEMPOTENCY_CONFLICTS = "paynotify.idempotency.conflicts";
    static final String CLEANUP_RUNS = "paynotify.idempotency.cleanup.runs";
    static final String CLEANUP_REMOVED = "paynotify.idempotency.cleanup.removed";
    static final String WEBHOOK_PENDING = "paynotify.webhook.deliveries.pending";
    static final String WEBHOOK_OLDEST_PENDING = "paynotify.webhook.oldest.pending.seconds";
    static final String WEBHOOKS_DISABLED = "paynotify.webhooks.disabled";
    static final String QUERIES = "paynotify.queries";
    static final String INTAKE_BATCH = "paynotify.intake.batch.size";
    static final String QUERIES_UNVERIFIED = "paynotify.query.answers.unverified";
    static final String ORDERS_ATTENTION = "paynotify.orders.attention";
    static final String ORDERS_ATTENTION_REASONS = "paynotify.orders.attention.reasons";
    static final String READY = "paynotify.ready";
    static final String READINESS_CHANGES = "paynotify.readiness.changes";
    static final String ASYNC_STANDBYS_ONLY = "paynotify.database.async.standbys.only";
    static final String CERTIFICATE_EXPIRY = "paynotify.certificate.expiry.seconds";
    static final String ISV_TOKENS_INVALID = "paynotify.isv.tokens.invalid";

    /** The results of a webhook attempt, pre-registered for every client with a webhook. */
    static final List<String> WEBHOOK_RESULTS = List.of("success", "failure", "gone");

    /**
     * The reasons an ANOMALY can carry (docs/api.md: the outcome matrix and the refund table): every reason but the IGNORED-only ones. Their
     * notification series, and the attention gauges, are registered at zero for every configured channel, so that an
     * {@code increase()} alert sees the first {@code AMOUNT_MISMATCH} after a start instead of a series that appears
     * out of nowhere at 1 (which {@code increase()} reads as no increase).
     */
    static final Set<Reason> ANOMALY_REASONS = Collections.unmodifiableSet(EnumSet.complementOf(
            EnumSet.of(Reason.ALREADY_FINAL, Reason.ALREADY_PAID, Reason.NO_ORDER, Reason.REFUND, Reason.NOT_FINAL)));

    /** The rejection cause of a delivery past the per-order admission bound (docs/api.md "Admission"). */
    public static final String ADMISSION = "ADMISSION";

    /** The causes pre-registered at start: the names of {@code NotifyRejection.Cause}, and {@link #ADMISSION}. */
    static final List<String> REJECTION_CAUSES = List.of(
            ADMISSION,
            "UNKNOWN_CHANNEL",
            "TOO_LARGE",
            "UNPARSEABLE",
            "MISSING_FIELD",
            "BAD_AMOUNT",
            "SIGNATURE",
            "STALE",
            "DECRYPTION");

    /** Bucket bounds around the contract's 3 s answer deadline; fixed so every replica exports the same series. */
    private static final Duration[] LATENCY_BUCKETS = {
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(3)
    };

    /** Why an Idempotency-Key request was refused without running the operation. */
    public enum IdempotencyConflict {
        /** 409: the first request with this key is still running. */
        IN_FLIGHT,
        /** 422: the key was used with another body. */
        OTHER_BODY
    }

    private final MeterRegistry registry;
    private final ChannelRegistry channels;

    // the webhook backlog, as last read from the database (a double's bits for the age)
    private final AtomicLong pendingDeliveries = new AtomicLong();
    private final AtomicLong oldestPendingSecondsBits = new AtomicLong(Double.doubleToLongBits(0));
    private final AtomicLong disabledWebhooks = new AtomicLong();

    // orders flagged for attention, as last read from the database: by channel label, by (channel label, reason)
    private final Map<String, AtomicLong> attentionOrders = new ConcurrentHashMap<>();
    private final Map<List<String>, AtomicLong> attentionReasons = new ConcurrentHashMap<>();

    // this replica's readiness: the last answer (null before the first) and the number of changes
    private final AtomicReference<Boolean> ready = new AtomicReference<>();
    // what the start found about the database's standbys (null before the check)
    private final AtomicReference<Boolean> asyncStandbysOnly = new AtomicReference<>();
    /** Bounded: channels are configured (others share {@code _unknown}), the rest are enums and status codes. */
    private final Map<DecidedKey, Counter> recordedCounters = new ConcurrentHashMap<>();

    private final Map<AckKey, Timer> ackTimers = new ConcurrentHashMap<>();
    private Counter readinessChanges;

    private final DistributionSummary batchSizes;

    private final Clock clock;

    @Inject
    public Meters(MeterRegistry registry, ChannelRegistry channels, Clock clock) {
        this.registry = registry;
        this.channels = channels;
        this.clock = clock;
        this.batchSizes = DistributionSummary.builder(INTAKE_BATCH)
                .description("Notifications per intake transaction (group commit: 1 at low load, up to 64)")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64)
                .register(registry);
    }

    /** One intake transaction of {@code size} notifications (docs/architecture.md "The path of a notification"). */
    public void intakeBatch(int size) {
        batchSizes.record(size);
    }

    /**
     * Registers the webhook backlog, attention and readiness gauges, and every series an alert counts at zero, when
     * the service starts, so that {@code increase()} in an alert (k8s/prometheusrule.yaml) sees the first event
     * instead of a series that appears out of nowhere: the rejections (each configured channel with its provider and
     * {@value #UNKNOWN} with each provider, times every cause), the ANOMALY notifications (each configured channel
     * times {@link #ANOMALY_REASONS}), the webhook attempts (each client with a webhook times
     * {@link #WEBHOOK_RESULTS}) and the queries (each query-enabled channel times every result). All of these are
     * bounded by the configuration.
     */
    void preRegister(@Observes StartupEvent start) {
        Gauge.builder(WEBHOOK_PENDING, pendingDeliveries, AtomicLong::get)
                .description("PENDING webhook deliveries (all replicas; read from the database every 15 s)")
                .strongReference(true)
                .register(registry);
        Gauge.builder(WEBHOOK_OLDEST_PENDING, oldestPendingSecondsBits, b -> Double.longBitsToDouble(b.get()))
                .description("Age in seconds of the oldest PENDING webhook delivery, 0 when there is none")
                .strongReference(true)
                .register(registry);
        Gauge.builder(WEBHOOKS_DISABLED, disabledWebhooks, AtomicLong::get)
                .description("Webhooks disabled by a 410 Gone until an operator enables them")
                .strongReference(true)
                .register(registry);
        Gauge.builder(READY, ready, r -> r.get() == null ? Double.NaN : r.get() ? 1 : 0)
                .description("1 when this replica's last readiness check was UP, 0 when DOWN, NaN before the first")
                .strongReference(true)
                .register(registry);
        Gauge.builder(ASYNC_STANDBYS_ONLY, asyncStandbysOnly, r -> r.get() == null ? Double.NaN : r.get() ? 1 : 0)
                .description("1 when the start found the database streaming to asynchronous standbys only (a failover"
                        + " may lose acknowledged notifications), 0 otherwise, NaN before the check")
                .strongReference(true)
                .register(registry);
        readinessChanges = Counter.builder(READINESS_CHANGES)
                .description("Readiness checks whose answer (UP or DOWN) differed from the one before")
                .register(registry);
        for (var c : channels.channels().values()) {
            attentionGauge(c.name());
            for (Reason reason : ANOMALY_REASONS) {
                notificationCounter(c.name(), c.provider(), Outcome.ANOMALY, reason);
                attentionReasonGauge(c.name(), reason.name());
            }
        }
        channels.clients().values().stream()
                .filter(c -> c.webhook() != null)
                .forEach(c -> WEBHOOK_RESULTS.forEach(r -> webhookAttemptCounter(c.id(), r)));
        channels.channels().values().stream()
                .filter(c -> c.keys().queryEnabled())
                .forEach(c -> {
                    for (QueryResult result : QueryResult.values()) {
                        queryCounter(c.name(), result);
                    }
                    unverifiedCounter(c.name());
                });
        for (var c : channels.channels().values()) {
            for (ConfiguredCertificate cert : c.keys().certificates()) {
                Instant notAfter = cert.notAfter();
                Gauge.builder(
                                CERTIFICATE_EXPIRY,
                                clock,
                                k -> Duration.between(k.instant(), notAfter).toSeconds())
                        .description("Seconds until a configured certificate expires (negative once it has)")
                        .tags("channel", c.name(), "key", cert.key(), "sn", cert.sn())
                        .strongReference(true)
                        .register(registry);
            }
        }
        for (String cause : REJECTION_CAUSES) {
            channels.channels().values().forEach(c -> rejectedCounter(c.name(), c.provider(), cause));
            for (Provider p : Provider.values()) {
                rejectedCounter(UNKNOWN, p, cause);
            }
        }
    }

    /**
     * The gauge of an ISV channel's configured {@code app_auth_token}s that failed Alipay's check (docs/api.md
     * "Account modes"), read from {@code invalid} at each scrape.
     */
    public void isvTokensInvalid(String channel, IntSupplier invalid) {
        Gauge.builder(ISV_TOKENS_INVALID, invalid, IntSupplier::getAsInt)
                .description("Configured app_auth_tokens of an ISV channel that failed Alipay's check")
                .tags("channel", channel)
                .strongReference(true)
                .register(registry);
    }

    /** One active query's result (docs/api.md "Active query"); an unverified answer is also counted on its own. */
    public void query(String channel, QueryResult result, QueryError error) {
        queryCounter(channel, result).increment();
        if (error == QueryError.VERIFICATION) {
            unverifiedCounter(channel).increment();
        }
    }

    private Counter queryCounter(String channel, QueryResult result) {
        return Counter.builder(QUERIES)
                .description("Active queries sent to a provider, by channel and result (PAID, CLOSE, NOT_FINAL, "
                        + "NOT_FOUND, UNKNOWN, ERROR)")
                .tag("channel", channelLabel(channel))
                .tag("result", result.name())
                .register(registry);
    }

    private Counter unverifiedCounter(String channel) {
        return Counter.builder(QUERIES_UNVERIFIED)
                .description("Active-query answers that failed their signature or ids check (never applied)")
                .tag("channel", channelLabel(channel))
                .register(registry);
    }

    /** A delivery that passed every check and was decided (recorded, or only counted past the per-order cap). */
    public void recorded(String channel, Provider provider, Outcome outcome, Reason reason) {
        // once per notification: the meter is looked up in a map, not built and registered again
        recordedCounters
                .computeIfAbsent(
                        new DecidedKey(channelLabel(channel), provider, outcome, reason),
                        k -> notificationCounter(k.channel(), k.provider(), k.outcome(), k.reason()))
                .increment();
    }

    /** The labels of one decided-notification series. */
    private record DecidedKey(String channel, Provider provider, Outcome outcome, Reason reason) {}

    /** The labels of one ack-latency series. */
    private record AckKey(Provider provider, int status) {}

    private Counter notificationCounter(String channel, Provider provider, Outcome outcome, Reason reason) {
        return Counter.builder(NOTIFICATIONS)
                .description("Notifications that passed every check, by outcome and reason")
                .tag("channel", channelLabel(channel))
                .tag("provider", provider.name())
                .tag("outcome", outcome.name())
                .tag("reason", reason == null ? NO_REASON : reason.name())
                .register(registry);
    }

    /** A refund notice that was decided (also counted in {@link #recorded}). */
    public void refund(String channel, Provider provider, Outcome outcome, Reason reason) {
        Counter.builder(REFUNDS)
                .description("Refund notices that passed every check, by outcome and reason")
                .tag("channel", channelLabel(channel))
                .tag("provider", provider.name())
                .tag("outcome", outcome.name())
                .tag("reason", reason == null ? NO_REASON : reason.name())
                .register(registry)
                .increment();
    }

    /**
     * A delivery refused before the state machine (never stored).
     *
     * @param cause a fixed cause label, such as a {@code NotifyRejection.Cause} name
     */
    public void rejected(String channel, Provider provider, String cause) {
        rejectedCounter(channel, provider, cause).increment();
    }

    private Counter rejectedCounter(String channel, Provider provider, String cause) {
        return Counter.builder(REJECTED)
                .description("Deliveries refused before the state machine: counted, never stored")
                .tag("channel", channelLabel(channel))
                .tag("provider", provider == null ? UNKNOWN : provider.name())
                .tag("cause", cause == null ? UNKNOWN : cause.toUpperCase(Locale.ROOT))
                .register(registry);
    }

    /** The time from a delivery's arrival to its ack leaving, with the ack's HTTP status. */
    public void ackLatency(Provider provider, int status, long nanos) {
        ackTimers
                .computeIfAbsent(
                        new AckKey(provider, status),
                        k -> Timer.builder(ACK_LATENCY)
                                .description("Time from a notification's arrival to its ack")
                                .tag("provider", k.provider().name())
                                .tag("status", statusLabel(k.status()))
                                .serviceLevelObjectives(LATENCY_BUCKETS)
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** One attempt of a webhook delivery, by client and result ({@code success}, {@code failure}, {@code gone}). */
    public void webhookAttempt(String client, String result) {
        webhookAttemptCounter(client, result).increment();
    }

    private Counter webhookAttemptCounter(String client, String result) {
        return Counter.builder(WEBHOOK_ATTEMPTS)
                .description("Webhook delivery attempts, by client and result")
                .tag("client", clientLabel(client))
                .tag("result", result)
                .register(registry);
    }

    /**
     * The orders flagged for attention as just read from the database (set by {@link AttentionMetrics}, never on a
     * request path). Channels that are not configured any more fold into {@value #UNKNOWN}, reasons that are not
     * {@link Reason} names into {@value #UNKNOWN}; a series that the read no longer finds goes back to 0.
     *
     * @param byChannel flagged orders by channel name
     * @param byChannelAndReason orders holding a reason, by channel name and then reason code
     */
    public void ordersAttention(Map<String, Long> byChannel, Map<String, Map<String, Long>> byChannelAndReason) {
        Map<String, Long> orders = new HashMap<>();
        byChannel.forEach((channel, n) -> orders.merge(channelLabel(channel), n, Long::sum));
        Map<List<String>, Long> reasons = new HashMap<>();
        byChannelAndReason.forEach((channel, counts) -> counts.forEach(
                (reason, n) -> reasons.merge(List.of(channelLabel(channel), reasonLabel(reason)), n, Long::sum)));
        orders.keySet().forEach(this::attentionGauge);
        reasons.keySet().forEach(k -> attentionReasonGauge(k.get(0), k.get(1)));
        attentionOrders.forEach((channel, value) -> value.set(orders.getOrDefault(channel, 0L)));
        attentionReasons.forEach((key, value) -> value.set(reasons.getOrDefault(key, 0L)));
    }

    private void attentionGauge(String channel) {
        String label = channelLabel(channel);
        attentionOrders.computeIfAbsent(label, l -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(ORDERS_ATTENTION, value, AtomicLong::get)
                    .description("Orders flagged for attention (attention not empty), all replicas; read every 30 s")
                    .tag("channel", l)
                    .strongReference(true)
                    .register(registry);
            return value;
        });
    }

    private void attentionReasonGauge(String channel, String reason) {
        List<String> key = List.of(channelLabel(channel), reasonLabel(reason));
        attentionReasons.computeIfAbsent(key, k -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(ORDERS_ATTENTION_REASONS, value, AtomicLong::get)
                    .description("Orders whose attention holds this reason, all replicas; read every 30 s")
                    .tag("channel", k.get(0))
                    .tag("reason", k.get(1))
                    .strongReference(true)
                    .register(registry);
            return value;
        });
    }

    /** A reason code, else {@value #UNKNOWN}: only the fixed codes become labels. */
    private static String reasonLabel(String reason) {
        for (Reason r : Reason.values()) {
            if (r.name().equals(reason)) {
                return reason;
            }
        }
        return UNKNOWN;
    }

    /**
     * This replica's readiness check just answered: sets {@code paynotify_ready} and counts a change when the answer
     * differs from the previous one (the first answer after the start is no change).
     */
    public void readiness(boolean up) {
        Boolean before = ready.getAndSet(up);
        if (before != null && before != up && readinessChanges != null) {
            readinessChanges.increment();
        }
    }

    /** What the start's replication check found: sets {@code paynotify_database_async_standbys_only}. */
    public void asyncStandbysOnly(boolean found) {
        asyncStandbysOnly.set(found);
    }

    /**
     * The webhook backlog as just read from the database: PENDING deliveries, the age of the oldest, and the
     * webhooks disabled by a 410. Set by a scheduled refresh, never on a request path.
     */
    public void webhookBacklog(long pending, double oldestPendingSeconds, long disabled) {
        pendingDeliveries.set(pending);
        oldestPendingSecondsBits.set(Double.doubleToLongBits(oldestPendingSeconds));
        disabledWebhooks.set(disabled);
    }

    /** A configured client id, else {@value #UNKNOWN}. */
    String clientLabel(String client) {
        return channels.client(client).isPresent() ? client : UNKNOWN;
    }

    /** An Idempotency-Key request answered with the stored answer. */
    public void idempotencyReplay() {
        Counter.builder(IDEMPOTENCY_REPLAYS)
                .description("Idempotency-Key requests answered with the stored answer")
                .register(registry)
                .increment();
    }

    /** An Idempotency-Key request refused (409 in flight, 422 other body). */
    public void idempotencyConflict(IdempotencyConflict kind) {
        Counter.builder(IDEMPOTENCY_CONFLICTS)
                .description("Idempotency-Key requests refused: in flight (409) or another body (422)")
                .tag("kind", kind.name())
                .register(registry)
                .increment();
    }

    /** One finished run of the expired-key cleanup and the rows it deleted. */
    public void cleanupRun(long rowsRemoved) {
        cleanupRuns("ok").increment();
        Counter.builder(CLEANUP_REMOVED)
                .description("Expired Idempotency-Key rows deleted by the cleanup job")
                .register(registry)
                .increment(Math.max(0, rowsRemoved));
    }

    /** A run of the expired-key cleanup that failed (it is retried at the next schedule). */
    public void cleanupFailed() {
        cleanupRuns("failed").increment();
    }

    private Counter cleanupRuns(String result) {
        return Counter.builder(CLEANUP_RUNS)
                .description("Runs of the expired Idempotency-Key cleanup")
                .tag("result", result)
                .register(registry);
    }

    /** A configured channel name, else {@value #UNKNOWN}: a path segment from the internet never becomes a label. */
    String channelLabel(String channel) {
        return channels.channel(channel).isPresent() ? channel : UNKNOWN;
    }

    /** Only the status codes the notify endpoints answer with; anything else folds into one label. */
    private static String statusLabel(int status) {
        switch (status) {
            case 200:
            case 204:
            case 400:
            case 401:
            case 404:
            case 413:
            case 422:
            case 503:
                return Integer.toString(status);
            default:
                return "other";
        }
    }
}
