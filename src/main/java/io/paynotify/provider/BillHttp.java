package io.paynotify.provider;

import io.paynotify.core.statement.StatementError;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP client of the bill downloads (CONTRACT.md §11 "Work never delays notifications" and its limits): the JDK's
 * {@link HttpClient}, HTTP/1.1, never following a redirect, streaming a {@code 2xx} answer's body straight into the
 * target file (never held in memory), at most {@link io.paynotify.provider.BillSource#MAX_TRANSFERRED_BYTES} bytes as
 * transferred ({@code TOO_LARGE}: a declared {@code Content-Length} over it is refused before a byte is read). The first
 * byte of the body (or its end, for an empty one) must arrive within 5 s of the request, as any API call's answer;
 * from then on the download may take the caller's {@code downloadTimeout}. Past either deadline the connection is
 * closed ({@code TIMEOUT}). The body of an answer that is not {@code 2xx} is not read: the connection is closed at
 * once. Nothing is retried here (the statements scheduler asks again, for a new URL).
 *
 * <p>{@code @Singleton}, as {@link QueryHttp}: one client, one selector thread.
 */
@Singleton
public class BillHttp {

    /** The first byte must come within this, as any API call's answer (CONTRACT.md §9's 5 s). */
    public static final Duration FIRST_BYTE = Duration.ofSeconds(5);

    private final HttpClient client;
    private final Duration firstByte;
    private final long maxBytes;

    public BillHttp() {
        this(FIRST_BYTE, BillSource.MAX_TRANSFERRED_BYTES);
    }

    /** A client with another first-byte deadline or size limit (tests). */
    public BillHttp(Duration firstByte, long maxBytes) {
        this.firstByte = firstByte;
        this.maxBytes = maxBytes;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(firstByte)
                .build();
    }

    /**
     * What a download gave: the status and headers, and the bytes written to the target ({@code 0} and nothing written
     * unless the status was {@code 2xx}).
     */
    public record Download(int status, HttpHeaders headers, long bytes) {

        public boolean ok() {
            return status >= 200 && status <= 299;
        }

        @Override
        public String toString() {
            return "Download[" + status + ", " + bytes + " bytes]";
        }
    }

    /** No complete download: the contract's error code and a fixed reason (never a value of the answer). */
    public static final class Failed extends Exception {
        private final StatementError error;

        public Failed(StatementError error, String reason) {
            super(reason, null, false, false);
            this.error = error;
        }

        public StatementError error() {
            return error;
        }
    }

    private static final class TooLarge extends IOException {
        TooLarge() {
            super("bill too large", null);
        }
    }

    private static final class WriteFailed extends IOException {
        WriteFailed(IOException cause) {
            super("could not write the bill file", cause);
        }
    }

    /**
     * Sends the request (its User-Agent and timeout are set here) and streams a {@code 2xx} answer's body into
     * {@code target} (created or truncated).
     *
     * @throws Failed {@code TIMEOUT} past a deadline, {@code TOO_LARGE} over the limit, {@code HTTP} when the
     *     connection failed or the file could not be written
     */
    public Download download(HttpRequest.Builder request, Path target, Duration downloadTimeout) throws Failed {
        long start = System.nanoTime();
        HttpRequest built;
        try {
            built = request.timeout(firstByte)
                    .setHeader("User-Agent", QueryHttp.USER_AGENT)
                    .build();
        } catch (RuntimeException e) {
            throw new Failed(StatementError.HTTP, "request could not be built");
        }
        var body = new ToFile(target, maxBytes);
        CompletableFuture<HttpResponse<Long>> pending;
        try {
            pending = client.sendAsync(built, body::handle);
        } catch (RuntimeException e) {
            throw new Failed(StatementError.HTTP, "request refused by the client");
        }
        try {
            CompletableFuture.anyOf(body.first, pending)
                    .get(Math.max(0, start + firstByte.toNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abandon(pending, body);
            throw new Failed(StatementError.TIMEOUT, "no first byte within 5 s");
        } catch (InterruptedException e) {
            abandon(pending, body);
            Thread.currentThread().interrupt();
            throw new Failed(StatementError.HTTP, "interrupted");
        } catch (ExecutionException e) {
            // the request failed: reported below
        }
        long deadline = System.nanoTime() + downloadTimeout.toNanos();
        try {
            HttpResponse<Long> response = pending.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return new Download(response.statusCode(), response.headers(), response.body());
        } catch (TimeoutException e) {
            abandon(pending, body);
            throw new Failed(StatementError.TIMEOUT, "the download took longer than download-timeout");
        } catch (InterruptedException e) {
            abandon(pending, body);
            Thread.currentThread().interrupt();
            throw new Failed(StatementError.HTTP, "interrupted");
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        } finally {
            body.close();
        }
    }

    private static void abandon(CompletableFuture<?> pending, ToFile body) {
        body.cancel();
        pending.cancel(true);
        body.close();
    }

    private static Failed failure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof TooLarge) {
                return new Failed(StatementError.TOO_LARGE, "more than 64 MiB as transferred");
            }
            if (t instanceof WriteFailed) {
                return new Failed(StatementError.HTTP, "could not write the bill file");
            }
            if (t instanceof HttpTimeoutException) {
                return new Failed(StatementError.TIMEOUT, "timed out");
            }
        }
        return new Failed(StatementError.HTTP, "connection failed");
    }

    /**
     * Writes a {@code 2xx} body into the file as it arrives, one buffer list at a time (the next is requested once
     * the previous is written: the file's pace is the connection's); cancels the subscription, which closes the
     * connection, past the limit or for any other status.
     */
    private static final class ToFile implements HttpResponse.BodySubscriber<Long> {
        final CompletableFuture<Void> first = new CompletableFuture<>();
        private final CompletableFuture<Long> result = new CompletableFuture<>();
        private final Path target;
        private final long max;
        private volatile Flow.Subscription subscription;
        private FileChannel file;
        private boolean discard;
        private long declared = -1;
        private long written;

        ToFile(Path target, long max) {
            this.target = target;
            this.max = max;
        }

        HttpResponse.BodySubscriber<Long> handle(HttpResponse.ResponseInfo info) {
            int status = info.statusCode();
            discard = status < 200 || status > 299;
            declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
            return this;
        }

        @Override
        public CompletionStage<Long> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (result.isDone()) {
                s.cancel();
                return;
            }
            if (discard) {
                s.cancel();
                first.complete(null);
                result.complete(0L);
                return;
            }
            if (declared > max) {
                fail(new TooLarge());
                return;
            }
            try {
                synchronized (this) {
                    file = FileChannel.open(
                            target,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
                }
            } catch (IOException e) {
                fail(new WriteFailed(e));
                return;
            }
            s.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            try {
                synchronized (this) {
                    if (file == null) {
                        return;
                    }
                    for (ByteBuffer b : items) {
                        if (written + b.remaining() > max) {
                            fail(new TooLarge());
                            return;
                        }
                        written += b.remaining();
                        while (b.hasRemaining()) {
                            file.write(b);
                        }
                    }
                }
            } catch (IOException e) {
                fail(new WriteFailed(e));
                return;
            }
            if (written > 0) {
                first.complete(null);
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            close();
            first.complete(null);
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            close();
            first.complete(null);
            result.complete(written);
        }

        void cancel() {
            fail(new HttpTimeoutException("abandoned"));
        }

        synchronized void close() {
            if (file != null) {
                try {
                    file.close();
                } catch (IOException e) {
                    // nothing more to write
                }
                file = null;
            }
        }

        private void fail(Throwable t) {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            close();
            first.complete(null);
            result.completeExceptionally(t);
        }
    }
}
