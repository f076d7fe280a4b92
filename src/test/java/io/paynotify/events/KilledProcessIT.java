package io.paynotify.events;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.standardwebhooks.Webhook;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.WechatV2Fixtures;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md "Webhooks": a dead replica's work resumes elsewhere, with a real {@code kill -9}: instance A of the packaged
 * application ({@code target/quarkus-app/quarkus-run.jar}) is SIGKILLed while its webhook attempt hangs at the
 * merchant, so the attempt's result is never recorded; instance B, started afterwards on the same database,
 * delivers the same event (same {@code webhook-id}, same bytes, a valid signature) once A's lease
 * ({@code paynotify.webhooks.lease=3s}) has lapsed, and the delivery ends {@code SUCCEEDED}.
 * {@code WebhookDeliveryTest.aReplicaKilledInTheMiddleOfADeliveryLosesNothing} simulates the same crash in one JVM.
 *
 * <p>A plain JUnit class, not a {@code @QuarkusIntegrationTest}: that starts one application per test class and
 * gives the test no handle on its process, to kill it, nor a second instance. This class starts both instances
 * itself, as child processes, against its own fresh database (dropped at the end) and its own webhook receiver; each
 * child's output goes to a file under {@code target/killed-process-it/}. Failsafe runs it in {@code mvn verify},
 * after packaging; it needs PostgreSQL on 127.0.0.1:5432 (trust auth, user postgres), like the Quarkus tests.
 */
class KilledProcessIT {

    static final Path LOGS = Path.of("target", "killed-process-it");

    /** A JVM start with Flyway on a small, busy CI machine takes 10 to 15 s; far more means something is wrong. */
    static final Duration START = Duration.ofSeconds(120);
    /** Ample for one attempt: the first within 1 s of the commit, the second once a 3 s lease has lapsed. */
    static final Duration PATIENCE = Duration.ofSeconds(60);

    static final String CHANNEL = "wx-kill";
    static final String APPID = "wxkill0000000001";
    static final String MCH = "10000900";
    static final String CLIENT = "kill-shop";

    // every secret is made for this run: none is committed
    final String apiKey = HexFormat.of().formatHex(bytes(16)); // 32 characters
    final String clientSecret = Base64.getEncoder().encodeToString(bytes(32));
    final String webhookSecret = "whsec_" + Base64.getEncoder().encodeToString(bytes(32));
    final String adminToken = HexFormat.of().formatHex(bytes(24));
    final String run = PackagedApp.runId();
    final HttpClient http = PackagedApp.httpClient(Duration.ofSeconds(5));
    final List<Instance> instances = new ArrayList<>();

    String database;
    Receiver receiver;

    byte[] bytes(int n) {
        return PackagedApp.randomBytes(n);
    }

    @BeforeEach
    void freshDatabaseAndReceiver() throws Exception {
        PackagedApp.requireArtifact();
        Files.createDirectories(LOGS);
        database = PackagedApp.freshDatabase();
        receiver = new Receiver();
    }

