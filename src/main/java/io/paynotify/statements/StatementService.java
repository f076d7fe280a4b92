package io.paynotify.statements;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.StatementSettings;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.StatementError;
import io.paynotify.core.statement.Windows;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.StatementClaims;
import io.paynotify.persistence.StatementRow;
import io.paynotify.persistence.Statements;
import io.paynotify.provider.BillSource;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * A day's statement, fetched or uploaded (CONTRACT.md §11): the claim of (channel, day) with its lease, the bill in a
 * temporary file (never whole in memory), the {@link Reconciler}'s stage, swap and comparison, and the statuses and
 * retries of a fetch that gave no bill to read.
 */
@ApplicationScoped
public class StatementService {

    private static final Logger LOG = Logger.getLogger(StatementService.class);

    /** 64 MiB as transferred (the same limit as {@link BillSource#MAX_TRANSFERRED_BYTES}). */
    public static final long MAX_UPLOAD = 64L * 1024 * 1024;

    /** How often a claim's lease is renewed while its work runs. */
    static final Duration RENEW_EVERY = Duration.ofSeconds(30);

    private final StatementDb db;
    private final ChannelRegistry registry;
    private final StatementSettings settings;
    private final BillSources sources;
    private final Reconciler reconciler;
    private final StatementMetrics metrics;
    private volatile Clock clock;
    private final ScheduledExecutorService renewer =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("paynotify-statement-lease"));
    /** Operators' uploads and fetches (each day claimed by one at a time; their database work shares one permit). */
    private final ExecutorService operator = Executors.newCachedThreadPool(DaemonThreads.named("paynotify-statement"));

    @Inject
    StatementService(
            StatementDb db,
            ChannelRegistry registry,
            BillSources sources,
            Reconciler reconciler,
            StatementMetrics metrics,
            Clock clock) {
        this.db = db;
        this.registry = registry;
        this.settings = registry.statements();
        this.sources = sources;
        this.reconciler = reconciler;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * The clock the retry deadlines and the NO_BILL rule read (the application's UTC clock); tests set a fixed one so
     * that they never wait for, or depend on, the time of day.
     */
    public void useClock(Clock clock) {
        this.clock = clock;
    }

    /** The clock in use. */
    public Clock clock() {
        return clock;
    }

    void onStop(@Observes ShutdownEvent event) {
        renewer.shutdownNow();
        operator.shutdown();
    }

    /** The day's statement, or null. */
    public StatementRow find(String channel, LocalDate day) {
        return db.read(c -> Statements.find(c, channel, day));
    }

    /**
     * An operator's upload of the bill file of {@code day} (CONTRACT.md §11): 413 over 64 MiB, 409 on an isv channel
     * or while the day is claimed, 400 when the bill is unreadable or not that day's or account's (nothing changed).
     */
    public StatementRow upload(Channel channel, LocalDate day, InputStream body) {
        return upload(receive(channel, day, body), () -> {});
    }

    /** A bill an operator uploaded, in a temporary file (deleted by {@link #upload(Received, Runnable)}). */
    public record Received(Channel channel, LocalDate day, BillSource source, Path file, String sha256) {}

    /**
     * The first part of an upload, on the request's thread: 409 on an isv channel, the body into a temporary file
     * (413 over 64 MiB) with its SHA-256 as transferred.
     */
    public Received receive(Channel channel, LocalDate day, InputStream body) {
        if (channel.mode() == AccountMode.ISV) {
            throw new StatementProblem(409, "statement-isv", "Bills are not reconciled on an isv channel.");
        }
        BillSource source = source(channel);
        Path file = tempFile();
        try {
            return new Received(channel, day, source, file, copy(body, file));
        } catch (RuntimeException e) {
            delete(file);
            throw e;
        }
    }

    /**
     * The rest of an upload: the claim (409 while held), the file's checks (400 or 413: the whole bill read, nothing
     * staged), then {@code checked} runs (from there on the answer is the statement unless the work fails), then the
     * stage, swap and comparison. The file is deleted at the end.
     */
    public StatementRow upload(Received received, Runnable checked) {
        Channel channel = received.channel();
        LocalDate day = received.day();
        BillSource source = received.source();
        Path file = received.file();
        try {
            return claimed(channel, day, token -> {
                StatementRow existing = find(channel.name(), day);
                if (existing != null
                        && "READ".equals(existing.storedStatus())
                        && received.sha256().equals(existing.fileSha256())) {
                    // the same bytes again: nothing changes
                    return existing;
                }
                Reconciler.Staged staged;
                try {
                    reconciler.check(channel, source, file, day);
                    checked.run();
                    staged = reconciler.stage(channel, source, file, day, null);
                } catch (BillProblem e) {
                    if (e.error() == StatementError.TOO_LARGE) {
                        throw new StatementProblem(413, "bill-too-large", e.getMessage());
                    }
                    throw new StatementProblem(400, "bill-" + e.error().name(), e.getMessage());
                }
                return reconcile(channel, source, day, token, "UPLOAD", received.sha256(), false, staged);
            });
        } finally {
            delete(file);
        }
    }

    /**
     * An operator's upload or fetch, run on a statement thread of its own: {@code checked} completes once only the
     * statement can be the answer (the claim taken, an upload's file checked), {@code done} with the statement or the
     * failure. The admin call answers from them (docs/api.md "Statements": a long reconcile keeps its connection).
     */
    public record Running(CompletableFuture<Void> checked, CompletableFuture<StatementRow> done) {}

    /** Work of an operator's call, given what to run once its answer can only be the statement. */
    @FunctionalInterface
    public interface OperatorWork {
        StatementRow run(Runnable checked);
    }

    /** Starts an operator's work on a statement thread. */
    public Running start(OperatorWork work) {
        var checked = new CompletableFuture<Void>();
        var done = new CompletableFuture<StatementRow>();
        operator.execute(() -> {
            try {
                done.complete(work.run(() -> checked.complete(null)));
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        return new Running(checked, done);
    }

    /**
     * Fetches and reconciles the day now (an operator's fetch, or the scheduler's): 409 while the day is claimed.
     * Whatever the provider answered, the statement as it now stands.
     */
    public StatementRow fetch(Channel channel, LocalDate day) {
        return fetch(channel, day, () -> {});
    }

    /** {@link #fetch(Channel, LocalDate)}, running {@code checked} once the claim is taken (only 200 can follow). */
    public StatementRow fetch(Channel channel, LocalDate day, Runnable checked) {
        BillSource source = source(channel);
        return claimed(channel, day, token -> {
            checked.run();
            return fetchClaimed(channel, source, day, token);
        });
    }

    private StatementRow fetchClaimed(Channel channel, BillSource source, LocalDate day, UUID token) {
        Instant now = clock.instant();
        StatementRow existing = find(channel.name(), day);
        Instant firstAttempt = existing != null && existing.nextAttemptAt() != null && existing.firstAttemptAt() != null
                ? existing.firstAttemptAt()
                : now;
        Path file = tempFile();
        try {
            long started = System.nanoTime();
            BillSource.Fetch got;
            try {
                got = source.fetch(channel, day, file, settings.downloadTimeout());
            } catch (RuntimeException e) {
                LOG.errorf(e, "statement channel=%s day=%s fetch failed unexpectedly", channel.name(), day);
                got = new BillSource.Fetch.Failed(StatementError.HTTP, "unexpected failure");
            }
            metrics.fetched(Duration.ofNanos(System.nanoTime() - started));
            if (got instanceof BillSource.Fetch.Downloaded d) {
                String sha256 = sha256(file);
                if (existing != null
                        && "READ".equals(existing.storedStatus())
                        && sha256.equals(existing.fileSha256())) {
                    return existing;
                }
                Reconciler.Staged staged;
                try {
                    staged = reconciler.stage(channel, source, file, day, d.expectedSha1());
                } catch (BillProblem e) {
                    return failed(channel, source, day, token, e.error(), firstAttempt, now);
                }
                return reconcile(channel, source, day, token, "FETCH", sha256, true, staged);
            }
            if (got instanceof BillSource.Fetch.NoBill) {
                boolean active = db.auto(c ->
                        Orders.activeBetween(c, channel.name(), Windows.start(day), Windows.start(day.plusDays(1))));
                if (active && now.isBefore(Windows.retriesEnd(Windows.day(firstAttempt)))) {
                    // a day with local payments or refunds has a bill: not ready yet, until 23:30
                    return failed(channel, source, day, token, StatementError.NOT_READY, firstAttempt, now);
                }
                record(channel, day, token, "NO_BILL", null, firstAttempt, null);
                reconciler.evaluateWindows(channel, source, day);
                metrics.run(channel.name(), "NO_BILL");
                return find(channel.name(), day);
            }
            if (got instanceof BillSource.Fetch.NotReady) {
                return failed(channel, source, day, token, StatementError.NOT_READY, firstAttempt, now);
            }
            BillSource.Fetch.Failed f = (BillSource.Fetch.Failed) got;
            return failed(channel, source, day, token, f.error(), firstAttempt, now);
        } finally {
            delete(file);
        }
    }

    /**
     * A fetch that gave no bill to read: retried every {@code retry} until 23:30 Beijing time of the first attempt's
     * day when the error is one that is retried, then {@code ERROR} with the last code.
     */
    private StatementRow failed(
            Channel channel,
            BillSource source,
            LocalDate day,
            UUID token,
            StatementError error,
            Instant firstAttempt,
            Instant now) {
        Instant next = now.plus(settings.retry());
        boolean retried = error.retried() && !next.isAfter(Windows.retriesEnd(Windows.day(firstAttempt)));
        String status = retried && error == StatementError.NOT_READY ? "NOT_READY" : "ERROR";
        record(
                channel,
                day,
                token,
                status,
                status.equals("ERROR") ? error.name() : null,
                firstAttempt,
                retried ? next : null);
        metrics.run(channel.name(), status);
        LOG.infof(
                "statement channel=%s day=%s status=%s error=%s retry=%s", channel.name(), day, status, error, retried);
        return find(channel.name(), day);
    }

    private void record(
            Channel channel, LocalDate day, UUID token, String status, String error, Instant first, Instant next) {
        boolean held = db.tx(c -> {
            if (!StatementClaims.holds(c, channel.name(), day, token)) {
                return false;
            }
            Statements.outcome(c, channel.name(), day, status, error, first, next);
            return true;
        });
        if (!held) {
            throw StatementProblem.claimed();
        }
    }

    private StatementRow reconcile(
            Channel channel,
            BillSource source,
            LocalDate day,
            UUID token,
            String how,
            String sha256,
            boolean fetched,
            Reconciler.Staged staged) {
        if (reconciler.swap(channel, day, token, how, sha256, fetched, staged) == Reconciler.Swap.CLAIM_LOST) {
            throw StatementProblem.claimed();
        }
        var t = staged.totals();
        metrics.lines(channel.name(), t.paymentCount, t.refundCount, t.otherCount);
        reconciler.compare(channel, source, day, staged.setId());
        StatementRow row = find(channel.name(), day);
        metrics.run(channel.name(), row.status());
        LOG.infof(
                "statement channel=%s day=%s source=%s status=%s lines=%d foreign=%d openDifferences=%d",
                channel.name(), day, how, row.status(), staged.lines(), t.foreignCount, row.openDifferences());
        return row;
    }

    @FunctionalInterface
    private interface ClaimedWork {
        StatementRow run(UUID token);
    }

    /** Runs the work while holding the day's claim (renewed every 30 s), released at its end; 409 when held. */
    private StatementRow claimed(Channel channel, LocalDate day, ClaimedWork work) {
        UUID token = UUID.randomUUID();
        Duration lease = settings.lease();
        db.auto(c -> {
            StatementClaims.ensure(c, channel.name(), day);
            return null;
        });
        if (!db.tx(c -> StatementClaims.take(c, channel.name(), day, token, lease))) {
            throw StatementProblem.claimed();
        }
        long every = Math.min(RENEW_EVERY.toMillis(), Math.max(1, lease.toMillis() / 3));
        ScheduledFuture<?> renewal = renewer.scheduleWithFixedDelay(
                () -> {
                    try {
                        db.tx(c -> StatementClaims.renew(c, channel.name(), day, token, lease));
                    } catch (RuntimeException e) {
                        LOG.warnf("statement channel=%s day=%s lease not renewed: %s", channel.name(), day, e);
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        try {
            return work.run(token);
        } finally {
            renewal.cancel(false);
            try {
                db.tx(c -> {
                    StatementClaims.release(c, channel.name(), day, token);
                    return null;
                });
            } catch (RuntimeException e) {
                LOG.warnf(
                        "statement channel=%s day=%s claim not released (its lease lapses): %s",
                        channel.name(), day, e);
            }
        }
    }

    private BillSource source(Channel channel) {
        BillSource s = sources.source(channel.provider());
        if (s == null) {
            throw new StatementProblem(503, "no-bill-source", "This build cannot read this provider's bills.");
        }
        return s;
    }

    /** The body into the file, at most 64 MiB (else 413), with its SHA-256 as transferred. */
    private static String copy(InputStream body, Path file) {
        MessageDigest sha = sha256Digest();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try (InputStream in = new DigestInputStream(body, sha);
                OutputStream out = Files.newOutputStream(file)) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                total += n;
                if (total > MAX_UPLOAD) {
                    throw new StatementProblem(413, "bill-too-large", "The bill exceeds 64 MiB as transferred.");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static String sha256(Path file) {
        MessageDigest sha = sha256Digest();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                sha.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path tempFile() {
        try {
            return Files.createTempFile("paynotify-bill-", ".bin");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warnf("statement temporary file not deleted: %s", e.getMessage());
        }
    }
}
