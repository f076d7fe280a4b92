package io.paynotify.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A merchant's webhook endpoint on 127.0.0.1 for the tests: it records every delivery (headers, body, time) and
 * answers as the test scripted it, per path ({@code /a}, {@code /b}): a status, a delay, extra headers; 204 when
 * nothing is scripted. Its port is chosen when the test database is set up and reaches the application's
 * configuration (the webhook-url of the test clients); the test starts the server on it with {@link #get()}.
 */
public final class WebhookReceiver {

    /** The system property with the port, set by {@link FreshDatabaseResource}. */
    static final String PORT = "pntest.webhook.port";

    /** One delivery as received. */
    public record Received(String path, Map<String, String> headers, byte[] body, Instant at) {
        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        public String bodyText() {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** How to answer one delivery. */
    public record Answer(int status, Duration delay, Map<String, String> headers) {
        public static Answer status(int status) {
            return new Answer(status, Duration.ZERO, Map.of());
        }
    }

    private static WebhookReceiver instance;

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    /** Opened (and replaced) by {@link #releaseHeld()}: a delayed answer waits on it at most its delay. */
    private volatile CountDownLatch held = new CountDownLatch(1);

    private final Map<String, BlockingQueue<Answer>> scripts = new ConcurrentHashMap<>();

    private WebhookReceiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 200);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-webhook-receiver");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    /** A free port, reserved for the receiver (called before the application starts). */
    static int reservePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            System.setProperty(PORT, Integer.toString(s.getLocalPort()));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The receiver of this run, started on its reserved port on first use. */
    public static synchronized WebhookReceiver get() {
        if (instance == null) {
            try {
                instance = new WebhookReceiver(Integer.parseInt(System.getProperty(PORT)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** The next answers on that path, in order; afterwards 204 again. */
    public void script(String path, Answer... answers) {
        BlockingQueue<Answer> q = scripts.computeIfAbsent(path, k -> new LinkedBlockingQueue<>());
        q.addAll(List.of(answers));
    }

    /** Forgets scripts and what was received. */
    public void reset() {
        scripts.clear();
        received.clear();
        releaseHeld();
    }

    /** Lets every answer held for its scripted delay go now (a test that is done with a slow endpoint). */
    public void releaseHeld() {
        CountDownLatch open = held;
        held = new CountDownLatch(1);
        open.countDown();
    }

    /** Everything received so far, in order of arrival. */
    public List<Received> received() {
        return new ArrayList<>(received);
    }

    /** The deliveries of one event (by webhook-id) to one path. */
    public List<Received> of(String path, String eventId) {
        return received().stream()
                .filter(r -> r.path().equals(path) && eventId.equals(r.header("webhook-id")))
                .toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        byte[] body = ex.getRequestBody().readAllBytes();
        var headers = new ConcurrentHashMap<String, String>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
        String path = ex.getRequestURI().getPath();
        received.add(new Received(path, Map.copyOf(headers), body, Instant.now()));
        BlockingQueue<Answer> q = scripts.get(path);
        Answer a = q == null ? null : q.poll();
        if (a == null) {
            a = Answer.status(204);
        }
        if (!a.delay().isZero()) {
            // a slow merchant endpoint: the answer is held for its delay, or until the test lets it go
            try {
                held.await(a.delay().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        ex.sendResponseHeaders(a.status(), -1);
        ex.close();
    }
}