    @AfterEach
    void cleanUp() throws Exception {
        // each step runs even when the one before failed
        try {
            for (Instance i : instances) {
                i.process.destroyForcibly();
            }
            for (Instance i : instances) {
                i.process.waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            try {
                if (receiver != null) {
                    receiver.close();
                }
            } finally {
                PackagedApp.dropDatabase(database);
            }
        }
    }

    @Test
    void anInstanceKilledInTheMiddleOfADeliveryLosesNothing() throws Exception {
        Instance a = start("a");
        String no = "KP" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        var created = merchantPost(
                a, "/api/v1/orders", "{\"channel\":\"" + CHANNEL + "\",\"outTradeNo\":\"" + no + "\",\"amount\":100}");
        assertEquals(201, created.statusCode(), created.body());
        var paid = notify(a, no, 100);
        assertEquals(200, paid.statusCode(), paid.body());
        assertTrue(paid.body().contains("SUCCESS"), paid.body());

        String id = (String) row("SELECT event_id FROM events WHERE out_trade_no = ? AND type = 'order.paid'", no)
                .get("event_id");
        // the first attempt reaches the merchant and hangs there: A holds the lease and waits for the answer
        Received first = awaitAttempts(id, 1).get(0);
        Map<String, Object> claimed = delivery(id);
        assertEquals("PENDING", claimed.get("state"));
        assertNotNull(claimed.get("lease_until"), "A holds the delivery's lease while its attempt is in flight");

        // kill -9: Process.destroyForcibly() is SIGKILL on Linux, and a JVM killed by signal 9 exits with 128 + 9
        Instant killed = Instant.now();
        a.process.destroyForcibly();
        assertTrue(a.process.waitFor(30, TimeUnit.SECONDS), "A exits after SIGKILL");
        assertEquals(137, a.process.exitValue(), "A died of SIGKILL, not of a shutdown of its own");
        Map<String, Object> orphaned = delivery(id);
        assertEquals("PENDING", orphaned.get("state"));
        assertEquals(0, ((Number) orphaned.get("attempts")).intValue(), "A's attempt was never recorded");
        assertEquals(0, count("SELECT count(*) FROM delivery_attempts"));

        Instance b = start("b");
        // after A's lease lapsed B attempts the delivery again: the same event, byte for byte, signed
        Received again = awaitAttempts(id, 2).get(1);
        System.out.println("[measure] redelivered "
                + Duration.between(killed, again.at()).toMillis() + " ms after the kill (B's readiness seen "
                + Duration.between(killed, b.ready).toMillis() + " ms after it)");
        assertEquals(id, again.header("webhook-id"));
        assertArrayEquals(first.body(), again.body(), "the body is byte-identical on every attempt");
        assertEquals("application/json", again.header("content-type"));
        for (Received r : List.of(first, again)) {
            assertDoesNotThrow(() -> new Webhook(webhookSecret).verify(r.text(), r.webhookHeaders()));
        }
        JsonPath event = new JsonPath(again.text());
        assertEquals(id, event.getString("id"));
        assertEquals("order.paid", event.getString("type"));
        assertEquals(no, event.getString("data.order.outTradeNo"));
        assertEquals("SUCCESS", event.getString("data.order.state"));

        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> "SUCCEEDED".equals(delivery(id).get("state")));
        Map<String, Object> done = delivery(id);
        assertEquals(204, done.get("last_status"));
        assertEquals(1, ((Number) done.get("attempts")).intValue(), "only B's attempt has a recorded result");
        assertEquals(1, count("SELECT count(*) FROM events"), "the payment wrote one event, whoever delivered it");
        assertEquals(1, count("SELECT count(*) FROM deliveries"));
        assertEquals(2, receiver.attempts(id).size(), "at least once: A's lost attempt and B's, nothing more");
    }

    // ---- the instances ----

    /** One running instance of the packaged application. */
    record Instance(String name, Process process, int port, int managementPort, Instant ready) {}

    /** Starts the packaged application ({@link PackagedApp}); waits until it is ready (migrated, database up). */
    Instance start(String name) throws Exception {
        int port = PackagedApp.freePort();
        int managementPort = PackagedApp.freePort();
        Path log = LOGS.resolve(run + "-instance-" + name + ".log");
        Process process = PackagedApp.start(config(port, managementPort), List.of(), log);
        // registered at once, so that clean-up kills it even if it never becomes ready
        instances.add(new Instance(name, process, port, managementPort, null));
        PackagedApp.awaitReady(process, managementPort, START, log);
        return new Instance(name, process, port, managementPort, Instant.now());
    }

    /** The configuration of both instances, as -D system properties: only what this test needs. */
    Map<String, String> config(int port, int managementPort) {
        var c = new LinkedHashMap<String, String>();
        c.putAll(PackagedApp.instanceConfig(PackagedApp.jdbcUrl(database), port, managementPort));
        c.put("paynotify.channels.\"" + CHANNEL + "\".provider", "WECHATPAY_V2");
        c.put("paynotify.channels.\"" + CHANNEL + "\".app-id", APPID);
        c.put("paynotify.channels.\"" + CHANNEL + "\".mch-id", MCH);
        c.put("paynotify.channels.\"" + CHANNEL + "\".api-key", apiKey);
        c.put("paynotify.channels.\"" + CHANNEL + "\".sign-types", "MD5");
        c.put("paynotify.clients.\"" + CLIENT + "\".secret", clientSecret);
        c.put("paynotify.clients.\"" + CLIENT + "\".channels", CHANNEL);
        c.put("paynotify.clients.\"" + CLIENT + "\".webhook-url", receiver.url());
        c.put("paynotify.clients.\"" + CLIENT + "\".webhook-secret", webhookSecret);
        c.put("paynotify.webhooks.allow-loopback", "true");
        c.put("paynotify.webhooks.lease", "3s");
        c.put("paynotify.admin.tokens", adminToken);
        return c;
    }

