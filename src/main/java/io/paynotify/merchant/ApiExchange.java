package io.paynotify.merchant;

import io.paynotify.config.ClientCredentials;
import io.paynotify.http.ApiAnswer;
import io.paynotify.http.HttpDates;
import io.paynotify.http.OneAnswer;
import io.paynotify.http.Problem;
import io.paynotify.idempotency.IdempotencyKeys;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * One {@code /api} request from arrival to its one answer: the answer is sent at most once, by the operation, a
 * rejection or the deadline timer, and every answer to a POST carries the Idempotency-Key headers of docs/api.md
 * "Idempotency-Key" ({@code X-Idempotency-Key}, {@code Idempotent-Replayed}, {@code X-Original-Date}).
 */
final class ApiExchange {

    /** The routing-context key under which the signature filter hands the exchange to the routes. */
    static final String KEY = "paynotify.api.exchange";

    final RoutingContext ctx;
    final Clock clock;
    final OneAnswer once;
    volatile boolean bodyComplete;

    /** Set by the signature filter once the request is authenticated. */
    volatile ClientCredentials client;

    volatile byte[] body;

    ApiExchange(RoutingContext ctx, Clock clock) {
        this.ctx = ctx;
        this.clock = clock;
        this.once = new OneAnswer(ctx);
        metricsTemplate("/api/{other}");
    }

    /**
     * The {@code uri} label of the HTTP server metrics for this request. Without it Micrometer labels a plain
     * route's request with its actual path, so every outTradeNo (and every path an attacker tries) would become a
     * label value: unbounded, and order numbers in the metrics.
     */
    static void metricsTemplate(String template) {
        io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
        if (context != null) {
            // the key Quarkus' own REST layer sets; the Micrometer binder reads it when the request ends
            context.putLocal("UrlPathTemplate", template);
        }
    }

    /** Starts the deadline: past it, a request still reading its body gets 408, any other 503. */
    void startDeadline() {
        once.deadline(OneAnswer.DEADLINE_MS, () -> {
            boolean reading = !bodyComplete;
            Problem p = reading ? Problem.status(408, "Request Timeout") : Problem.unavailable();
            answer(p.toAnswer(), false, null, null, reading);
        });
    }

    boolean isPost() {
        return ctx.request().method() == HttpMethod.POST;
    }

    /** The request's Idempotency-Key when it is present once and well-formed, else null (then it is not echoed). */
    String idempotencyKey() {
        List<String> values = ctx.request().headers().getAll("Idempotency-Key");
        if (values.size() != 1 || !IdempotencyKeys.isWellFormed(values.get(0))) {
            return null;
        }
        return values.get(0);
    }

    /**
     * Sends the answer unless one has left already.
     *
     * @param replayed whether this is a stored answer replayed
     * @param originalDate when the stored answer was first given, or null for "now"
     * @param allow the Allow header of a 405, else null
     * @param close whether to close the connection (the rest of the body was not read)
     * @return false when another answer had been sent already
     */
    boolean answer(ApiAnswer a, boolean replayed, Instant originalDate, String allow, boolean close) {
        boolean post = isPost();
        String key = post ? idempotencyKey() : null;
        return once.send(a.status(), a.contentType(), a.body(), close, response -> {
            response.putHeader("Cache-Control", "no-store");
            if (post) {
                if (key != null) {
                    response.putHeader("X-Idempotency-Key", key);
                }
                response.putHeader("Idempotent-Replayed", Boolean.toString(replayed));
                response.putHeader(
                        "X-Original-Date", HttpDates.imfFixdate(originalDate != null ? originalDate : clock.instant()));
            }
            if (a.status() == 503) {
                response.putHeader("Retry-After", "1");
            }
            if (allow != null) {
                response.putHeader("Allow", allow);
            }
        });
    }

    boolean answered() {
        return once.answered();
    }

    long elapsedMillis() {
        return once.elapsedNanos() / 1_000_000;
    }
}
