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

    private final RoutingContext ctx;
    private final long startedNanos = System.nanoTime();
    private final AtomicBoolean answered = new AtomicBoolean();
    private volatile long timer = -1;

    public OneAnswer(RoutingContext ctx) {
        this.ctx = ctx;
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
