package io.paynotify.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
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
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cross-tenant rules of docs/api.md "Account modes" across two replicas: two processes of the packaged
 * application on one fresh database, a WeChat Pay v3 and a v2 service-provider channel, and identical concurrent
 * deliveries split between them — sub-merchant B's genuine payment of its order, sub-merchant A's genuine notices
 * naming B's order (same transaction id and amount: only the sub-merchant differs), A's own payment of its order, then
 * B's refund of its order beside A's naming it. Exactly once is counted in the database: one APPLIED payment and one
 * refund row per order, every cross-tenant row an {@code ACCOUNT_MISMATCH}, one event per change and per flag, and
 * no delivery of B's events to the client limited to sub-merchant A. {@code CrossTenantTest} covers the same rules
 * on one instance, Alipay ISV included.
 *
 * <p>A plain JUnit class like {@code events/KilledProcessIT} (it starts the processes itself, through
 * {@link PackagedApp}); every key is made for this run; the children's output goes to
 * {@code target/two-instances-it/}.
 */
class TwoInstancesCrossTenantIT {

    static final Path LOGS = Path.of("target", "two-instances-it");
    static final Duration START = Duration.ofSeconds(120);
    static final int EACH = 16;

    static final String V3 = "wx3-sp-it";
    static final String V3_APPID = "wxsp3it000000001";
    static final String V3_MCH = "1900000800";
    static final String V3_KEY_ID = "PUB_KEY_ID_0000000000000024101100397200000800";
    static final String V2 = "wx-sp-it";
    static final String V2_APPID = "wxspit0000000001";
    static final String V2_MCH = "10000800";
    static final String SUB_A = "1900000801";
    static final String SUB_B = "1900000802";
    static final String PLATFORM = "platform";
    static final String ONLY_A = "tenant-a";

    final String apiV3Key = HexFormat.of().formatHex(bytes(16)); // 32 characters
    final String apiKey = HexFormat.of().formatHex(bytes(16));
    final String platformSecret = Base64.getEncoder().encodeToString(bytes(32));
    final String tenantSecret = Base64.getEncoder().encodeToString(bytes(32));
    final String webhookSecret = "whsec_" + Base64.getEncoder().encodeToString(bytes(32));
    final String adminToken = HexFormat.of().formatHex(bytes(24));
    final String run = PackagedApp.runId();
    final HttpClient http = PackagedApp.httpClient(Duration.ofSeconds(5));
    final List<Process> processes = new ArrayList<>();

    String database;

    byte[] bytes(int n) {
        return PackagedApp.randomBytes(n);
    }

    @BeforeEach
    void freshDatabase() throws Exception {
        PackagedApp.requireArtifact();
        Files.createDirectories(LOGS);
        database = PackagedApp.freshDatabase();
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            for (Process p : processes) {
                p.destroyForcibly();
            }
            for (Process p : processes) {
                p.waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            PackagedApp.dropDatabase(database);
        }
    }

