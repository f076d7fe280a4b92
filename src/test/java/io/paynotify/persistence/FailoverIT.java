package io.paynotify.persistence;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.PostgresPair;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 item 2 (docs/operations.md "Failover"): a primary with a synchronous standby on this machine, the packaged
 * service given both hosts ({@code targetServerType=primary}), notifications of the three providers sent
 * continuously, the primary SIGKILLed mid-load and the standby promoted 2 s later. Every notification acknowledged
 * before, during or after is applied exactly once on the new primary, none acknowledged is missing, the same process
 * recovers within {@link #RECOVERY}, and readiness says "not ready" while there is no primary. The figures are
 * printed ({@code FAILOVER acknowledged=… applied=… lost=… recovery=…ms}).
 */
class FailoverIT {

    static final Path LOGS = Path.of("target", "failover-it");
    static final Duration START = Duration.ofSeconds(90);
    /** From the promotion to the first acknowledgement written on the new primary. */
    static final Duration RECOVERY = Duration.ofSeconds(15);

    static final String DB = "paynotify";
    static final int SENDERS = 6;
    static final int ORDERS_PER_CHANNEL = 3000;
    static final List<String> CHANNELS = List.of(TestChannels.WX, TestChannels.WX3, TestChannels.ALI);

    final String run = System.currentTimeMillis() + "_"
            + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 20));
    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    PostgresPair pair;
    Process service;

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (service != null) {
                service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            if (pair != null) {
                pair.close();
            }
        }
    }

    @Test
    void aFailoverLosesNothingAcknowledged() throws Exception {
        PackagedApp.requireArtifact();
        Files.createDirectories(LOGS);
        pair = PostgresPair.start();
        pair.execute(pair.primaryPort, "postgres", "CREATE DATABASE " + DB);

        int port = PackagedApp.freePort();
        int management = PackagedApp.freePort();
        Path log = LOGS.resolve(run + "-instance.log");
        service = PackagedApp.start(config(port, management), List.of(), log);
        PackagedApp.awaitReady(service, management, START, log);
        assertEquals("0.0", AsyncStandbyIT.gauge(management), "a synchronous standby: no warning");
        try (Connection c = DriverManager.getConnection(PostgresPair.url(pair.primaryPort, DB), "postgres", "");
                Statement s = c.createStatement()) {
            for (String channel : CHANNELS) {
                s.executeUpdate("INSERT INTO paynotify.orders (channel, out_trade_no, provider, amount_minor, currency,"
                        + " state, created_at, updated_at) SELECT '" + channel + "', 'FO' || lpad(g::text, 20, '0'), '"
                        + provider(channel) + "', 100, 'CNY', 'PENDING', now(), now()"
                        + " FROM generate_series(1, " + ORDERS_PER_CHANNEL + ") g");
            }
        }

        // readiness, every 100 ms, with the time of each answer
        var readiness = new CopyOnWriteArrayList<long[]>();
        var stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(SENDERS + 1);
        pool.submit(() -> {
            while (!stop.get()) {
                long asked = System.nanoTime();
                int status = ready(management);
                readiness.add(new long[] {asked, status, System.nanoTime()}); // asked, status, answered
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // the probe's period, as a kubelet's
            }
            return null;
        });

        // senders: each takes the next order and sends its notice until it is acknowledged, like a provider
        var next = new AtomicInteger();
        Map<String, Long> acked = new ConcurrentHashMap<>(); // channel|no -> when (nanoTime)
        Set<String> sent = ConcurrentHashMap.newKeySet();
        List<Future<?>> senders = new ArrayList<>();
        for (int t = 0; t < SENDERS; t++) {
            senders.add(pool.submit(() -> {
                while (!stop.get()) {
                    int i = next.getAndIncrement();
                    String channel = CHANNELS.get(i % 3);
                    String no = "FO" + String.format("%020d", i / 3 + 1);
                    sent.add(channel + "|" + no);
                    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
                    while (System.nanoTime() < deadline) {
                        if (send(port, channel, no)) {
                            acked.put(channel + "|" + no, System.nanoTime());
                            break;
                        }
                        LockSupport.parkNanos(Duration.ofMillis(50).toNanos()); // a provider's retry, compressed
                    }
                }
                return null;
            }));
        }

        awaitAcks(acked, 100, Duration.ofSeconds(20));
        long killedAt = System.nanoTime();
        pair.killPrimary();
        // no primary for 2 s: what a failover manager's detection takes, compressed
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true);
        long promotedAt = System.nanoTime();
        pair.promoteStandby();
        long promotedDone = System.nanoTime();
        // recovery: the first acknowledgement after the promotion
        long recoveredAt = await().atMost(RECOVERY)
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () -> acked.values().stream()
                                .filter(t -> t > promotedDone)
                                .min(Long::compare)
                                .orElse(0L),
                        t -> t > 0);
        int ackedAtRecovery = acked.size();
        awaitAcks(acked, ackedAtRecovery + 100, Duration.ofSeconds(20));
        stop.set(true);
        for (Future<?> f : senders) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(service.isAlive(), "recovered without a restart");

        // the new primary's view
        Map<String, Integer> applied = new HashMap<>();
        Map<String, Integer> paidEvents = new HashMap<>();
        Set<String> success = new HashSet<>();
        try (Connection c = DriverManager.getConnection(PostgresPair.url(pair.standbyPort, DB), "postgres", "");
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT channel || '|' || out_trade_no, count(*) FROM"
                    + " paynotify.notifications WHERE outcome = 'APPLIED' GROUP BY 1")) {
                while (rs.next()) {
                    applied.put(rs.getString(1), rs.getInt(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT channel || '|' || out_trade_no, count(*) FROM paynotify.events"
                    + " WHERE type = 'order.paid' GROUP BY 1")) {
                while (rs.next()) {
                    paidEvents.put(rs.getString(1), rs.getInt(2));
                }
            }
            try (ResultSet rs = s.executeQuery(
                    "SELECT channel || '|' || out_trade_no FROM paynotify.orders WHERE state = 'SUCCESS'")) {
                while (rs.next()) {
                    success.add(rs.getString(1));
                }
            }
        }
        List<String> lost = acked.keySet().stream()
                .filter(k -> !success.contains(k) || applied.getOrDefault(k, 0) != 1)
                .sorted()
                .toList();
        List<String> twice = applied.entrySet().stream()
                .filter(e -> e.getValue() != 1)
                .map(Map.Entry::getKey)
                .toList();
        List<String> eventsTwice = paidEvents.entrySet().stream()
                .filter(e -> e.getValue() != 1)
                .map(Map.Entry::getKey)
                .toList();
        // answers sent before the kill may arrive just after it; a second later none can be from the dead primary
        long duringOutage = acked.values().stream()
                .filter(t -> t > killedAt + Duration.ofSeconds(1).toNanos() && t < promotedAt)
                .count();
        // a probe counts for the no-primary window when it was asked and answered within it
        boolean notReadyWithoutPrimary =
                readiness.stream().anyMatch(r -> r[0] > killedAt && r[2] < promotedAt && r[1] != 200);
        boolean readyWithoutPrimary = readiness.stream()
                .anyMatch(r -> r[0] > killedAt + Duration.ofMillis(1500).toNanos() && r[2] < promotedAt && r[1] == 200);
        boolean readyAfter = readiness.stream().anyMatch(r -> r[0] > recoveredAt && r[1] == 200);
        System.out.printf(
                "FAILOVER acknowledged=%d applied=%d lost=%d appliedTwice=%d sent=%d ackedWithoutPrimary=%d"
                        + " promote=%dms recovery=%dms (kill to first ack after promotion) firstAckAfterPromotion=%dms%n",
                acked.size(),
                applied.size(),
                lost.size(),
                twice.size(),
                sent.size(),
                duringOutage,
                TimeUnit.NANOSECONDS.toMillis(promotedDone - promotedAt),
                TimeUnit.NANOSECONDS.toMillis(recoveredAt - killedAt),
                TimeUnit.NANOSECONDS.toMillis(recoveredAt - promotedDone));
        assertEquals(0, duringOutage, "no acknowledgement while there was no primary");
        assertEquals(List.of(), lost, "every acknowledged notification is applied once on the new primary");
        assertEquals(List.of(), twice, "no notification applied twice");
        assertEquals(List.of(), eventsTwice, "one order.paid event per paid order");
        assertEquals(applied.keySet(), success, "an order is SUCCESS exactly when its notice was applied");
        assertTrue(notReadyWithoutPrimary, "readiness said not ready while there was no primary");
        assertTrue(
                !readyWithoutPrimary,
                "readiness never said ready while there was no primary; probes (ms after the kill, status): "
                        + readiness.stream()
                                .filter(r -> r[0] > killedAt && r[0] < promotedAt)
                                .map(r -> TimeUnit.NANOSECONDS.toMillis(r[0] - killedAt) + "-"
                                        + TimeUnit.NANOSECONDS.toMillis(r[2] - killedAt) + ":" + r[1])
                                .toList());
        assertTrue(readyAfter, "ready again after the promotion");
        assertTrue(acked.size() > ackedAtRecovery, "the load carried on after the failover");
    }

    boolean send(int port, String channel, String no) {
        try {
            String tx = (channel.equals(TestChannels.ALI) ? "2026" : "4200") + no.substring(2);
            HttpRequest.Builder r;
            if (channel.equals(TestChannels.WX)) {
                byte[] body = WechatV2Fixtures.payment(no, tx, 100).md5();
                r = request(port, "/notify/wechatpay/" + channel).POST(HttpRequest.BodyPublishers.ofByteArray(body));
                HttpResponse<String> a = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
                return a.statusCode() == 200 && a.body().contains("SUCCESS");
            }
            if (channel.equals(TestChannels.WX3)) {
                WechatV3Fixtures.Delivery d = WechatV3Fixtures.paid(no, tx, 100);
                r = request(port, "/notify/wechatpay-v3/" + channel)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(d.body()));
                d.headers().forEach(r::header);
                return http.send(r.build(), HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 204;
            }
            byte[] body = AlipayFixtures.body(
                    AlipayFixtures.signed(AlipayFixtures.paid(no, tx, "1.00"), TestKeys.ALIPAY, "RSA2"));
            r = request(port, "/notify/alipay/" + channel)
                    .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<String> a = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
            return a.statusCode() == 200 && a.body().equals("success");
        } catch (java.io.IOException e) {
            return false; // no answer: not acknowledged, the provider retries
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5));
    }

    int ready(int management) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + management + "/q/health/ready"))
                                    .timeout(Duration.ofSeconds(3))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    static void awaitAcks(Map<String, Long> acked, int n, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(20)).until(() -> acked.size() >= n);
    }

    static String provider(String channel) {
        return channel.equals(TestChannels.WX)
                ? "WECHATPAY_V2"
                : channel.equals(TestChannels.WX3) ? "WECHATPAY_V3" : "ALIPAY";
    }

    Map<String, String> config(int port, int management) {
        var c = new LinkedHashMap<String, String>();
        for (Map.Entry<String, String> e : TestChannels.config().entrySet()) {
            if (CHANNELS.stream().anyMatch(ch -> e.getKey().startsWith("paynotify.channels.\"" + ch + "\""))) {
                c.put(e.getKey(), e.getValue());
            }
        }
        c.put("paynotify.admin.tokens", TestChannels.ADMIN_TOKEN);
        c.put("quarkus.profile", "it");
        c.put("quarkus.datasource.jdbc.url", pair.bothHostsUrl(DB));
        c.put("quarkus.http.host", "127.0.0.1");
        c.put("quarkus.http.port", Integer.toString(port));
        c.put("quarkus.management.host", "127.0.0.1");
        c.put("quarkus.management.port", Integer.toString(management));
        c.put("quarkus.log.console.json.enabled", "false");
        return c;
    }
}
