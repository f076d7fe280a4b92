package io.paynotify.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.WechatV2Fixtures;
import java.io.IOException;
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
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md "Lists, filters and pagination": one captured v2 notice, padded to 60 KiB with XML comments (which
 * its signature ignores) and replayed up to the per-order cap of 500, cannot fill the packaged application's
 * production heap ({@code -Xmx128m}) when an operator reads it back, nor store the same bytes twice.
 *
 * <p>The packaged application ({@code target/quarkus-app/quarkus-run.jar}) runs as a child process with
 * {@code -Xmx128m -XX:+ExitOnOutOfMemoryError} on a fresh database of its own (dropped at the end), as
 * {@code events/KilledProcessIT} starts it; its output and its GC log go to {@code target/padded-replays-it/}. The
 * test sends 500 genuine replays of one paid order's notice, 250 different paddings each twice, four at a time
 * (a 503 of the per-order admission is answered by sending again), then walks both notification lists with
 * {@code limit=500} and checks that every recorded delivery comes back with its exact body, and that the database
 * holds each distinct body once.
 */
class PaddedReplaysIT {

    static final Path LOGS = Path.of("target", "padded-replays-it");
    static final Duration START = Duration.ofSeconds(120);

    static final String CHANNEL = "wx-pad";
    static final String APPID = "wxpad00000000001";
    static final String MCH = "10000901";
    static final String CLIENT = "pad-shop";

    static final String OLD_CHANNEL = "wx-old";
    static final int OLD_ROWS = 2_000;

    static final int REPLAYS = 500;
    static final int PADDINGS = 250;
    static final int BODY_BYTES = 60 * 1024;
    static final int SENDERS = 4;
    static final int READERS = 4;

    // every secret is made for this run: none is committed
    final String apiKey = HexFormat.of().formatHex(bytes(16)); // 32 characters
    final String clientSecret = Base64.getEncoder().encodeToString(bytes(32));
    final String adminToken = HexFormat.of().formatHex(bytes(24));
    final String run = PackagedApp.runId();
    final HttpClient http = PackagedApp.httpClient(Duration.ofSeconds(5));
    final ObjectMapper json = new ObjectMapper();

