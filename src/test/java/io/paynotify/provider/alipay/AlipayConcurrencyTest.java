package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Exactly once: 50 identical Alipay notifications released at once for one order. */
@QuarkusTest
class AlipayConcurrencyTest {

    static final int N = 50;

    @TestHTTPResource("/notify/alipay/" + TestChannels.ALI)
    URL endpoint;

    @Test
    void fiftyIdenticalNotificationsAtOnceApplyExactlyOnce() throws Exception {
        String no = AlipayHttp.newOrderNo();
        String txn = AlipayHttp.newTradeNo();
        AlipayHttp.insertOrder(no, 100);
        byte[] body = AlipayFixtures.signedBody(AlipayFixtures.paid(no, txn, "1.00"));

        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint.toString()))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(N);
        CountDownLatch ready = new CountDownLatch(N);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        var statuses = new java.util.TreeMap<Integer, Integer>();
        try {
            for (int i = 0; i < N; i++) {
                answers.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return client.send(request, HttpResponse.BodyHandlers.ofString());
                }));
            }
            ready.await(30, TimeUnit.SECONDS);
            long started = System.nanoTime();
            go.countDown();
            for (Future<HttpResponse<String>> f : answers) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                statuses.merge(r.statusCode(), 1, Integer::sum);
                if (r.statusCode() == 200) {
                    assertEquals("success", r.body());
                }
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            System.out.println("[measure] Alipay " + N + " identical notifications at once: all answered in " + ms
                    + " ms, statuses " + statuses);
        } finally {
            pool.shutdownNow();
        }

        // exactly once whatever the answers were: every success ack is recorded; a 503 may or may not be (one
        // past the deadline can still commit), but never a second APPLIED
        int ok = statuses.getOrDefault(200, 0);
        int recorded = AlipayHttp.notifications(no).size();
        assertTrue(recorded >= ok && recorded <= N, "recorded " + recorded + ", success acks " + ok);
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                + " AND outcome = 'APPLIED'",
                        TestChannels.ALI,
                        no));
        assertEquals(
                recorded - 1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                + " AND outcome = 'DUPLICATE'",
                        TestChannels.ALI,
                        no));
        var order = AlipayHttp.order(no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(txn, order.get("transaction_id"));
        assertEquals(AlipayHttp.GMT_PAYMENT, order.get("paid_at"));
        assertEquals(List.of(), order.get("attention"));
        // the one applying row is the first one recorded: no duplicate was decided before it
        assertEquals("APPLIED", AlipayHttp.notifications(no).get(0).get("outcome"));
        // and every one of them was answered with the success ack
        assertEquals(java.util.Map.of(200, N), statuses, "every identical delivery gets the success ack");
    }
}