    /** A signed merchant API POST (docs/api.md "Signing a request") to that instance. */
    HttpResponse<String> merchantPost(Instance to, String path, String json) throws Exception {
        return PackagedApp.merchantPost(http, to.port(), CLIENT, clientSecret, path, json);
    }

    /** A correctly signed WeChat Pay v2 payment notice for that order, to that instance. */
    HttpResponse<String> notify(Instance to, String no, long amount) throws Exception {
        byte[] body = WechatV2Fixtures.payment(no, "4200" + no, amount)
                .with("appid", APPID)
                .with("mch_id", MCH)
                .signedWith(apiKey, "MD5");
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + "/notify/wechatpay/" + CHANNEL))
                        .timeout(Duration.ofSeconds(20))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    List<Received> awaitAttempts(String eventId, int n) {
        return await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> receiver.attempts(eventId), l -> l.size() >= n);
    }

    // ---- the merchant's webhook endpoint ----

    /** One webhook attempt as received. */
    record Received(Map<String, String> headers, byte[] body, Instant at) {
        String header(String name) {
            return headers.get(name);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        Map<String, List<String>> webhookHeaders() {
            return Map.of(
                    "webhook-id", List.of(header("webhook-id")),
                    "webhook-timestamp", List.of(header("webhook-timestamp")),
                    "webhook-signature", List.of(header("webhook-signature")));
        }
    }

    /**
     * A merchant endpoint on 127.0.0.1 that records every attempt; the first attempt of each event hangs (no answer
     * until {@link #close()}), every later one gets 204.
     */
    static final class Receiver implements AutoCloseable {
        private final HttpServer server;
        private final List<Received> received = new CopyOnWriteArrayList<>();
        private final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        private final CountDownLatch release = new CountDownLatch(1);

        Receiver() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            server.setExecutor(Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "killed-process-it-receiver");
                t.setDaemon(true);
                return t;
            }));
            server.createContext("/", this::handle);
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
        }

        List<Received> attempts(String eventId) {
            return received.stream()
                    .filter(r -> eventId.equals(r.header("webhook-id")))
                    .toList();
        }

        private void handle(HttpExchange ex) throws IOException {
            try (ex) {
                byte[] body = ex.getRequestBody().readAllBytes();
                var headers = new ConcurrentHashMap<String, String>();
                ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
                String id = headers.getOrDefault("webhook-id", "");
                boolean first =
                        seen.computeIfAbsent(id, k -> new AtomicInteger()).getAndIncrement() == 0;
                received.add(new Received(Map.copyOf(headers), body, Instant.now()));
                if (first) {
                    // the merchant never answers: the sender is killed while it waits
                    release.await();
                }
                ex.sendResponseHeaders(204, -1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException senderGone) {
                // the hung attempt's connection died with its sender
            }
        }

        @Override
        public void close() {
            release.countDown();
            server.stop(0);
        }
    }

    // ---- the database, directly ----

    Map<String, Object> delivery(String eventId) throws SQLException {
        return row(
                "SELECT d.state, d.attempts, d.last_status, d.lease_until FROM deliveries d"
                        + " JOIN events e ON e.id = d.event_id WHERE e.event_id = ? AND d.client_id = ?",
                eventId,
                CLIENT);
    }

    long count(String sql) throws SQLException {
        return ((Number) row(sql).values().iterator().next()).longValue();
    }

    /** The one row of a query, in the paynotify schema of this test's database. */
    Map<String, Object> row(String sql, Object... args) throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:5432/" + database + "?options=-c%20search_path%3Dpaynotify";
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row for " + sql);
                var row = new LinkedHashMap<String, Object>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                }
                assertFalse(rs.next(), "more than one row for " + sql);
                return row;
            }
        }
    }
}
