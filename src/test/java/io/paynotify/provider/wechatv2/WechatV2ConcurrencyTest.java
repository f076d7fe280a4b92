package io.paynotify.provider.wechatv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
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

/** Exactly once: 50 identical v2 notifications released at once for one order. */
@QuarkusTest
class WechatV2ConcurrencyTest {

    static final int N = 50;

    @TestHTTPResource("/notify/wechatpay/" + TestChannels.WX)
    URL endpoint;

    @Test
    void fiftyIdenticalNotificationsAtOnceApplyExactlyOnce() throws Exception {
        String no = WechatV2Http.newOrderNo();
        String txn = WechatV2Http.newTxn();
        WechatV2Http.insertOrder(no, 100);
        byte[] body = WechatV2Fixtures.body(
                WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, txn, 100), TestChannels.WX_KEY, "HMAC-SHA256"));

        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint.toString()))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/xml")
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
                    assertEquals(WechatV2Http.OK, r.body());
                }
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            System.out.println("[measure] v2 " + N + " identical notifications at once: all answered in " + ms
                    + " ms, statuses " + statuses);
        } finally {
            pool.shutdownNow();
        }

        // exactly once whatever the answers were: every success ack is recorded; a 503 may or may not be (one
        // past the deadline can still commit), but never a second APPLIED
        int ok = statuses.getOrDefault(200, 0);
        int recorded = WechatV2Http.notifications(no).size();
        assertTrue(recorded >= ok && recorded <= N, "recorded " + recorded + ", success acks " + ok);
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                + " AND outcome = 'APPLIED'",
                        TestChannels.WX,
                        no));
        assertEquals(
                recorded - 1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                + " AND outcome = 'DUPLICATE'",
                        TestChannels.WX,
                        no));
        var order = WechatV2Http.order(no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(txn, order.get("transaction_id"));
        assertEquals(WechatV2Http.TIME_END, order.get("paid_at"));
        assertEquals(List.of(), order.get("attention"));
        // the one applying row is the first one recorded: no duplicate was decided before it
        assertEquals("APPLIED", WechatV2Http.notifications(no).get(0).get("outcome"));
        // and every one of them was answered with the success ack
        assertEquals(java.util.Map.of(200, N), statuses, "every identical delivery gets the success ack");
    }
}
