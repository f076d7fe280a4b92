package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Exactly once: many identical deliveries of one v3 notice, released together, apply it once. */
@QuarkusTest
class WechatV3ConcurrencyTest {

    static final int DELIVERIES = 50;

    @TestHTTPResource("/notify/wechatpay-v3/" + TestChannels.WX3)
    URI endpoint;

    @Test
    void fiftyIdenticalDeliveriesAtOnceApplyOnce() throws Exception {
        String no = "V3" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        String txn = "42000" + no.substring(2, 26);
        Db.insertOrder(TestChannels.WX3, "WECHATPAY_V3", no, 8800);
        Delivery d = WechatV3Fixtures.paid(no, txn, 8800);

        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(30))
                .version(HttpClient.Version.HTTP_1_1)
                .POST(HttpRequest.BodyPublishers.ofByteArray(d.body()));
        d.headers().forEach(b::header);
        HttpRequest request = b.build();
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        warmUp(client);

        ExecutorService pool = Executors.newFixedThreadPool(DELIVERIES);
        CountDownLatch ready = new CountDownLatch(DELIVERIES);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        long started;
        try {
            for (int i = 0; i < DELIVERIES; i++) {
                answers.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return client.send(request, HttpResponse.BodyHandlers.ofString());
                }));
            }
            assertTrue(ready.await(30, TimeUnit.SECONDS));
            started = System.nanoTime();
            go.countDown();
            Map<Integer, Integer> statuses = new TreeMap<>();
            for (Future<HttpResponse<String>> f : answers) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                statuses.merge(r.statusCode(), 1, Integer::sum);
                assertEquals("", r.body());
            }
            System.out.printf(
                    "v3 burst: %d identical deliveries answered in %d ms: %s%n",
                    DELIVERIES, (System.nanoTime() - started) / 1_000_000, statuses);
            assertEquals(Map.of(204, DELIVERIES), statuses);
        } finally {
            pool.shutdownNow();
        }

        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                + " AND outcome = 'APPLIED'",
                        TestChannels.WX3,
                        no));
        assertEquals(
                DELIVERIES - 1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ?"
                                + " AND out_trade_no = ? AND outcome = 'DUPLICATE'",
                        TestChannels.WX3,
                        no));
        assertEquals(
                DELIVERIES,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?",
                        TestChannels.WX3,
                        no));
        var order = Db.row(
                "SELECT state, transaction_id FROM orders WHERE channel = ? AND out_trade_no = ?",
                TestChannels.WX3,
                no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(txn, order.get("transaction_id"));
    }

    /**
     * One delivery of another order first, so that the burst measures contention and not class loading and JIT
     * warm-up on a cold JVM (the 2.5 s answer deadline applies to every one of the fifty).
     */
    private void warmUp(HttpClient client) throws Exception {
        String no = "V3" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        Db.insertOrder(TestChannels.WX3, "WECHATPAY_V3", no, 1);
        Delivery d = WechatV3Fixtures.paid(no, "42000" + no.substring(2, 26), 1);
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).POST(HttpRequest.BodyPublishers.ofByteArray(d.body()));
        d.headers().forEach(b::header);
        assertEquals(
                204,
                client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode());
    }
}
