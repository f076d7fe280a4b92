package io.paynotify.events;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.ClientCredentials;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.core.event.RetrySchedule;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Transactions;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Delivers events to the merchants' webhooks (docs/api.md "Webhooks"), in every replica. One loop claims due deliveries
 * ({@code SKIP LOCKED} and a lease, see {@link Deliveries}), sends each as a Standard Webhooks POST, records the
 * attempt while the lease is still its own, and schedules the next one. It wakes at once after a local commit
 * ({@link #wake()}) and otherwise every {@link #POLL} for work that other replicas committed.
 *
 * <p>Isolation: at most {@link #PER_CLIENT} attempts per client in flight in this replica and
 * {@link #IN_FLIGHT} in all. The loop only claims and hands each attempt to {@link WebhookSender}, which resolves,
 * connects and reads without blocking it or any other thread, under one deadline of 10 s per attempt: a merchant
 * whose endpoint hangs, or whose host name takes long to resolve, holds at most its own {@link #PER_CLIENT} slots
 * for at most that long, and never delays a provider's ack or another client's deliveries. No redirect is followed,
 * at most 1 KiB of an answer is read and none is stored; the secret, the signature and the body never reach a log.
 *
 * <p>A delivery whose lease lapsed while its attempt is still in flight here (a lease shorter than an attempt) may
 * come back in a claim of this replica: the attempt in flight then records under the new lease, and no second
 * attempt starts, so one replica never runs two attempts of one delivery at once.
 */
@ApplicationScoped
public class DeliveryWorker {

    static final Duration POLL = Duration.ofSeconds(1);
    static final int PER_CLIENT = 4;
    /**
     * Attempts in flight in this replica, all clients together. An attempt holds a socket and no thread, so this
     * only bounds sockets and memory; it is large enough that clients whose attempts all hang (each holding its
     * {@link #PER_CLIENT}) leave room for the others unless 32 or more of them hang at once.
     */
    static final int IN_FLIGHT = 128;

    private static final Logger LOG = Logger.getLogger("io.paynotify.webhooks");

    private final Transactions transactions;
    private final ChannelRegistry registry;
    private final Clock clock;
    private final Meters metrics;
    private final RetrySchedule schedule;
    private final long leaseSeconds;
    private final Semaphore wakeups = new Semaphore(0);
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    /** The attempts in flight in this replica, by delivery id. */
    private final Map<Long, Running> attempts = new ConcurrentHashMap<>();

    private final AtomicInteger total = new AtomicInteger();
    private final WebhookSender sender;
    private final ExecutorService recorder =
            Executors.newFixedThreadPool(2, DaemonThreads.named("paynotify-webhook-record"));
    private volatile boolean running;
    private volatile boolean crashed;
    private Thread loop;

    @Inject
    public DeliveryWorker(
            Transactions transactions,
            ChannelRegistry registry,
            Clock clock,
            Meters metrics,
            PaynotifyConfig config,
            Vertx vertx,
            WebhookResolver resolver) {
        this.transactions = transactions;
        this.registry = registry;
        this.clock = clock;
        this.metrics = metrics;
        this.schedule = new RetrySchedule(config.webhooks().retrySchedule());
        this.leaseSeconds = Math.max(1, config.webhooks().lease().toSeconds());
        this.sender = new WebhookSender(vertx, resolver, config.webhooks().allowLoopback(), IN_FLIGHT);
    }

    /**
     * Another replica in the same process, for tests of several replicas: it has its own loop, limits and
     * connections, and shares the application's Vert.x and {@link WebhookResolver}.
     */
    public DeliveryWorker(
            Transactions transactions, ChannelRegistry registry, Clock clock, Meters metrics, PaynotifyConfig config) {
        this(
                transactions,
                registry,
                clock,
                metrics,
                config,
                Arc.container().instance(Vertx.class).get(),
                Arc.container().instance(WebhookResolver.class).get());
    }

    void start(@Observes StartupEvent event) {
        start();
    }

    void stop(@Observes ShutdownEvent event) {
        stop();
    }

    /** Starts the loop (once). */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        crashed = false;
        loop = DaemonThreads.named("paynotify-webhook-loop").newThread(this::run);
        loop.start();
    }

    /** Stops the loop and waits for it to end; attempts in flight still record their outcome. */
    public synchronized void stop() {
        running = false;
        wakeups.release();
        if (loop != null && loop != Thread.currentThread()) {
            try {
                loop.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Stops as a killed process would: the loop ends, and attempts in flight are never recorded, so their leases
     * lapse and another replica attempts them again. For tests of what a {@code kill -9} leaves behind.
     */
    public synchronized void crash() {
        crashed = true;
        stop();
    }

    /** Look for work now: a local transaction committed an event. */
    public void wake() {
        wakeups.release();
    }

    private void run() {
        while (running) {
            try {
                wakeups.tryAcquire(POLL.toMillis(), TimeUnit.MILLISECONDS);
                wakeups.drainPermits();
                if (running) {
                    claimAndSend();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (DatabaseUnavailable e) {
                LOG.warnf("webhook deliveries: the database failed (SQLState %s); trying again", e.sqlState());
            } catch (RuntimeException e) {
                LOG.errorf("webhook deliveries: %s; trying again", e.getClass().getName());
            }
        }
    }

    private void claimAndSend() {
        while (running) {
            int room = IN_FLIGHT - total.get();
            if (room <= 0) {
                return;
            }
            var busy = new ArrayList<String>();
            int fullest = 0;
            for (var e : inFlight.entrySet()) {
                int n = e.getValue().get();
                if (n >= PER_CLIENT) {
                    busy.add(e.getKey());
                } else {
                    fullest = Math.max(fullest, n);
                }
            }
            // one claim may hand every delivery to one client: never more than the least room any client has left
            int limit = Math.min(room, PER_CLIENT - fullest);
            UUID token = UUID.randomUUID();
            List<Deliveries.Claimed> claimed = transactions.inTransaction(
                    Transactions.Retry.NONE, c -> Deliveries.claim(c, limit, leaseSeconds, token, busy));
            if (claimed.isEmpty()) {
                return;
            }
            for (Deliveries.Claimed d : claimed) {
                Running r = attempts.get(d.deliveryId());
                if (r == null || !r.takeOver(token)) {
                    attempt(d, token);
                }
            }
        }
    }

    /** An attempt in flight and the lease it records under (a later claim of its delivery here takes it over). */
    private static final class Running {
        private UUID token;
        private boolean recording;

        Running(UUID token) {
            this.token = token;
        }

        /** The attempt records under this newer lease; false once it is recording (the claim starts an attempt). */
        synchronized boolean takeOver(UUID newer) {
            if (recording) {
                return false;
            }
            token = newer;
            return true;
        }

        /** The lease to record under; no claim takes the attempt over from now on. */
        synchronized UUID recordingToken() {
            recording = true;
            return token;
        }
    }

    private void attempt(Deliveries.Claimed d, UUID token) {
        Running attempt = new Running(token);
        attempts.put(d.deliveryId(), attempt);
        inFlight.computeIfAbsent(d.clientId(), k -> new AtomicInteger()).incrementAndGet();
        total.incrementAndGet();
        Instant at = clock.instant();
        long started = System.nanoTime();
        CompletableFuture<Result> sent;
        try {
            sent = send(d);
        } catch (RuntimeException e) {
            sent = CompletableFuture.completedFuture(Result.error(WebhookSender.describe(e)));
        }
        sent.whenComplete((result, error) -> {
            int ms = (int) ((System.nanoTime() - started) / 1_000_000);
            Result r = error != null ? Result.error(WebhookSender.describe(error)) : result;
            recorder.execute(() -> {
                try {
                    UUID lease = attempt.recordingToken();
                    if (!crashed) {
                        record(d, lease, at, r, ms);
                    }
                } finally {
                    attempts.remove(d.deliveryId(), attempt);
                    inFlight.get(d.clientId()).decrementAndGet();
                    total.decrementAndGet();
                    wake();
                }
            });
        });
    }

    /** An attempt's result: the HTTP status, or a short error text, and a Retry-After in seconds if given. */
    record Result(Integer status, String error, OptionalLong retryAfter) {
        static Result error(String error) {
            return new Result(null, error, OptionalLong.empty());
        }

        boolean succeeded() {
            return status != null && status >= 200 && status < 300;
        }
    }

    private CompletableFuture<Result> send(Deliveries.Claimed d) {
        ClientCredentials client = registry.client(d.clientId()).orElse(null);
        if (client == null
                || client.webhook() == null
                || !client.webhook().url().toString().equals(d.webhookUrl())) {
            return CompletableFuture.completedFuture(Result.error("unsubscribed"));
        }
        long timestamp = clock.instant().getEpochSecond();
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "paynotify-webhooks/1");
        headers.put("webhook-id", d.eventId());
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put(
                "webhook-signature",
                WebhookSignature.header(
                        d.eventId(), timestamp, d.body(), client.webhook().secrets()));
        return sender.post(client.webhook().url(), headers, d.body());
    }

    static OptionalLong retryAfter(String value) {
        if (value == null || !value.strip().matches("[0-9]{1,9}")) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(value.strip()));
    }

    private void record(Deliveries.Claimed d, UUID token, Instant at, Result r, int ms) {
        boolean gone = r.status() != null && r.status() == 410;
        try {
            boolean mine = transactions.inTransaction(Transactions.Retry.NONE, c -> {
                if (r.succeeded()) {
                    return Deliveries.succeeded(c, d.deliveryId(), token, at, r.status(), ms);
                }
                if (gone) {
                    Deliveries.disable(c, d.clientId(), d.webhookUrl());
                    return Deliveries.failed(c, d.deliveryId(), token, at, r.status(), "gone", ms);
                }
                OptionalLong delay = schedule.delayMillis(
                        d.attempts() + 1, ThreadLocalRandom.current().nextDouble(), r.retryAfter());
                if (delay.isEmpty() || "unsubscribed".equals(r.error())) {
                    return Deliveries.failed(c, d.deliveryId(), token, at, r.status(), r.error(), ms);
                }
                return Deliveries.retry(c, d.deliveryId(), token, at, r.status(), r.error(), ms, delay.getAsLong());
            });
            metrics.webhookAttempt(d.clientId(), r.succeeded() ? "success" : gone ? "gone" : "failure");
            if (!mine) {
                LOG.warnf(
                        "webhook client=%s event=%s: the lease lapsed before the attempt was recorded",
                        d.clientId(), d.eventId());
            } else if (!r.succeeded()) {
                LOG.infof(
                        "webhook client=%s event=%s attempt failed: %s",
                        d.clientId(), d.eventId(), r.status() != null ? "status " + r.status() : r.error());
            }
        } catch (DatabaseUnavailable e) {
            // the lease lapses and the delivery is attempted again: at least once
            LOG.warnf(
                    "webhook client=%s event=%s: attempt not recorded (SQLState %s)",
                    d.clientId(), d.eventId(), e.sqlState());
        }
    }
}
