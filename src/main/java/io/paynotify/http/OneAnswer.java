package io.paynotify.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The one answer of a request on a plain Vert.x route ({@code /notify} and {@code /api}): whoever comes first — the
 * result, a rejection, or the deadline timer — sends it, and everyone after that is ignored. The deadline is how
 * every answer leaves within the contract's 3 s even while PostgreSQL hangs.
 */
public final class OneAnswer {

    /**
     * Every answer of {@code /notify} and {@code /api} leaves within this many milliseconds of arrival (the contract
     * allows 3 s): pool acquisition, lock, statement and transaction timeouts all end sooner, or this timer answers.
     */
    public static final long DEADLINE_MS = 2_500;

    private final RoutingContext ctx;
    private final long startedNanos = System.nanoTime();
    private final AtomicBoolean answered = new AtomicBoolean();
    private volatile long timer = -1;

    public OneAnswer(RoutingContext ctx) {
        this.ctx = ctx;
    }

    /**
     * True when a {@code Content-Length} header declares more than {@code max} bytes, or is not a plain number: such
     * a body is refused before any byte of it is read.
     */
    public static boolean declaresMoreThan(String contentLength, long max) {
        if (contentLength.length() > 12) {
            return true;
        }
        try {
            return Long.parseLong(contentLength.trim()) > max;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    /** Runs {@code onExpiry} (on the event loop) when no answer has left {@code millis} after now. */
    public void deadline(long millis, Runnable onExpiry) {
        timer = ctx.vertx().setTimer(millis, id -> onExpiry.run());
    }

    /** True once an answer was sent (or claimed). */
    public boolean answered() {
        return answered.get();
    }

    /** Nanoseconds since this request arrived. */
    public long elapsedNanos() {
        return System.nanoTime() - startedNanos;
    }

    /**
     * Sends the answer unless one has left already.
     *
     * @param contentType null for no Content-Type header
     * @param body the exact body bytes, possibly empty
     * @param close close the connection after the answer (the rest of the request body was not read)
     * @param headers adds further headers, or null
     * @return false when another answer had been sent already
     */
    public boolean send(
            int status, String contentType, byte[] body, boolean close, Consumer<HttpServerResponse> headers) {
        if (!answered.compareAndSet(false, true)) {
            return false;
        }
        if (timer >= 0) {
            ctx.vertx().cancelTimer(timer);
        }
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return true;
        }
        response.setStatusCode(status);
        if (contentType != null) {
            response.putHeader("Content-Type", contentType);
        }
        if (headers != null) {
            headers.accept(response);
        }
        if (close) {
            response.putHeader("Connection", "close");
        }
        var sent = body == null || body.length == 0 ? response.end() : response.end(Buffer.buffer(body));
        sent.onComplete(v -> {
            if (close) {
                ctx.request().connection().close();
            }
        });
        return true;
    }
}