    String database;
    Process process;
    Path log;
    Path gcLog;
    int port;

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
            PackagedApp.stop(process);
        } finally {
            PackagedApp.dropDatabase(database);
        }
    }

    @Test
    void fiveHundredPaddedReplaysAreReadBackWithinTheProductionHeapAndStoredOnce() throws Exception {
        // the instance migrates a database that already holds notifications written before V10
        migrateTo("8");
        update("INSERT INTO notifications (channel, provider, out_trade_no, provider_status, outcome, raw_body,"
                + " received_at) SELECT '" + OLD_CHANNEL
                + "', 'WECHATPAY_V2', 'OLD' || (g % 2), 'SUCCESS', 'DUPLICATE',"
                + " convert_to('<xml>' || g || repeat('o', 1000) || '</xml>', 'UTF8'), now()"
                + " FROM generate_series(1, " + OLD_ROWS + ") g");
        start();
        Walk old = walk("/admin/orders/" + OLD_CHANNEL + "/OLD1/notifications?limit=500");
        assertEquals(OLD_ROWS / 2, old.bodies().size());
        for (int i = 0; i < old.bodies().size(); i++) {
            String body = old.bodies().get(i);
            assertTrue(body.startsWith("<xml>") && body.endsWith("o</xml>"), "an older row shows its body");
        }
        String no = "PR" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        var created = merchantPost(
                "/api/v1/orders", "{\"channel\":\"" + CHANNEL + "\",\"outTradeNo\":\"" + no + "\",\"amount\":100}");
        assertEquals(201, created.statusCode(), created.body());

        // one genuine notice, signed once; each padding is an XML comment, which the signature does not cover
        String signed = new String(
                WechatV2Fixtures.payment(no, "4200" + no, 100)
                        .with("appid", APPID)
                        .with("mch_id", MCH)
                        .signedWith(apiKey, "MD5"),
                StandardCharsets.UTF_8);
        List<byte[]> paddings = new ArrayList<>();
        for (int k = 0; k < PADDINGS; k++) {
            paddings.add(padded(signed, k));
        }
        Map<String, Integer> variantOf = new HashMap<>();
        for (int k = 0; k < PADDINGS; k++) {
            variantOf.put(new String(paddings.get(k), StandardCharsets.UTF_8), k);
        }

        Instant sending = Instant.now();
        AtomicInteger busy = new AtomicInteger();
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        try {
            var sent = new ArrayList<Future<Integer>>();
            for (int i = 0; i < REPLAYS; i++) {
                // variant i % 250: the second copy of each body arrives 250 deliveries after the first
                byte[] body = paddings.get(i % PADDINGS);
                sent.add(senders.submit(() -> deliver(body, busy)));
            }
            for (Future<Integer> f : sent) {
                assertEquals(200, f.get(120, TimeUnit.SECONDS), "every replay is acknowledged in the end");
            }
        } finally {
            senders.shutdownNow();
        }
        long sendMillis = Duration.between(sending, Instant.now()).toMillis();
        assertEquals(REPLAYS, count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", no));
        assertEquals(1, count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));

        // both lists with limit=500, each walked by two operators at once, followed to their ends
        String historyPath = "/admin/orders/" + CHANNEL + "/" + no + "/notifications?limit=500";
        String listPath = "/admin/notifications?channel=" + CHANNEL + "&limit=500";
        Instant reading = Instant.now();
        ExecutorService readers = Executors.newFixedThreadPool(READERS);
        var walks = new ArrayList<Future<Walk>>();
        for (int r = 0; r < READERS; r++) {
            String path = r % 2 == 0 ? historyPath : listPath;
            walks.add(readers.submit(() -> walk(path)));
        }
        ExecutionException failed = null;
        try {
            for (Future<Walk> w : walks) {
                w.get(120, TimeUnit.SECONDS);
            }
        } catch (ExecutionException e) {
            failed = e;
        } finally {
            readers.shutdownNow();
        }
        long readMillis = Duration.between(reading, Instant.now()).toMillis();
        // -XX:+ExitOnOutOfMemoryError: the instance logs the error and exits, and the reads fail
        assertFalse(Files.readString(log).contains("OutOfMemoryError"), "the instance ran out of heap, see " + log);
        assertTrue(process.isAlive(), "the instance is still running, see " + log);
        if (failed != null) {
            throw new AssertionError("a walk failed", failed.getCause());
        }

        int pages = 0;
        long largest = 0;
        for (int r = 0; r < READERS; r++) {
            Walk w = walks.get(r).get();
            assertEquals(REPLAYS, w.bodies().size(), "every recorded delivery is listed once");
            assertTrue(w.pages() > 1, "500 bodies of 60 KiB do not fit one page");
            var counts = new HashMap<Integer, Integer>();
            for (String body : w.bodies()) {
                Integer k = variantOf.get(body);
                assertNotNull(k, "every row comes back with one of the bodies sent, byte for byte");
                counts.merge(k, 1, Integer::sum);
            }
            assertEquals(PADDINGS, counts.size(), "every distinct body is shown");
            assertTrue(counts.values().stream().allMatch(c -> c == 2), "each body on both of its rows: " + counts);
            List<Long> ids = new ArrayList<>(w.ids());
            if (r % 2 == 1) {
                Collections.reverse(ids);
            }
            assertTrue(isAscending(ids), "the history is oldest first, the list newest first");
            pages = w.pages();
            largest = Math.max(largest, w.largestPage());
        }

        assertEquals(
                1,
                count("SELECT count(*) FROM flyway_schema_history WHERE version = '10' AND success"),
                "V10 applied on a table holding data");
        // the bytes: each distinct body once, every other row pointing at the row that holds it
        assertEquals(
                PADDINGS,
                count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND raw_body IS NOT NULL", no),
                "each of the 250 distinct bodies is stored once");
        assertEquals(
                PADDINGS,
                count("SELECT count(DISTINCT raw_body_sha256) FROM notifications WHERE out_trade_no = ?", no));
        assertEquals(
                0,
                count(
                        "SELECT count(*) FROM notifications n JOIN notifications b ON b.id = n.body_id"
                                + " WHERE n.out_trade_no = ? AND (b.raw_body IS NULL OR b.out_trade_no <> n.out_trade_no"
                                + " OR b.raw_body_sha256 <> n.raw_body_sha256 OR b.id > n.id)",
                        no),
                "a row without bytes points at an earlier row of the same order holding the same bytes");
        long storedBytes = count("SELECT sum(octet_length(raw_body)) FROM notifications WHERE out_trade_no = ?", no);
        assertEquals((long) PADDINGS * BODY_BYTES, storedBytes);

        System.out.println("[measure] " + REPLAYS + " replays of " + BODY_BYTES + " bytes (" + PADDINGS
                + " distinct) sent in " + sendMillis + " ms (" + busy.get() + " answered 503 and sent again); "
                + READERS + " walks of both lists at once in " + readMillis + " ms, " + pages
                + " pages each, the largest " + largest + " bytes; raw bodies stored " + storedBytes
                + " bytes, notifications table "
                + count("SELECT pg_total_relation_size('notifications')") + " bytes; " + heapPeak());
    }

    /** The signed notice with a comment of {@link #BODY_BYTES} in all before {@code </xml>}, its letters from k. */
    static byte[] padded(String signed, int k) {
        String head = signed.substring(0, signed.length() - "</xml>".length());
        var sb = new StringBuilder(BODY_BYTES)
                .append(head)
                .append("<!-- ")
                .append(k)
                .append(' ');
        Random letters = new Random(k);
        int fill = BODY_BYTES - sb.length() - " --></xml>".length();
        for (int i = 0; i < fill; i++) {
            // letters only: never "--", and as little compressible as an attacker would choose
            sb.append((char) ('a' + letters.nextInt(26)));
        }
        byte[] body = sb.append(" --></xml>").toString().getBytes(StandardCharsets.US_ASCII);
        assertEquals(BODY_BYTES, body.length);
        return body;
    }

    /** One delivery, sent again after each 503 (the per-order admission) as the provider would; its last status. */
    int deliver(byte[] body, AtomicInteger busy) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/notify/wechatpay/" + CHANNEL))
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 503 || attempt == 100) {
                assertTrue(r.body().contains("SUCCESS"), r.body());
                return r.statusCode();
            }
            busy.incrementAndGet();
        }
    }

    /** What a walk of one list saw: each item's id and rawBody, in order, and its pages. */
    record Walk(List<Long> ids, List<String> bodies, int pages, long largestPage) {}

    /** Follows {@code next} to the end of a list; every item must have its rawBody. */
    Walk walk(String first) throws Exception {
        var ids = new ArrayList<Long>();
        var bodies = new ArrayList<String>();
        int pages = 0;
        long largest = 0;
        String after = null;
        do {
            String url = "http://127.0.0.1:" + port + first + (after == null ? "" : "&after=" + after);
            HttpResponse<byte[]> r = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(30))
                            .header("Authorization", "Bearer " + adminToken)
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, r.statusCode(), () -> new String(r.body(), StandardCharsets.UTF_8));
            pages++;
            largest = Math.max(largest, r.body().length);
            JsonNode page = json.readTree(r.body());
            for (JsonNode item : page.get("items")) {
                ids.add(item.get("id").asLong());
                assertTrue(item.get("rawBody").isTextual(), "a valid UTF-8 body is shown as rawBody");
                assertTrue(item.get("rawBodyBase64").isNull());
                bodies.add(item.get("rawBody").asText());
            }
            after = page.get("next").isNull() ? null : page.get("next").asText();
            assertTrue(pages <= REPLAYS, "the walk ends");
        } while (after != null);
        return new Walk(ids, bodies, pages, largest);
    }

    static boolean isAscending(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i) <= ids.get(i - 1)) {
                return false;
            }
        }
        return true;
    }

    /**
     * From the GC log: the heap's largest use, and the largest left after a collection that reclaims the old
     * generation too (G1's remark, mixed and full collections: young ones leave promoted garbage behind), an upper
     * bound of what was live.
     */
    String heapPeak() throws IOException {
        if (gcLog == null || !Files.isRegularFile(gcLog)) {
            return "no GC log";
        }
        Pattern sizes = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
        int used = 0;
        int live = 0;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = sizes.matcher(line);
            if (m.find()) {
                used = Math.max(used, Integer.parseInt(m.group(1)));
                if (line.contains("Remark") || line.contains("Mixed") || line.contains("Full")) {
                    live = Math.max(live, Integer.parseInt(m.group(2)));
                }
            }
        }
        return "heap used at most " + used + " MiB, at most " + live + " MiB after a remark, mixed or full collection";
    }

    // ---- the instance ----

    /** Starts the packaged application with the production heap and waits until it is ready. */
    void start() throws Exception {
        port = PackagedApp.freePort();
        int managementPort = PackagedApp.freePort();
        log = LOGS.resolve(run + "-instance.log");
        gcLog = LOGS.resolve(run + "-gc.log");
        var jvm = List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + gcLog.toAbsolutePath());
        process = PackagedApp.start(config(port, managementPort), jvm, log);
        PackagedApp.awaitReady(process, managementPort, START, log);
    }

    /** The instance's configuration, as -D system properties: only what this test needs. */
    Map<String, String> config(int port, int managementPort) {
        var c = new LinkedHashMap<String, String>();
        c.put("quarkus.datasource.jdbc.url", PackagedApp.jdbcUrl(database));
        c.put("quarkus.http.host", "127.0.0.1");
        c.put("quarkus.http.port", Integer.toString(port));
        c.put("quarkus.management.host", "127.0.0.1");
        c.put("quarkus.management.port", Integer.toString(managementPort));
        c.put("quarkus.log.console.json.enabled", "false");
        c.put("paynotify.channels.\"" + CHANNEL + "\".provider", "WECHATPAY_V2");
        c.put("paynotify.channels.\"" + CHANNEL + "\".app-id", APPID);
        c.put("paynotify.channels.\"" + CHANNEL + "\".mch-id", MCH);
        c.put("paynotify.channels.\"" + CHANNEL + "\".api-key", apiKey);
        c.put("paynotify.channels.\"" + CHANNEL + "\".sign-types", "MD5");
        c.put("paynotify.clients.\"" + CLIENT + "\".secret", clientSecret);
        c.put("paynotify.clients.\"" + CLIENT + "\".channels", CHANNEL);
        c.put("paynotify.admin.tokens", adminToken);
        return c;
    }

    /** A signed merchant API POST (docs/api.md "Signing a request"). */
    HttpResponse<String> merchantPost(String path, String body) throws Exception {
        return PackagedApp.merchantPost(http, port, CLIENT, clientSecret, path, body);
    }

    // ---- the database, directly ----

    /** Migrates this test's database as the service would, up to that version only. */
    void migrateTo(String version) {
        Flyway.configure()
                .dataSource(PackagedApp.jdbcUrl(database), "postgres", "")
                .schemas("paynotify")
                .createSchemas(true)
                .locations("classpath:db/migration")
                .target(MigrationVersion.fromVersion(version))
                .load()
                .migrate();
    }

    void update(String sql) throws SQLException {
        String url = PackagedApp.jdbcUrl(database) + "?options=-c%20search_path%3Dpaynotify";
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    /** The one number a query answers, in the paynotify schema of this test's database. */
    long count(String sql, Object... args) throws SQLException {
        String url = PackagedApp.jdbcUrl(database) + "?options=-c%20search_path%3Dpaynotify";
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row for " + sql);
                return rs.getLong(1);
            }
        }
    }
}
