package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.PgBouncer;
import io.paynotify.testing.WechatV2Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 item 3 (docs/operations.md "PgBouncer"): two instances of the packaged application share one PgBouncer in
 * transaction pooling mode, 10 server connections for their 2 × 20 client connections; identical deliveries fired
 * at both at once are applied exactly once, counted in the database. The service's configuration differs from a
 * direct connection only as the docs say: {@code prepareThreshold=0}, the migrations datasource straight to
 * PostgreSQL (Flyway holds a session advisory lock), and the session options as role settings.
 */
class PgBouncerIT {

    static final Path LOGS = Path.of("target", "pgbouncer-it");
    static final Duration START = Duration.ofSeconds(120);
    static final String CHANNEL = "wx-pool";
    static final String APPID = "wxpool0000000001";
    static final String MCH = "10000950";
    static final int ORDERS = 30;
    static final int COPIES = 8;

    final String apiKey = HexFormat.of().formatHex(bytes(16));
    final String adminToken = HexFormat.of().formatHex(bytes(24));
    final String run = PackagedApp.runId();
    final HttpClient http = PackagedApp.httpClient(Duration.ofSeconds(5));
    final List<Process> processes = new ArrayList<>();
    String database;
    PgBouncer bouncer;

    byte[] bytes(int n) {
        return PackagedApp.randomBytes(n);
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            for (Process p : processes) {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            if (bouncer != null) {
                bouncer.close();
            }
        } finally {
            PackagedApp.dropDatabase(database);
        }
    }

    @Test
    void twoInstancesThroughPgBouncerApplyIdenticalConcurrentDeliveriesOnce() throws Exception {
        PackagedApp.requireArtifact();
        Files.createDirectories(LOGS);
        database = PackagedApp.freshDatabase();
        // the session options of application.properties, as role settings: PgBouncer drops the startup "options"
        PackagedApp.admin("ALTER ROLE postgres IN DATABASE " + database + " SET search_path = paynotify");
        PackagedApp.admin("ALTER ROLE postgres IN DATABASE " + database + " SET lock_timeout = 1000");
        PackagedApp.admin("ALTER ROLE postgres IN DATABASE " + database + " SET statement_timeout = 1500");
        PackagedApp.admin(
                "ALTER ROLE postgres IN DATABASE " + database + " SET idle_in_transaction_session_timeout = 10000");
        bouncer = PgBouncer.start(database, 10);

        int[] ports = {PackagedApp.freePort(), PackagedApp.freePort()};
        int[] management = {PackagedApp.freePort(), PackagedApp.freePort()};
        Path[] logs = new Path[2];
        for (int i = 0; i < 2; i++) {
            logs[i] = LOGS.resolve(run + "-instance-" + i + ".log");
            Process p = PackagedApp.start(config(ports[i], management[i]), List.of(), logs[i]);
            processes.add(p);
        }
        for (int i = 0; i < 2; i++) {
            PackagedApp.awaitReady(processes.get(i), management[i], START, logs[i]);
        }

        try (Connection c = DriverManager.getConnection(bouncer.jdbcUrl(database), props())) {
            assertEquals("1500ms", one(c, "SHOW statement_timeout"), "the role's settings reach pooled sessions");
            assertEquals("paynotify", one(c, "SHOW search_path"));
            for (int o = 0; o < ORDERS; o++) {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO orders (channel, out_trade_no, provider, amount_minor, currency,"
                            + " state, created_at, updated_at) VALUES ('" + CHANNEL + "', '" + no(o)
                            + "', 'WECHATPAY_V2', 100, 'CNY', 'PENDING', now(), now())");
                }
            }
        }

