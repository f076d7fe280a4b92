package io.paynotify.notify;

import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.http.OneAnswer;
import io.paynotify.http.RouteOrder;
import io.paynotify.intake.IntakeOutcome;
import io.paynotify.intake.NotificationIntake;
import io.paynotify.metrics.Meters;
import io.paynotify.provider.AckResponse;
import io.paynotify.provider.NotifyAdapter;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.RawNotify;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * {@code POST /notify/{provider}/{channel}}: the provider endpoints of docs/api.md "Notify API", on a plain Vert.x route so
 * that the body is counted while it arrives (413 without reading past 64 KiB), nothing binds or re-encodes it, and
 * the answer has a hard deadline.
 *
 * <p>Order: channel and provider (404) → size (413) → the adapter's checks (400/401) → the intake transaction on
 * a worker thread → the ack, rendered only after the commit. A timer answers 503 with the failure ack if no answer
 * has left {@link OneAnswer#DEADLINE_MS} after arrival, whatever the database is doing; a commit that lands after that is
 * found by the provider's retry as a duplicate.
 */
@ApplicationScoped
public class NotifyRoutes {

    private static final Logger LOG = Logger.getLogger("io.paynotify.notify");

    private final ChannelRegistry registry;
    private final NotificationIntake intake;
    private final Clock clock;
    private final Map<String, NotifyAdapter> adapters = new HashMap<>();
    private final RejectionLog rejectionLog = new RejectionLog();
    private final Meters metrics;
    private final NotifyWorkers workers;
    private final BusyLog busyLog = new BusyLog();

    @Inject
    public NotifyRoutes(
            ChannelRegistry registry,
            NotificationIntake intake,
            Clock clock,
            Instance<NotifyAdapter> all,
            Meters metrics,
            NotifyWorkers workers) {
        this.registry = registry;
        this.intake = intake;
        this.clock = clock;
        this.metrics = metrics;
        this.workers = workers;
        all.forEach(a -> adapters.put(a.pathSegment(), a));
    }

    void register(@Observes Router router) {
        router.post("/notify/:provider/:channel").order(RouteOrder.NOTIFY).handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        Instant receivedAt = clock.instant();
        long started = System.nanoTime();
        HttpServerRequest request = ctx.request();
        NotifyAdapter adapter = adapters.get(ctx.pathParam("provider"));
        if (adapter == null) {
            ctx.next();
            return;
        }
        Exchange ex = new Exchange(ctx, adapter);
        Channel channel = registry.channel(ctx.pathParam("channel"))
                .filter(c -> c.provider() == adapter.provider())
                .orElse(null);
        if (channel == null) {
            ex.reject(
                    "_unknown",
                    new NotifyRejection(NotifyRejection.Kind.UNKNOWN_CHANNEL, NotifyRejection.Cause.UNKNOWN_CHANNEL),
                    true);
            return;
        }
        String declared = request.getHeader("Content-Length");
        if (declared != null && OneAnswer.declaresMoreThan(declared, RawNotify.MAX_BODY_BYTES)) {
            ex.reject(
                    channel.name(),
                    new NotifyRejection(NotifyRejection.Kind.TOO_LARGE, NotifyRejection.Cause.TOO_LARGE),
                    true);
            return;
        }
        ex.once.deadline(OneAnswer.DEADLINE_MS, () -> {
            if (ex.answer(adapter.failure(503), true)) {
                busyLog.warn(channel.name(), "-", "no result within " + OneAnswer.DEADLINE_MS + " ms");
            }
        });
        Buffer body = Buffer.buffer(1024);
        request.handler(chunk -> {
            if (ex.once.answered()) {
                return;
            }
            if (body.length() + chunk.length() > RawNotify.MAX_BODY_BYTES) {
                ex.reject(
                        channel.name(),
                        new NotifyRejection(NotifyRejection.Kind.TOO_LARGE, NotifyRejection.Cause.TOO_LARGE),
                        true);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(e -> ex.answer(adapter.failure(400), true));
        request.endHandler(v -> {
            if (ex.once.answered()) {
                return;
            }
            RawNotify raw = new RawNotify(channel.name(), headers(request), body.getBytes(), receivedAt);
            io.vertx.core.Context context = ctx.vertx().getOrCreateContext();
            try {
                workers.execute(() -> process(adapter, channel, raw, started, context, ex));
            } catch (RejectedExecutionException e) {
                // every notification worker is busy and the queue is full: the provider retries
                busyLog.warn(channel.name(), "-", "notification workers saturated");
                ex.answer(adapter.failure(503), false);
            }
        });
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            // the size is acceptable: let a client that waits for it send the body (curl does above 1 KiB)
            ctx.response().writeContinue();
        }
        request.resume();
    }

    /**
     * Runs on a notification worker: verify, then hand the notification to the intake's writers. The ack is rendered
     * on the request's event loop once the transaction that holds the notification committed (or failed), so the
     * worker is free for the next verification meanwhile.
     */
    private void process(
            NotifyAdapter adapter,
            Channel channel,
            RawNotify raw,
            long started,
            io.vertx.core.Context context,
            Exchange ex) {
        long deadline = started + TimeUnit.MILLISECONDS.toNanos(OneAnswer.DEADLINE_MS);
        if (System.nanoTime() - deadline >= 0) {
            // queued past the deadline: its 503 has left, and nothing here may touch the database any more
            context.runOnContext(x -> ex.answer(adapter.failure(503), false));
            return;
        }
        VerifiedNotification n;
        try {
            n = adapter.verify(channel, raw);
        } catch (NotifyRejection r) {
            rejectionLog.rejected(
                    channel.name(), adapter.pathSegment(), r.kind().status(), r.rejectionCause());
            metrics.rejected(
                    channel.name(), adapter.provider(), r.rejectionCause().name());
            context.runOnContext(x -> ex.answer(adapter.failure(r.kind().status()), false));
            return;
        } catch (RuntimeException e) {
            // a bug must not leak a stack trace nor become a success; the provider retries
            LOG.errorf(
                    "notify channel=%s verification failed unexpectedly: %s",
                    channel.name(), e.getClass().getName());
            context.runOnContext(x -> ex.answer(adapter.failure(503), false));
            return;
        }
        intake.submit(n, Source.NOTIFY, deadline)
                .whenComplete((outcome, error) -> context.runOnContext(x -> ex.answer(
                        ack(adapter, channel, n, started, error == null ? outcome : IntakeOutcome.failure(error)),
                        false)));
    }

    /** The ack for an intake's outcome; counts and logs it. */
    private AckResponse ack(
            NotifyAdapter adapter, Channel channel, VerifiedNotification n, long started, IntakeOutcome outcome) {
        if (outcome.decided()) {
            var d = outcome.decision();
            metrics.recorded(channel.name(), n.provider(), d.outcome(), d.reason());
            if (n.notifyClass() == NotifyClass.REFUND) {
                metrics.refund(channel.name(), n.provider(), d.outcome(), d.reason());
            }
            if (LOG.isInfoEnabled()) {
                // built by hand: a format string would be parsed again for every notification
                LOG.info(new StringBuilder(160)
                        .append("notify channel=")
                        .append(channel.name())
                        .append(" outTradeNo=")
                        .append(n.outTradeNo())
                        .append(" outcome=")
                        .append(d.outcome().name())
                        .append(" reason=")
                        .append(d.reason() == null ? "-" : d.reason().name())
                        .append(" recorded=")
                        .append(outcome.recorded())
                        .append(" latencyMs=")
                        .append((System.nanoTime() - started) / 1_000_000)
                        .toString());
            }
            return d.successAck() ? adapter.success() : adapter.failure(422);
        }
        switch (outcome.kind()) {
            case NOT_ADMITTED -> {
                // not admitted: answered at once, not recorded, counted (docs/api.md "Admission")
                metrics.rejected(channel.name(), n.provider(), Meters.ADMISSION);
                busyLog.warn(channel.name(), n.outTradeNo(), "too many deliveries of one order in flight");
            }
            case QUEUE_FULL -> busyLog.warn(channel.name(), n.outTradeNo(), "the intake's queue is full");
            case EXPIRED ->
                busyLog.warn(channel.name(), n.outTradeNo(), "dropped: its deadline passed while it waited");
            case DATABASE_FAILED ->
                LOG.warnf(
                        "notify channel=%s outTradeNo=%s answered 503: database failed (SQLState %s)",
                        channel.name(), n.outTradeNo(), outcome.sqlState());
            default ->
                // a bug must not become a success: nothing of this notification was committed
                LOG.errorf(
                        "notify channel=%s outTradeNo=%s answered 503: %s",
                        channel.name(),
                        n.outTradeNo(),
                        outcome.cause() == null
                                ? "-"
                                : outcome.cause().getClass().getName());
        }
        return adapter.failure(503);
    }

    /** A flood of refused replays costs ten log lines a second, not one per delivery. */
    private static final class BusyLog {
        private final io.paynotify.logging.LogRateLimit limit = new io.paynotify.logging.LogRateLimit(10);

        void warn(String channel, String outTradeNo, String why) {
            var permit = limit.tryLog();
            if (permit.suppressedBefore() > 0) {
                LOG.warnf("notify answered 503: %d more deliveries not logged", permit.suppressedBefore());
            }
            if (permit.log()) {
                LOG.warnf("notify channel=%s outTradeNo=%s answered 503: %s", channel, outTradeNo, why);
            }
        }
    }

    private static Map<String, List<String>> headers(HttpServerRequest request) {
        var out = new LinkedHashMap<String, List<String>>();
        request.headers()
                .forEach(h -> out.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(h.getValue()));
        return out;
    }

    /** One request's answer, sent at most once: by the result, a rejection, or the deadline timer. */
    private final class Exchange {
        final NotifyAdapter adapter;
        final OneAnswer once;

        Exchange(RoutingContext ctx, NotifyAdapter adapter) {
            this.adapter = adapter;
            this.once = new OneAnswer(ctx);
        }

        void reject(String channel, NotifyRejection r, boolean close) {
            rejectionLog.rejected(channel, adapter.pathSegment(), r.kind().status(), r.rejectionCause());
            metrics.rejected(channel, adapter.provider(), r.rejectionCause().name());
            answer(adapter.failure(r.kind().status()), close);
        }

        boolean answer(AckResponse ack, boolean close) {
            long elapsed = once.elapsedNanos();
            if (!once.send(ack.status(), ack.contentType(), ack.body(), close, null)) {
                return false;
            }
            metrics.ackLatency(adapter.provider(), ack.status(), elapsed);
            return true;
        }
    }
}