    @Test
    void crossTenantDeliveriesSplitAcrossTwoInstancesApplyExactlyOnceAndNeverAcrossTenants() throws Exception {
        long t0 = System.nanoTime();
        // both at once: Flyway's lock lets one migrate, the other waits for it
        CompletableFuture<Integer> startA = CompletableFuture.supplyAsync(() -> start("a"));
        CompletableFuture<Integer> startB = CompletableFuture.supplyAsync(() -> start("b"));
        int[] ports = {startA.get(START.toSeconds(), TimeUnit.SECONDS), startB.get(START.toSeconds(), TimeUnit.SECONDS)
        };
        long started = System.nanoTime();

        String v3B = order(ports[0], V3, SUB_B);
        String v3A = order(ports[1], V3, SUB_A);
        String v2B = order(ports[0], V2, SUB_B);
        String txn3 = txn();
        String txn3A = txn();
        String txn2 = txn();

        // ---- payments
        Kind genuine3 = new Kind("v3 B's own", v3(paidV3(v3B, txn3, SUB_B)), 204);
        Kind cross3 = new Kind("v3 A's naming B's order", v3(paidV3(v3B, txn3, SUB_A)), 422);
        Kind own3 = new Kind("v3 A's own", v3(paidV3(v3A, txn3A, SUB_A)), 204);
        Kind genuine2 = new Kind("v2 B's own", v2(paidV2(v2B, txn2, SUB_B)), 200);
        Kind cross2 = new Kind("v2 A's naming B's order", v2(paidV2(v2B, txn2, SUB_A)), 422);
        storm(ports, genuine3, cross3, own3, genuine2, cross2);

        assertDecided(genuine3, 1, "APPLIED", "DUPLICATE");
        assertDecided(cross3, 0, "ANOMALY ACCOUNT_MISMATCH");
        assertDecided(own3, 1, "APPLIED", "DUPLICATE");
        assertDecided(genuine2, 1, "APPLIED", "DUPLICATE");
        assertDecided(cross2, 0, "ANOMALY ACCOUNT_MISMATCH");
        assertOrder(V3, v3B, "SUCCESS", txn3, 0, "{ACCOUNT_MISMATCH}", Map.of("order.attention", 1L, "order.paid", 1L));
        assertOrder(V3, v3A, "SUCCESS", txn3A, 0, "{}", Map.of("order.paid", 1L));
        assertOrder(V2, v2B, "SUCCESS", txn2, 0, "{ACCOUNT_MISMATCH}", Map.of("order.attention", 1L, "order.paid", 1L));

        // ---- refunds of B's v3 order
        Kind refund = new Kind("v3 B's refund", v3(refundV3(v3B, txn3, SUB_B)), 204);
        Kind crossRefund = new Kind("v3 A's refund naming B's order", v3(refundV3(v3B, txn3, SUB_A)), 422);
        storm(ports, refund, crossRefund);

        assertDecided(refund, 1, "APPLIED", "DUPLICATE");
        assertDecided(crossRefund, 0, "ANOMALY ACCOUNT_MISMATCH");
        assertOrder(
                V3,
                v3B,
                "PARTIALLY_REFUNDED",
                txn3,
                40,
                "{ACCOUNT_MISMATCH}",
                Map.of("order.attention", 1L, "order.paid", 1L, "order.refunded", 1L));
        assertEquals(1, count("SELECT count(*) FROM refunds"), "one refund row in all");

        // the client limited to A: deliveries of A's order only, whichever instance wrote the event
        assertEquals(
                0,
                count(
                        "SELECT count(*) FROM deliveries d JOIN orders o ON o.id = d.order_id"
                                + " WHERE d.client_id = ? AND o.sub_merchant_id <> ?",
                        ONLY_A,
                        SUB_A));
        assertEquals(
                1,
                count(
                        "SELECT count(*) FROM deliveries d JOIN orders o ON o.id = d.order_id"
                                + " WHERE d.client_id = ? AND o.out_trade_no = ?",
                        ONLY_A,
                        v3A));
        System.out.printf(
                "[measure] two instances ready in %d ms, the storms and checks took %d ms%n",
                (started - t0) / 1_000_000, (System.nanoTime() - started) / 1_000_000);
    }

    // ---- the instances

