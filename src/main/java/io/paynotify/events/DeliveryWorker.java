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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Delivers events to the merchants' webhooks (docs/api.md "Webhooks"), in every replica, in batches. One loop claims
 * due deliveries, many in one statement ({@code SKIP LOCKED} and a lease, see {@link Deliveries#claim}), keeps them in
 * a queue per client, and starts each as a Standard Webhooks POST as soon as its client has an attempt slot free. One
 * recorder records the finished attempts, many in one statement ({@link Deliveries#record}), each only while its
 * lease is still the one it was claimed under. The loop claims after a local commit ({@link #wake()}), at most every
 * {@link #CLAIM_GAP}, and otherwise every {@link #POLL} for work that other replicas committed; when no configured
 * client has a webhook it never claims at all.
 *
 * <p>Isolation: at most {@link #PER_CLIENT} attempts per client in flight in this replica and {@link #IN_FLIGHT} in
 * all. The loop only claims and hands each attempt to {@link WebhookSender}, which resolves, connects and reads
 * without blocking it or any other thread, under one deadline of 10 s per attempt: a merchant whose endpoint hangs,
 * or whose host name takes long to resolve, holds at most its own {@link #PER_CLIENT} slots for at most that long,
 * and never delays a provider's ack or another client's deliveries. One claim gives a client at most
 * {@link #HELD_PER_CLIENT} deliveries held here (queued, in flight or being recorded), and a client that holds as
 * many gets none, so a hanging merchant's queue never crowds out the others. A queued delivery whose lease is half
 * gone is given back ({@link Deliveries#release}) instead of started, so an attempt never starts late in its lease.
 * No redirect is followed, at most 1 KiB of an answer is read and none is stored; the secret, the signature and the
 * body never reach a log.
 *
 * <p>The intake's commits never wait for delivery work: the loop and the recorder are one thread each, so the worker
 * holds at most two of the pool's connections at a time, each for one short statement and its commit.
 *
 * <p>A delivery whose lease lapsed while its attempt is still in flight here (a lease shorter than an attempt) may
 * come back in a claim of this replica: the attempt in flight then records under the new lease, and no second
 * attempt starts, so one replica never runs two attempts of one delivery at once. One still queued here takes the
 * new lease in its queue.
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
    /** Deliveries one client may hold in this replica (queued, in flight, being recorded): a claim gives it no more. */
    static final int HELD_PER_CLIENT = 32;
    /** Deliveries held in this replica, all clients together: 32 hanging clients' {@link #HELD_PER_CLIENT}. */
    static final int HELD = 1024;
    /** The shortest time between two claims: commits that land meanwhile are claimed together. */
    static final Duration CLAIM_GAP = Duration.ofMillis(10);
    /** How long the recorder waits for more finished attempts to record with the first one. */
    static final Duration RECORD_LINGER = Duration.ofMillis(10);

    private static final Logger LOG = Logger.getLogger("io.paynotify.webhooks");

    private final Transactions transactions;
    private final ChannelRegistry registry;
    private final Clock clock;
    private final Meters metrics;
    private final RetrySchedule schedule;
    private final long leaseSeconds;
    /** A queued delivery older than this (from before its claim) is given back instead of started. */
    private final long startWithinNanos;
    /** The clients that have a webhook; none: the worker never claims. */
    private final Set<String> subscribed;

    private final Semaphore wakeups = new Semaphore(0);
    /** A claim is due: a local commit, a poll, or room freed after a claim that could not take all it might. */
    private volatile boolean claimWanted = true;
    /** The last claim was cut short by the limits: look again once room is freed. */
    private volatile boolean starved;

    /** Claimed deliveries waiting for an attempt slot, per client; only the loop touches these two. */
    private final Map<String, ArrayDeque<Held>> queues = new LinkedHashMap<>();

    private final Map<Long, Held> queued = new HashMap<>();
    /** How many wait in those queues: a finished attempt wakes the loop only when one may take its slot. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** Attempts in flight per client (the HTTP exchange), and in all. */
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    private final AtomicInteger flying = new AtomicInteger();
    /** Deliveries held per client (queued, in flight, being recorded), and in all. */
    private final Map<String, AtomicInteger> heldBy = new ConcurrentHashMap<>();

    private final AtomicInteger held = new AtomicInteger();
    /** The attempts in flight or being recorded in this replica, by delivery id. */
    private final Map<Long, Running> attempts = new ConcurrentHashMap<>();

    private final WebhookSender sender;
    /** Finished attempts waiting to be recorded, and the one recorder thread that drains them. */
    private final LinkedBlockingQueue<Finished> finished = new LinkedBlockingQueue<>();

    private final AtomicBoolean recording = new AtomicBoolean();
    private final ThreadPoolExecutor recorder;
    /** Claim and record statements run by this replica (for the tests of batching). */
    private final AtomicLong claimStatements = new AtomicLong();

    private final AtomicLong recordStatements = new AtomicLong();
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
        this.startWithinNanos = TimeUnit.SECONDS.toNanos(leaseSeconds) / 2;
        this.subscribed = registry == null
                ? Set.of()
                : registry.clients().values().stream()
                        .filter(c -> c.webhook() != null)
                        .map(ClientCredentials::id)
                        .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.sender = new WebhookSender(vertx, resolver, config.webhooks().allowLoopback(), IN_FLIGHT);
        this.recorder = new ThreadPoolExecutor(
                1,
                1,
                30,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                DaemonThreads.named("paynotify-webhook-record"));
        this.recorder.allowCoreThreadTimeOut(true);
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
        claimWanted = true;
        loop = DaemonThreads.named("paynotify-webhook-loop").newThread(this::run);
        loop.start();
    }

    /**
     * Stops the loop and waits for it to end; attempts in flight still record their outcome, and the deliveries
     * still queued are given back.
     */
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
     * Stops as a killed process would: the loop ends, and attempts in flight are never recorded nor queued ones
     * given back, so their leases lapse and another replica attempts them again. For tests of what a {@code kill -9}
     * leaves behind.
     */
    public synchronized void crash() {
        crashed = true;
        stop();
    }

    /** Look for work now: a local transaction committed an event. */
    public void wake() {
        // a claim not yet begun will see this commit too: one wake-up is enough until the loop claims
        if (!claimWanted) {
            claimWanted = true;
            wakeups.release();
        }
    }

    /** Claim statements this replica ran so far. */
    long claimStatements() {
        return claimStatements.get();
    }

    /** Record statements (each one transaction, many attempts) this replica ran so far. */
    long recordStatements() {
        return recordStatements.get();
    }

    private void run() {
        try {
            while (running) {
                try {
                    step();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (DatabaseUnavailable e) {
                    LOG.warnf("webhook deliveries: the database failed (SQLState %s); trying again", e.sqlState());
                    pause();
                } catch (RuntimeException e) {
                    LOG.errorf(
                            "webhook deliveries: %s; trying again", e.getClass().getName());
                    pause();
                }
            }
        } finally {
            letGo();
        }
    }

    private long lastClaim = System.nanoTime() - POLL.toNanos();

    /** One turn of the loop: wait for a reason, start what may start, claim when a claim is due. */
    private void step() throws InterruptedException {
        long now = System.nanoTime();
        if (now - lastClaim >= POLL.toNanos()) {
            claimWanted = true;
        }
        long waitNanos = claimWanted && !subscribed.isEmpty()
                ? lastClaim + CLAIM_GAP.toNanos() - now
                : lastClaim + POLL.toNanos() - now;
        if (waitNanos > 0) {
            wakeups.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
        }
        wakeups.drainPermits();
        if (!running) {
            return;
        }
        dispatch();
        if (claimWanted && System.nanoTime() - lastClaim >= CLAIM_GAP.toNanos()) {
            claimWanted = false;
            lastClaim = System.nanoTime();
            claim();
            dispatch();
        }
    }

    /** After a failed claim or give-back: wait a little before the next, so that a dead database is not hammered. */
    private void pause() {
        try {
            wakeups.tryAcquire(POLL.toMillis() / 4, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Claims as many due deliveries as the limits allow, in one statement, into the clients' queues. */
    private void claim() {
        if (subscribed.isEmpty()) {
            return; // no client has a webhook: no delivery can be sent, no claim is worth its statement
        }
        int room = HELD - held.get();
        var busy = new ArrayList<String>();
        int fullest = 0;
        for (var e : heldBy.entrySet()) {
            int n = e.getValue().get();
            if (n >= HELD_PER_CLIENT) {
                busy.add(e.getKey());
            } else {
                fullest = Math.max(fullest, n);
            }
        }
        // one claim may hand every delivery to one client: never more than the least room any client has left
        int limit = Math.min(Math.min(room, HELD_PER_CLIENT - fullest), Deliveries.BATCH);
        if (limit <= 0 || busy.containsAll(subscribed)) {
            starved = true;
            return;
        }
        UUID token = UUID.randomUUID();
        long claimed = System.nanoTime(); // before the statement: the lease began after this
        claimStatements.incrementAndGet();
        List<Deliveries.Claimed> rows = transactions.inTransaction(
                Transactions.Retry.NONE, c -> Deliveries.claim(c, limit, leaseSeconds, token, busy));
        starved = rows.size() >= limit || !busy.isEmpty();
        for (Deliveries.Claimed d : rows) {
            Running r = attempts.get(d.deliveryId());
            if (r != null && r.takeOver(token)) {
                continue; // in flight here: it records under the new lease
            }
            Held q = queued.get(d.deliveryId());
            if (q != null) {
                q.token = token; // still queued here: it starts under the new lease
                q.claimedAt = claimed;
                continue;
            }
            Held h = new Held(d, token, claimed);
            queued.put(d.deliveryId(), h);
            queues.computeIfAbsent(d.clientId(), k -> new ArrayDeque<>()).add(h);
            waiting.incrementAndGet();
            counter(heldBy, d.clientId()).incrementAndGet();
            held.incrementAndGet();
        }
    }

    /** Starts every queued delivery whose client has a slot free; gives back those whose lease is half gone. */
    private void dispatch() {
        if (queues.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        var stale = new ArrayList<Held>();
        for (var it = queues.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            ArrayDeque<Held> q = e.getValue();
            AtomicInteger n = counter(inFlight, e.getKey());
            q.removeIf(h -> {
                if (now - h.claimedAt > startWithinNanos) {
                    stale.add(h);
                    waiting.decrementAndGet();
                    return true;
                }
                return false;
            });
            while (!q.isEmpty() && n.get() < PER_CLIENT && flying.get() < IN_FLIGHT) {
                Held h = q.poll();
                waiting.decrementAndGet();
                queued.remove(h.d.deliveryId());
                attempt(h);
            }
            if (q.isEmpty()) {
                it.remove();
            }
        }
        if (!stale.isEmpty()) {
            stale.forEach(h -> queued.remove(h.d.deliveryId()));
            giveBack(stale);
        }
    }

    /** Gives these queued deliveries' leases back (due again at once); they are no longer held here either way. */
    private void giveBack(List<Held> rows) {
        try {
            if (!crashed) {
                for (int from = 0; from < rows.size(); from += Deliveries.BATCH) {
                    List<Held> part = rows.subList(from, Math.min(rows.size(), from + Deliveries.BATCH));
                    List<Long> ids = part.stream().map(h -> h.d.deliveryId()).toList();
                    List<UUID> tokens = part.stream().map(h -> h.token).toList();
                    transactions.inTransaction(Transactions.Retry.NONE, c -> Deliveries.release(c, ids, tokens));
                }
            }
        } catch (DatabaseUnavailable e) {
            // their leases lapse instead
            LOG.warnf("webhook deliveries: leases not given back (SQLState %s)", e.sqlState());
        } finally {
            for (Held h : rows) {
                counter(heldBy, h.d.clientId()).decrementAndGet();
                held.decrementAndGet();
            }
            starved = true;
        }
    }

    /** At the loop's end: the queued deliveries are given back, unless this is a crash. */
    private void letGo() {
        var rows = new ArrayList<Held>();
        queues.values().forEach(rows::addAll);
        queues.clear();
        queued.clear();
        waiting.set(0);
        if (!rows.isEmpty()) {
            giveBack(rows);
        }
    }

    private static AtomicInteger counter(Map<String, AtomicInteger> counters, String client) {
        return counters.computeIfAbsent(client, k -> new AtomicInteger());
    }

    /** A claimed delivery held here, under the lease it was last claimed with (only the loop touches it). */
    private static final class Held {
        final Deliveries.Claimed d;
        UUID token;
        long claimedAt;

        Held(Deliveries.Claimed d, UUID token, long claimedAt) {
            this.d = d;
            this.token = token;
            this.claimedAt = claimedAt;
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

    /** A finished attempt waiting for the recorder. */
    private record Finished(Deliveries.Claimed d, Running attempt, Instant at, Result result, int ms) {}

    private void attempt(Held h) {
        Deliveries.Claimed d = h.d;
        Running attempt = new Running(h.token);
        attempts.put(d.deliveryId(), attempt);
        AtomicInteger slots = counter(inFlight, d.clientId());
        slots.incrementAndGet();
        flying.incrementAndGet();
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
            // the exchange is over: its slot is free for the client's next attempt while this one is recorded
            slots.decrementAndGet();
            flying.decrementAndGet();
            finished.add(new Finished(d, attempt, at, r, ms));
            if (recording.compareAndSet(false, true)) {
                recorder.execute(this::drain);
            }
            if (waiting.get() > 0) {
                wakeups.release(); // a queued delivery of some client may take a slot now
            }
        });
    }

    /** The recorder: records finished attempts in batches until none waits. */
    private void drain() {
        while (true) {
            var batch = new ArrayList<Finished>();
            try {
                Finished first = finished.poll();
                if (first != null) {
                    batch.add(first);
                    long until = System.nanoTime() + RECORD_LINGER.toNanos();
                    while (batch.size() < Deliveries.BATCH) {
                        long left = until - System.nanoTime();
                        Finished next = left > 0 ? finished.poll(left, TimeUnit.NANOSECONDS) : finished.poll();
                        if (next == null) {
                            break;
                        }
                        batch.add(next);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (batch.isEmpty()) {
                recording.set(false);
                // an attempt that finished after the poll and saw the flag still set: drain it too
                if (finished.isEmpty() || !recording.compareAndSet(false, true)) {
                    return;
                }
                continue;
            }
            try {
                if (!crashed) {
                    record(batch);
                }
            } catch (RuntimeException e) {
                LOG.errorf(
                        "webhook deliveries: attempts not recorded: %s",
                        e.getClass().getName());
            } finally {
                boolean successors = false;
                for (Finished f : batch) {
                    attempts.remove(f.d().deliveryId(), f.attempt());
                    counter(heldBy, f.d().clientId()).decrementAndGet();
                    held.decrementAndGet();
                    successors |= f.d().successor();
                }
                // a later delivery of the same order may be due now that this one is done (or retried: then the
                // claim finds nothing, at the cost of one statement)
                if (starved || successors) {
                    wake();
                }
            }
        }
    }

    /** An attempt's result: the HTTP status, or a short error text, and a Retry-After in seconds if given. */
    record Result(Integer status, String error, OptionalLong retryAfter) {
        static Result error(String error) {
            return new Result(null, error, OptionalLong.empty());
        }

        boolean succeeded() {
            return status != null && status >= 200 && status < 300;
        }

        boolean gone() {
            return status != null && status == 410;
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

    /** What the attempt leaves its delivery in (docs/api.md "Webhooks": retries, 410, the last step). */
    private Deliveries.Outcome outcome(Finished f, UUID token) {
        Result r = f.result();
        Deliveries.Claimed d = f.d();
        if (r.succeeded()) {
            return new Deliveries.Outcome(
                    d.deliveryId(), token, Deliveries.Next.SUCCEEDED, f.at(), r.status(), null, f.ms(), 0);
        }
        if (r.gone()) {
            return new Deliveries.Outcome(
                    d.deliveryId(), token, Deliveries.Next.FAILED, f.at(), r.status(), "gone", f.ms(), 0);
        }
        OptionalLong delay = schedule.delayMillis(
                d.attempts() + 1, ThreadLocalRandom.current().nextDouble(), r.retryAfter());
        if (delay.isEmpty() || "unsubscribed".equals(r.error())) {
            return new Deliveries.Outcome(
                    d.deliveryId(), token, Deliveries.Next.FAILED, f.at(), r.status(), r.error(), f.ms(), 0);
        }
        return new Deliveries.Outcome(
                d.deliveryId(),
                token,
                Deliveries.Next.PENDING,
                f.at(),
                r.status(),
                r.error(),
                f.ms(),
                delay.getAsLong());
    }

    /** Records a batch of finished attempts in one transaction: a 410's disable, then every outcome at once. */
    private void record(List<Finished> batch) {
        var outcomes = new ArrayList<Deliveries.Outcome>(batch.size());
        for (Finished f : batch) {
            outcomes.add(outcome(f, f.attempt().recordingToken()));
        }
        Set<Long> mine;
        recordStatements.incrementAndGet();
        try {
            mine = transactions.inTransaction(Transactions.Retry.NONE, c -> {
                for (Finished f : batch) {
                    if (f.result().gone()) {
                        Deliveries.disable(c, f.d().clientId(), f.d().webhookUrl());
                    }
                }
                return Deliveries.record(c, outcomes);
            });
        } catch (DatabaseUnavailable e) {
            // the leases lapse and the deliveries are attempted again: at least once
            for (Finished f : batch) {
                LOG.warnf(
                        "webhook client=%s event=%s: attempt not recorded (SQLState %s)",
                        f.d().clientId(), f.d().eventId(), e.sqlState());
            }
            return;
        }
        for (Finished f : batch) {
            Result r = f.result();
            metrics.webhookAttempt(f.d().clientId(), r.succeeded() ? "success" : r.gone() ? "gone" : "failure");
            if (!mine.contains(f.d().deliveryId())) {
                LOG.warnf(
                        "webhook client=%s event=%s: the lease lapsed before the attempt was recorded",
                        f.d().clientId(), f.d().eventId());
            } else if (!r.succeeded()) {
                LOG.infof(
                        "webhook client=%s event=%s attempt failed: %s",
                        f.d().clientId(), f.d().eventId(), r.status() != null ? "status " + r.status() : r.error());
            }
        }
    }
}
