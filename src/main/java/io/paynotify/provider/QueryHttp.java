package io.paynotify.provider;

import io.paynotify.core.query.QueryError;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP client of the active queries (docs/api.md "Active query"), shared by every provider's {@code OrderQuery}: the JDK's
 * {@link HttpClient}, HTTP/1.1, never following a redirect (a provider's API answers where it was asked; a
 * redirect is an error, never a second request), with a budget of 5 s for the whole call — connecting, sending,
 * waiting and reading the answer — enforced as one deadline, not per phase, so that an answer trickling in a byte
 * at a time is cut off too. An answer larger than 256 KiB is refused (its bytes are not kept). The caller's thread
 * waits for the answer; nothing is retried here (the scheduler asks again at the next step).
 *
 * <p>{@code @Singleton}, not {@code @ApplicationScoped}: a client proxy would run the constructor a second time and
 * build a second client with its own selector thread.
 */
@Singleton
public class QueryHttp {

    /** The whole call, connect and answer (docs/api.md "Active query"). */
    public static final Duration BUDGET = Duration.ofSeconds(5);

    /** The largest answer read; a trade query answer is a few KiB. */
    public static final int MAX_ANSWER_BYTES = 256 * 1024;

    /** Sent with every query; WeChat Pay refuses v3 requests without a User-Agent (WeChat Pay's v3 query API). */
    public static final String USER_AGENT = "paynotify/" + version();

    private final HttpClient client;
    private final Duration budget;
    private final int maxAnswerBytes;

    public QueryHttp() {
        this(BUDGET, MAX_ANSWER_BYTES);
    }

    /** A client with another budget or answer limit (tests). */
    public QueryHttp(Duration budget, int maxAnswerBytes) {
        this.budget = budget;
        this.maxAnswerBytes = maxAnswerBytes;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(budget)
                .build();
    }

    /** An answer as received: its status, headers and body. */
    public record Answer(int status, HttpHeaders headers, byte[] body) {

        /** The header's first value, or null. */
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** All values of the header (the name is case-insensitive). */
        public List<String> headerValues(String name) {
            return headers.allValues(name);
        }

        @Override
        public String toString() {
            return "Answer[" + status + ", " + body.length + " bytes]";
        }
    }

    /** No answer: why, as a {@link QueryError} and a fixed reason for the log (never a value from the answer). */
    public static final class Failed extends Exception {
        private final QueryError error;

        Failed(QueryError error, String reason) {
            super(reason, null, false, false);
            this.error = error;
        }

        public QueryError error() {
            return error;
        }
    }

    /** The answer was longer than the limit. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super("answer too large", null);
        }
    }

    /**
     * Sends the request (its User-Agent and timeout are set here) and waits for the whole answer.
     *
     * @throws Failed TIMEOUT when the budget ran out, TRANSPORT when the connection failed or the answer was too
     *     large
     */
    public Answer send(HttpRequest.Builder request) throws Failed {
        long deadline = System.nanoTime() + budget.toNanos();
        HttpRequest built;
        try {
            built = request.timeout(budget).setHeader("User-Agent", USER_AGENT).build();
        } catch (RuntimeException e) {
            throw new Failed(QueryError.TRANSPORT, "request could not be built");
        }
        var body = new CappedBody(maxAnswerBytes);
        CompletableFuture<HttpResponse<byte[]>> pending;
        try {
            pending = client.sendAsync(built, info -> body.declared(info.headers()));
        } catch (RuntimeException e) {
            throw new Failed(QueryError.TRANSPORT, "request refused by the client");
        }
        try {
            HttpResponse<byte[]> response =
                    pending.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return new Answer(response.statusCode(), response.headers(), response.body());
        } catch (TimeoutException e) {
            abandon(pending, body);
            throw new Failed(QueryError.TIMEOUT, "no complete answer within the budget");
        } catch (InterruptedException e) {
            abandon(pending, body);
            Thread.currentThread().interrupt();
            throw new Failed(QueryError.TRANSPORT, "interrupted");
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        }
    }

    /** Gives up on a call: the connection is closed rather than left reading an answer nobody waits for. */
    private static void abandon(CompletableFuture<?> pending, CappedBody body) {
        body.cancel();
        pending.cancel(true);
    }

    private static Failed failure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof TooLarge) {
                return new Failed(QueryError.TRANSPORT, "answer larger than the limit");
            }
            if (t instanceof HttpTimeoutException) {
                return new Failed(QueryError.TIMEOUT, "timed out");
            }
        }
        return new Failed(QueryError.TRANSPORT, "connection failed");
    }

    /**
     * Collects the body up to the limit; past it, or beyond a declared {@code Content-Length} over it, the
     * subscription is cancelled (which closes the connection) and the body fails.
     */
    private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private volatile Flow.Subscription subscription;
        private volatile long declared = -1;

        CappedBody(int max) {
            this.max = max;
        }

        HttpResponse.BodySubscriber<byte[]> declared(HttpHeaders headers) {
            declared = headers.firstValueAsLong("Content-Length").orElse(-1);
            return this;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (result.isDone()) {
                s.cancel();
            } else if (declared > max) {
                fail(new TooLarge());
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                if (out.size() + (long) b.remaining() > max) {
                    fail(new TooLarge());
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                out.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(out.toByteArray());
        }

        void cancel() {
            fail(new HttpTimeoutException("abandoned"));
        }

        private void fail(Throwable t) {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            result.completeExceptionally(t);
        }
    }

    private static String version() {
        String v = QueryHttp.class.getPackage() == null
                ? null
                : QueryHttp.class.getPackage().getImplementationVersion();
        return v == null || v.isBlank() ? "1.0" : v;
    }
}