    int start(String name) {
        try {
            int port = PackagedApp.freePort();
            int managementPort = PackagedApp.freePort();
            Path log = LOGS.resolve(run + "-instance-" + name + ".log");
            Process process = PackagedApp.start(config(port, managementPort), List.of(), log);
            synchronized (processes) {
                processes.add(process);
            }
            PackagedApp.awaitReady(process, managementPort, START, log);
            return port;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    Map<String, String> config(int port, int managementPort) {
        var c = new LinkedHashMap<String, String>();
        c.putAll(PackagedApp.instanceConfig(PackagedApp.jdbcUrl(database), port, managementPort));
        channel(c, V3, "provider", "WECHATPAY_V3");
        channel(c, V3, "mode", "partner");
        channel(c, V3, "app-id", V3_APPID);
        channel(c, V3, "mch-id", V3_MCH);
        channel(c, V3, "api-v3-key", apiV3Key);
        c.put(
                "paynotify.channels.\"" + V3 + "\".platform-keys.\"" + V3_KEY_ID + "\"",
                TestKeys.publicBase64(TestKeys.WECHAT_V3_PUBKEY));
        channel(c, V2, "provider", "WECHATPAY_V2");
        channel(c, V2, "mode", "partner");
        channel(c, V2, "app-id", V2_APPID);
        channel(c, V2, "mch-id", V2_MCH);
        channel(c, V2, "api-key", apiKey);
        channel(c, V2, "sign-types", "MD5");
        c.put("paynotify.clients.\"" + PLATFORM + "\".secret", platformSecret);
        c.put("paynotify.clients.\"" + PLATFORM + "\".channels", V3 + "," + V2);
        c.put("paynotify.clients.\"" + ONLY_A + "\".secret", tenantSecret);
        c.put("paynotify.clients.\"" + ONLY_A + "\".channels", V3 + "," + V2);
        c.put("paynotify.clients.\"" + ONLY_A + "\".sub-merchants", SUB_A);
        // nothing listens there: the deliveries are only counted
        c.put("paynotify.clients.\"" + ONLY_A + "\".webhook-url", "http://127.0.0.1:9/hooks");
        c.put("paynotify.clients.\"" + ONLY_A + "\".webhook-secret", webhookSecret);
        c.put("paynotify.webhooks.allow-loopback", "true");
        c.put("paynotify.admin.tokens", adminToken);
        return c;
    }

    static void channel(Map<String, String> c, String channel, String key, String value) {
        c.put("paynotify.channels.\"" + channel + "\"." + key, value);
    }

    /** A sub-merchant's order of 100 fen, created by the platform's client on that instance. */
    String order(int port, String channel, String subMerchantId) throws Exception {
        String no = "TI" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        var r = PackagedApp.merchantPost(
                http,
                port,
                PLATFORM,
                platformSecret,
                "/api/v1/orders",
                "{\"channel\":\"" + channel + "\",\"outTradeNo\":\"" + no + "\",\"amount\":100,\"subMerchantId\":\""
                        + subMerchantId + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return no;
    }

    // ---- the deliveries, as WeChat builds them, with this run's keys

    record Wire(String path, byte[] body, Map<String, String> headers) {}

    WechatV3Fixtures.Delivery sealedV3(String eventType, Map<String, Object> resource) {
        String nonce = WechatV3Fixtures.random(12);
        String ciphertext = WechatV3Fixtures.encrypt(
                apiV3Key.getBytes(StandardCharsets.UTF_8),
                nonce,
                "transaction",
                WechatV3Fixtures.json(resource).getBytes(StandardCharsets.UTF_8));
        String body = WechatV3Fixtures.json(WechatV3Fixtures.envelope(
                eventType, "支付成功", WechatV3Fixtures.resource(ciphertext, nonce, "transaction")));
        return WechatV3Fixtures.signed(
                body.getBytes(StandardCharsets.UTF_8),
                TestKeys.WECHAT_V3_PUBKEY,
                V3_KEY_ID,
                Instant.now().getEpochSecond());
    }

    WechatV3Fixtures.Delivery paidV3(String no, String txn, String sub) {
        Map<String, Object> r = WechatV3Fixtures.partnerTransaction(no, txn, 100, sub);
        r.put("sp_appid", V3_APPID);
        r.put("sp_mchid", V3_MCH);
        return sealedV3("TRANSACTION.SUCCESS", r);
    }

    WechatV3Fixtures.Delivery refundV3(String no, String txn, String sub) {
        Map<String, Object> r = WechatV3Fixtures.partnerRefund(no, txn, 100, 40, sub);
        r.put("sp_mchid", V3_MCH);
        return sealedV3("REFUND.SUCCESS", r);
    }

    byte[] paidV2(String no, String txn, String sub) {
        return WechatV2Fixtures.partnerPayment(no, txn, 100, sub)
                .with("appid", V2_APPID)
                .with("mch_id", V2_MCH)
                .signedWith(apiKey, "MD5");
    }

    static Wire v3(WechatV3Fixtures.Delivery d) {
        return new Wire("/notify/wechatpay-v3/" + V3, d.body(), d.headers());
    }

    static Wire v2(byte[] body) {
        return new Wire("/notify/wechatpay/" + V2, body, Map.of("Content-Type", "text/xml"));
    }

    /** One kind of identical delivery, its expected ack, the answers it got and the SHA-256 its rows carry. */
    static final class Kind {
        final String name;
        final Wire wire;
        final int ack;
        final byte[] sha256;
        final Map<Integer, Integer> answers = new TreeMap<>();

        Kind(String name, Wire wire, int ack) throws Exception {
            this.name = name;
            this.wire = wire;
            this.ack = ack;
            this.sha256 = MessageDigest.getInstance("SHA-256").digest(wire.body());
        }

        synchronized void answered(int status) {
            answers.merge(status, 1, Integer::sum);
        }

        synchronized int acks() {
            return answers.getOrDefault(ack, 0);
        }

        synchronized int sent() {
            return answers.values().stream().mapToInt(Integer::intValue).sum();
        }

        @Override
        public synchronized String toString() {
            return name + " " + answers;
        }
    }

    HttpRequest request(int port, Wire w) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + w.path()))
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofByteArray(w.body()));
        w.headers().forEach(b::header);
        return b.build();
    }

    /**
     * {@link #EACH} copies of every kind, interleaved, each copy to the other instance than the one before, released
     * together; every answer is the kind's ack or 503 (the admission limit of one replica, or the deadline). Then
     * each kind again, alternating instances, until it gets its ack, as a provider retries.
     */
    void storm(int[] ports, Kind... kinds) throws Exception {
        int total = EACH * kinds.length;
        ExecutorService pool = Executors.newFixedThreadPool(total);
        try {
            CountDownLatch ready = new CountDownLatch(total);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                Kind k = kinds[i % kinds.length];
                HttpRequest r = request(ports[(i / kinds.length) % 2], k.wire);
                answers.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
                }));
            }
            assertTrue(ready.await(30, TimeUnit.SECONDS));
            go.countDown();
            for (int i = 0; i < total; i++) {
                Kind k = kinds[i % kinds.length];
                int status = answers.get(i).get(60, TimeUnit.SECONDS);
                k.answered(status);
                assertTrue(status == k.ack || status == 503, k + ": " + status);
            }
        } finally {
            pool.shutdownNow();
        }
        for (Kind k : kinds) {
            int[] turn = {0};
            Awaitility.await(k.name + " answered with its ack")
                    .atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        int status = http.send(
                                        request(ports[turn[0]++ % 2], k.wire), HttpResponse.BodyHandlers.discarding())
                                .statusCode();
                        k.answered(status);
                        assertTrue(status == k.ack || status == 503, k + ": " + status);
                        return status == k.ack;
                    });
        }
        System.out.println("[measure] two-instance storm: " + List.of(kinds));
    }

    // ---- the database, directly

    /** Every acknowledged delivery recorded, none twice; exactly {@code applied} APPLIED rows; only these outcomes. */
    void assertDecided(Kind k, long applied, String... outcomes) throws SQLException {
        long rows = count("SELECT count(*) FROM notifications WHERE raw_body_sha256 = ?", k.sha256);
        assertTrue(rows >= k.acks() && rows <= k.sent(), k + ": " + rows + " rows");
        assertEquals(
                applied,
                count("SELECT count(*) FROM notifications WHERE raw_body_sha256 = ? AND outcome = 'APPLIED'", k.sha256),
                k + ": APPLIED rows");
        long expected = 0;
        for (String o : outcomes) {
            String[] parts = o.split(" ");
            expected += parts.length == 1
                    ? count(
                            "SELECT count(*) FROM notifications WHERE raw_body_sha256 = ? AND outcome = ?"
                                    + " AND reason IS NULL",
                            k.sha256,
                            parts[0])
                    : count(
                            "SELECT count(*) FROM notifications WHERE raw_body_sha256 = ? AND outcome = ?"
                                    + " AND reason = ?",
                            k.sha256,
                            parts[0],
                            parts[1]);
        }
        assertEquals(rows, expected, k + ": every row one of " + List.of(outcomes));
    }

    void assertOrder(
            String channel,
            String no,
            String state,
            String txn,
            long refunded,
            String attention,
            Map<String, Long> events)
            throws SQLException {
        Map<String, Object> o = row(
                "SELECT id, state, transaction_id, refunded_minor, attention::text AS attention FROM orders"
                        + " WHERE channel = ? AND out_trade_no = ?",
                channel,
                no);
        assertEquals(state, o.get("state"), no);
        assertEquals(txn, o.get("transaction_id"), no);
        assertEquals(refunded, ((Number) o.get("refunded_minor")).longValue(), no);
        assertEquals(attention, o.get("attention"), no);
        var byType = new TreeMap<String, Long>();
        for (String type : List.of("order.paid", "order.closed", "order.refunded", "order.attention")) {
            long n = count("SELECT count(*) FROM events WHERE order_id = ? AND type = ?", o.get("id"), type);
            if (n > 0) {
                byType.put(type, n);
            }
        }
        assertEquals(new TreeMap<>(events), byType, no + ": its events");
    }

    long count(String sql, Object... args) throws SQLException {
        return ((Number) row(sql, args).values().iterator().next()).longValue();
    }

    Map<String, Object> row(String sql, Object... args) throws SQLException {
        String url = PackagedApp.jdbcUrl(database) + "?options=-c%20search_path%3Dpaynotify";
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
                return row;
            }
        }
    }

    /** Unique, digits, 28 long. */
    static String txn() {
        return "4200" + String.format("%024d", UUID.randomUUID().getMostSignificantBits() & Long.MAX_VALUE);
    }
}
