package io.paynotify.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A provider's API on {@code 127.0.0.1}, a free port: each request is recorded and answered by the test's handler,
 * which sees the request and may sign its answer. A handler may also never answer ({@link #hang()}), or answer a
 * byte at a time. For the query clients' unit tests; no Quarkus.
 */
public final class FakeGateway implements AutoCloseable {

    /** A request as it arrived: method, raw target (path and query), headers (lower-case names), body. */
    public record Request(String method, String target, Map<String, List<String>> headers, byte[] body) {

        public String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * An answer: status, headers and body; {@code dripMillis} > 0 sends the body a byte at a time, that slowly;
     * {@code noLength} sends it chunked, without a Content-Length.
     */
    public record Reply(int status, Map<String, String> headers, byte[] body, long dripMillis, boolean noLength) {

        public static Reply of(int status, String contentType, byte[] body) {
            return new Reply(status, Map.of("Content-Type", contentType), body, 0, false);
        }

        public static Reply of(int status, String contentType, String body) {
            return of(status, contentType, body.getBytes(StandardCharsets.UTF_8));
        }

        public Reply withHeader(String name, String value) {
            var h = new LinkedHashMap<>(headers);
            h.put(name, value);
            return new Reply(status, h, body, dripMillis, noLength);
        }

        public Reply dripping(long millis) {
            return new Reply(status, headers, body, millis, noLength);
        }

        /** The body sent chunked, without a Content-Length. */
        public Reply chunked() {
            return new Reply(status, headers, body, dripMillis, true);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fake-gateway");
        t.setDaemon(true);
        return t;
    });
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Function<Request, Reply> handler = r -> Reply.of(500, "text/plain", "no handler");
    private volatile Request last;

    public FakeGateway() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers every following request with this handler. */
    public FakeGateway answer(Function<Request, Reply> next) {
        this.handler = next;
        return this;
    }

    /** Accepts requests and never answers them (until closed). */
    public FakeGateway hang() {
        return answer(r -> {
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Reply.of(500, "text/plain", "closed");
        });
    }

    /** The last request received, or null. */
    public Request last() {
        return last;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            var headers = new LinkedHashMap<String, List<String>>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
            Request request = new Request(
                    exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers, body);
            last = request;
            Reply reply = handler.apply(request);
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            if (reply.dripMillis() > 0) {
                exchange.sendResponseHeaders(reply.status(), reply.noLength() ? 0 : reply.body().length);
                OutputStream out = exchange.getResponseBody();
                for (byte b : reply.body()) {
                    out.write(b);
                    out.flush();
                    if (closed.await(reply.dripMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                }
            } else {
                long length = reply.noLength() ? 0 : reply.body().length == 0 ? -1 : reply.body().length;
                exchange.sendResponseHeaders(reply.status(), length);
                exchange.getResponseBody().write(reply.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // the client went away (a timeout under test): nothing to answer
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
