package io.paynotify.events;

import io.paynotify.channel.ChannelRegistry;
import io.paynotify.channel.ClientCredentials;
import io.paynotify.channel.PaynotifyConfig;
import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.core.event.RetrySchedule;
import io.paynotify.metrics.NotifyMetrics;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Transactions;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import javax.net.ssl.SSLException;
import org.jboss.logging.Logger;

/**
 * Delivers events to the merchants' webhooks (docs/api.md "Webhooks"), in every replica. One loop claims due deliveries
 * ({@code SKIP LOCKED} and a lease, see {@link Deliveries}), sends each as a Standard Webhooks POST, records the
 * attempt while the lease is still its own, and schedules the next one. It wakes at once after a local commit
 * ({@link #wake()}) and otherwise every {@link #POLL} for work that other replicas committed.
 *
 * <p>Isolation: at most {@link #PER_CLIENT} attempts per client in flight in this replica and
 * {@link #IN_FLIGHT} in all; attempts are asynchronous (the JDK's HTTP client), so a slow merchant holds no thread
 * and never delays a provider's ack or another client's deliveries. No redirect is followed, at most
 * {@link #MAX_BODY} bytes of an answer are read and none is stored; the secret, the signature and the body never
 * reach a log.
 */
@ApplicationScoped
public class DeliveryWorker {

    static final Duration POLL = Duration.ofSeconds(1);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    static final int PER_CLIENT = 4;
    static final int IN_FLIGHT = 32;
    static final int MAX_BODY = 1024;

    private static final Logger LOG = Logger.getLogger("io.paynotify.webhooks");

    private final Transactions transactions;
    private final ChannelRegistry registry;
    private final Clock clock;
    private final NotifyMetrics metrics;
    private final RetrySchedule schedule;
    private final long leaseSeconds;
    private final boolean allowLoopback;
    private final Semaphore wakeups = new Semaphore(0);
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final HttpClient http;
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
            NotifyMetrics metrics,
            PaynotifyConfig config) {
        this.transactions = transactions;
        this.registry = registry;
        this.clock = clock;
        this.metrics = metrics;
        this.schedule = new RetrySchedule(config.webhooks().retrySchedule());
        this.leaseSeconds = Math.max(1, config.webhooks().lease().toSeconds());
        this.allowLoopback = config.webhooks().allowLoopback();
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newFixedThreadPool(2, DaemonThreads.named("paynotify-webhook-http")))
                .build();
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
                attempt(d, token);
            }
        }
    }

    private void attempt(Deliveries.Claimed d, UUID token) {
        inFlight.computeIfAbsent(d.clientId(), k -> new AtomicInteger()).incrementAndGet();
        total.incrementAndGet();
        Instant at = clock.instant();
        long started = System.nanoTime();
        send(d).whenComplete((result, error) -> {
            int ms = (int) ((System.nanoTime() - started) / 1_000_000);
            Result r = error != null ? Result.error(describe(error)) : result;
            recorder.execute(() -> {
                try {
                    if (!crashed) {
                        record(d, token, at, r, ms);
                    }
                } finally {
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
        URI url = client.webhook().url();
        if (!allowLoopback && !allowedTarget(url)) {
            return CompletableFuture.completedFuture(Result.error("address not allowed"));
        }
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(ANSWER_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("User-Agent", "paynotify-webhooks/1")
                .header("webhook-id", d.eventId())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header(
                        "webhook-signature",
                        WebhookSignature.header(
                                d.eventId(),
                                timestamp,
                                d.body(),
                                client.webhook().secrets()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(d.body()))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                .thenApply(response -> {
                    drain(response.body());
                    return new Result(
                            response.statusCode(),
                            null,
                            retryAfter(
                                    response.headers().firstValue("Retry-After").orElse(null)));
                });
    }

    /** Reads at most {@link #MAX_BODY} bytes of an answer and discards them. */
    private static void drain(InputStream body) {
        try (body) {
            body.readNBytes(MAX_BODY);
        } catch (IOException ignored) {
            // the answer's body is never used
        }
    }

    /**
     * Never an address {@link WebhookTargets} refuses, checked after resolving the name on every attempt. The HTTP
     * client resolves the name again when it connects; a name whose answers change between the two (DNS rebinding)
     * is a residual risk the operator closes with an egress NetworkPolicy.
     */
    static boolean allowedTarget(URI url) {
        try {
            for (InetAddress a : InetAddress.getAllByName(url.getHost())) {
                if (!WebhookTargets.allowed(a)) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return true; // the attempt then fails to connect, with its own error
        }
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

    private static String describe(Throwable error) {
        Throwable e = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause()
                : error;
        if (e instanceof HttpConnectTimeoutException || e instanceof HttpTimeoutException) {
            return "timeout";
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof SSLException) {
            return "tls failed";
        }
        if (e instanceof IllegalArgumentException) {
            return "bad url";
        }
        return "connection failed";
    }
}
