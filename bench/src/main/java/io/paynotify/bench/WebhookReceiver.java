package io.paynotify.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The merchant's webhook endpoint for the end-to-end benchmark: a {@code com.sun.net.httpserver} on 127.0.0.1 that
 * answers every POST with {@code 204} at once and records, per delivery, its arrival time (the wall clock, the same
 * {@code CLOCK_REALTIME} the service's {@code Clock.systemUTC()} reads) under its {@code webhook-id}, the event id.
 *
 * <p>The Standard Webhooks signature ({@code v1,} + base64 HMAC-SHA256 over {@code id.timestamp.body}, keyed with the
 * bytes after {@code whsec_}) is checked after the answer has gone out, so that checking never delays the answer;
 * a delivery with a bad or missing signature still counts as arrived, and as bad.
 */
final class WebhookReceiver implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService pool;
    private final byte[] secret;
    /** event id → epoch microseconds of its first arrival. */
    private final Map<String, Long> firstArrival = new ConcurrentHashMap<>();
    private final AtomicLong arrivals = new AtomicLong();
    private final AtomicLong repeats = new AtomicLong();
    private final AtomicLong badSignatures = new AtomicLong();
    private final ThreadLocal<Mac> mac;

    /**
     * @param port the port on 127.0.0.1 (the service's {@code webhook-url} names it)
     * @param whsec the client's {@code webhook-secret}, {@code whsec_} + base64
     */
    WebhookReceiver(int port, String whsec) throws IOException {
        if (!whsec.startsWith("whsec_")) {
            throw new IllegalArgumentException("a webhook secret starts with whsec_");
        }
        this.secret = Base64.getDecoder().decode(whsec.substring("whsec_".length()));
        this.mac = ThreadLocal.withInitial(() -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(new SecretKeySpec(secret, "HmacSHA256"));
                return m;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        AtomicInteger n = new AtomicInteger();
        // the service means to have at most 4 attempts per client in flight (DeliveryWorker.PER_CLIENT), but one claim
        // may add 4 to the 3 still running: 8 threads, so that no delivery waits here for a thread
        this.pool = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "webhook-receiver-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        long arrived = epochMicros(Instant.now());
        var headers = exchange.getRequestHeaders();
        String id = headers.getFirst("webhook-id");
        String timestamp = headers.getFirst("webhook-timestamp");
        String signature = headers.getFirst("webhook-signature");
        byte[] body;
        try (exchange) {
            body = exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(204, -1);
        }
        arrivals.incrementAndGet();
        if (id == null) {
            badSignatures.incrementAndGet();
            return;
        }
        if (firstArrival.putIfAbsent(id, arrived) != null) {
            repeats.incrementAndGet();
        }
        if (!signed(id, timestamp, signature, body)) {
            badSignatures.incrementAndGet();
        }
    }

    /** True when one of the space-separated {@code v1,} signatures is the HMAC of {@code id.timestamp.body}. */
    private boolean signed(String id, String timestamp, String header, byte[] body) {
        if (timestamp == null || header == null) {
            return false;
        }
        Mac m = mac.get();
        m.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = m.doFinal(body);
        for (String sig : header.split(" ")) {
            if (sig.startsWith("v1,")) {
                try {
                    if (MessageDigest.isEqual(expected, Base64.getDecoder().decode(sig.substring(3)))) {
                        return true;
                    }
                } catch (IllegalArgumentException notBase64) {
                    // another signature may still match
                }
            }
        }
        return false;
    }

    static long epochMicros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }

    /** Epoch microseconds of the event's first arrival, or null. */
    Long arrival(String eventId) {
        return firstArrival.get(eventId);
    }

    long arrivals() {
        return arrivals.get();
    }

    /** Deliveries of an event that had already arrived (Standard Webhooks is at least once). */
    long repeats() {
        return repeats.get();
    }

    long badSignatures() {
        return badSignatures.get();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
