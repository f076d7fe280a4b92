package io.paynotify.simulator.listen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A merchant's webhook endpoint on 127.0.0.1: every POST (on any path) is verified with a {@link WebhookVerifier},
 * answered 204 when valid and 401 otherwise, recorded, and handed to a listener.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** Bodies above this are refused unread (paynotify's events are a few KiB). */
    private static final int MAX_BODY = 1 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;
    private final WebhookVerifier verifier;
    private final Clock clock;
    private final Consumer<Delivery> listener;
    private final List<Delivery> deliveries = new ArrayList<>();

    private WebhookReceiver(HttpServer server, WebhookVerifier verifier, Clock clock, Consumer<Delivery> listener) {
        this.server = server;
        this.verifier = verifier;
        this.clock = clock;
        this.listener = listener;
        this.executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "webhook-receiver");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    /**
     * Starts listening on 127.0.0.1.
     *
     * @param port the port, or 0 for any free one
     * @throws IOException when the port is taken
     */
    public static WebhookReceiver start(int port, WebhookVerifier verifier, Clock clock, Consumer<Delivery> listener)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        WebhookReceiver receiver = new WebhookReceiver(server, verifier, clock, listener);
        server.start();
        return receiver;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Every delivery so far, oldest first. */
    public synchronized List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Polls (every 100 ms) until the deliveries satisfy {@code condition} or the deadline passes. */
    public boolean await(Predicate<List<Delivery>> condition, Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.test(deliveries())) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            synchronized (this) {
                wait(100);
            }
        }
        return true;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.getResponseHeaders().set("Allow", "POST");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                exchange.sendResponseHeaders(413, -1);
                return;
            }
            String id = single(exchange, "webhook-id");
            WebhookVerifier.Result result = verifier.verify(
                    id, single(exchange, "webhook-timestamp"), single(exchange, "webhook-signature"), body);
            Delivery delivery = describe(id, body, result);
            synchronized (this) {
                deliveries.add(delivery);
                notifyAll();
            }
            listener.accept(delivery);
            exchange.sendResponseHeaders(result.ok() ? 204 : 401, -1);
        }
    }

    private Delivery describe(String id, byte[] body, WebhookVerifier.Result result) {
        String type = null;
        String channel = null;
        String outTradeNo = null;
        try {
            JsonNode event = JSON.readTree(body);
            type = text(event.path("type"));
            JsonNode order = event.path("data").path("order");
            channel = text(order.path("channel"));
            outTradeNo = text(order.path("outTradeNo"));
        } catch (IOException e) {
            // not JSON: the line says so by its missing type
        }
        return new Delivery(id, type, channel, outTradeNo, result, Instant.now(clock));
    }

    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : null;
    }

    /** A header's value when sent exactly once; a repeated header counts as missing. */
    private static String single(HttpExchange exchange, String name) {
        List<String> values = exchange.getRequestHeaders().get(name);
        return values == null || values.size() != 1 ? null : values.get(0);
    }

    private static byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY + 1);
        return body.length > MAX_BODY ? null : body;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