        // every copy of every order at once, half to each instance
        ExecutorService pool = Executors.newFixedThreadPool(48);
        var go = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        try {
            for (int o = 0; o < ORDERS; o++) {
                byte[] body = WechatV2Fixtures.payment(no(o), "4200" + no(o), 100)
                        .with("appid", APPID)
                        .with("mch_id", MCH)
                        .signedWith(apiKey, "MD5");
                for (int k = 0; k < COPIES; k++) {
                    int port = ports[k % 2];
                    answers.add(pool.submit(() -> {
                        go.await();
                        return http.send(
                                        HttpRequest.newBuilder(URI.create(
                                                        "http://127.0.0.1:" + port + "/notify/wechatpay/" + CHANNEL))
                                                .timeout(Duration.ofSeconds(20))
                                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode();
                    }));
                }
            }
            go.countDown();
            int ok = 0;
            for (Future<Integer> a : answers) {
                int status = a.get(60, TimeUnit.SECONDS);
                assertTrue(status == 200 || status == 503, "ack or retry later, got " + status);
                ok += status == 200 ? 1 : 0;
            }
            assertTrue(ok >= ORDERS, "acknowledged: " + ok + " of " + ORDERS * COPIES);
        } finally {
            pool.shutdownNow();
        }

        try (Connection c = DriverManager.getConnection(PackagedApp.jdbcUrl(database), "postgres", "")) {
            String q = "SELECT count(*) FROM paynotify.";
            assertEquals(
                    (long) ORDERS,
                    Long.parseLong(one(c, q + "orders WHERE state = 'SUCCESS' AND channel = '" + CHANNEL + "'")));
            assertEquals(
                    (long) ORDERS,
                    Long.parseLong(one(c, q + "notifications WHERE outcome = 'APPLIED'")),
                    "each order applied exactly once");
            assertEquals(
                    0L,
                    Long.parseLong(one(
                            c,
                            "SELECT count(*) FROM (SELECT out_trade_no FROM paynotify.notifications"
                                    + " WHERE outcome = 'APPLIED' GROUP BY out_trade_no HAVING count(*) > 1) twice")));
            assertEquals(
                    (long) ORDERS,
                    Long.parseLong(one(c, q + "events WHERE type = 'order.paid'")),
                    "one order.paid event per order");
            assertTrue(
                    Long.parseLong(one(
                                    c,
                                    "SELECT count(*) FROM pg_stat_activity WHERE datname = '" + database
                                            + "' AND application_name = 'paynotify'"))
                            <= 10,
                    "at most PgBouncer's pool of server connections");
        }
        for (Path log : logs) {
            String text = Files.readString(log);
            assertFalse(text.contains("prepared statement"), "no pooled-session error in " + log);
            assertFalse(text.contains("SQLState"), "no database error in " + log);
        }
    }

    static String no(int o) {
        return "PB" + String.format("%020d", o);
    }

    static java.util.Properties props() {
        var p = new java.util.Properties();
        p.setProperty("user", "postgres");
        p.setProperty("password", "");
        p.setProperty("prepareThreshold", "0");
        return p;
    }

    static String one(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    Map<String, String> config(int port, int managementPort) {
        var c = new LinkedHashMap<String, String>();
        c.putAll(PackagedApp.instanceConfig(bouncer.jdbcUrl(database), port, managementPort));
        // no named server-side statements: a pooled server connection is not the one that prepared them
        c.put("quarkus.datasource.jdbc.additional-jdbc-properties.prepareThreshold", "0");
        // Flyway's lock is a session advisory lock: migrations go straight to PostgreSQL
        c.put("quarkus.datasource.migrations.jdbc.url", PackagedApp.jdbcUrl(database));
        c.put("paynotify.channels.\"" + CHANNEL + "\".provider", "WECHATPAY_V2");
        c.put("paynotify.channels.\"" + CHANNEL + "\".app-id", APPID);
        c.put("paynotify.channels.\"" + CHANNEL + "\".mch-id", MCH);
        c.put("paynotify.channels.\"" + CHANNEL + "\".api-key", apiKey);
        c.put("paynotify.channels.\"" + CHANNEL + "\".sign-types", "MD5");
        c.put("paynotify.admin.tokens", adminToken);
        return c;
    }
}
