package io.paynotify.intake;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly once, for every provider: fifty identical signed payment notifications for one PENDING order, released
 * together, leave exactly one APPLIED row and the order paid once. Each is answered with the provider's success
 * ack, or with 503 when it could not be decided in time (the provider retries those); every success ack is
 * recorded, and every row after the APPLIED one is a DUPLICATE.
 *
 * <p>The intake's rule is one; the storm still runs once per provider because the other half of its subject is each
 * adapter under concurrency: fifty verifications at once on the notify workers, each with its per-thread
 * {@code Signature} and {@code Cipher}, must all accept the same notice and map it the same. For Alipay no other
 * test verifies notices on several threads at once.
 */
@QuarkusTest
class DuplicateStormTest {

    static final int DELIVERIES = 50;
    static final long AMOUNT = 100;

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** One signed delivery as the provider sends it: the exact body and the headers that go with it. */
    record Delivery(byte[] body, Map<String, String> headers) {}

    /** What a storm needs to know about a provider. */
    interface Notice {
        Delivery paid(String outTradeNo, String transactionId);
    }

    /** A provider's channel, notify path, success ack and signed payment notice (of {@link #AMOUNT} fen). */
    record Provider(String name, String channel, String path, int ackStatus, String ackBody, Notice notice) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Provider> providers() {
        return List.of(
                new Provider(
                        "WeChat Pay v2",
                        TestChannels.WX,
                        "/notify/wechatpay/" + TestChannels.WX,
                        200,
                        "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg>"
                                + "</xml>",
                        (no, txn) -> new Delivery(
                                WechatV2Fixtures.body(WechatV2Fixtures.signed(
                                        WechatV2Fixtures.paid(no, txn, AMOUNT), TestChannels.WX_KEY, "HMAC-SHA256")),
                                Map.of("Content-Type", "text/xml"))),
                new Provider(
                        "WeChat Pay v3",
                        TestChannels.WX3,
                        "/notify/wechatpay-v3/" + TestChannels.WX3,
                        204,
                        "",
                        (no, txn) -> {
                            WechatV3Fixtures.Delivery d = WechatV3Fixtures.paid(no, txn, AMOUNT);
                            return new Delivery(d.body(), d.headers());
                        }),
                new Provider(
                        "Alipay",
                        TestChannels.ALI,
                        "/notify/alipay/" + TestChannels.ALI,
                        200,
                        "success",
                        (no, txn) -> new Delivery(
                                AlipayFixtures.signedBody(AlipayFixtures.paid(no, txn, "1.00")),
                                Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void fiftyIdenticalNotificationsAtOnceApplyExactlyOnce(Provider provider) throws Exception {
        warmUp(provider);
        String no =
                anOrder().channel(provider.channel()).amount(AMOUNT).insert().outTradeNo();
        String txn = newTransactionId();
        HttpRequest request = request(provider, provider.notice().paid(no, txn));

        Map<Integer, Integer> statuses = new TreeMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(DELIVERIES);
        try {
            CountDownLatch ready = new CountDownLatch(DELIVERIES);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < DELIVERIES; i++) {
                answers.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                }));
            }
            assertTrue(ready.await(30, TimeUnit.SECONDS), "all senders ready");
            long started = System.nanoTime();
            go.countDown();
            for (Future<HttpResponse<String>> f : answers) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                statuses.merge(r.statusCode(), 1, Integer::sum);
                if (r.statusCode() == provider.ackStatus()) {
                    assertEquals(provider.ackBody(), r.body(), "the success ack");
                } else {
                    assertEquals(503, r.statusCode(), () -> "neither the success ack nor 503: " + r.body());
                }
            }
            System.out.printf(
                    "duplicate storm, %s: %d identical notifications answered in %d ms: %s%n",
                    provider, DELIVERIES, (System.nanoTime() - started) / 1_000_000, statuses);
        } finally {
            pool.shutdownNow();
        }

        // a 503 may or may not have been recorded (one past the deadline can still commit); a success ack always was
        int acks = statuses.getOrDefault(provider.ackStatus(), 0);
        long recorded = count(provider, no, null);
        assertTrue(recorded >= acks && recorded <= DELIVERIES, "recorded " + recorded + ", success acks " + acks);
        assertEquals(1, count(provider, no, "APPLIED"), "exactly one APPLIED row");
        assertEquals(recorded - 1, count(provider, no, "DUPLICATE"), "every other row a DUPLICATE");
        assertEquals(
                "APPLIED",
                Db.rows(
                                "SELECT outcome FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                        + " ORDER BY id LIMIT 1",
                                provider.channel(),
                                no)
                        .get(0)
                        .get("outcome"),
                "no duplicate was decided before the applying row");

        Map<String, Object> order = Db.row(
                "SELECT state, transaction_id, attention, version FROM orders WHERE channel = ? AND out_trade_no = ?",
                provider.channel(),
                no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(txn, order.get("transaction_id"));
        assertEquals(List.of(), order.get("attention"));
        assertEquals(1L, order.get("version"), "the order was updated once: paid once");
    }

    /**
     * One delivery for another order first, so that the storm measures contention and not class loading and JIT
     * warm-up of that provider's path (the 2.5 s answer deadline applies to every one of the fifty).
     */
    private static void warmUp(Provider provider) throws Exception {
        String no =
                anOrder().channel(provider.channel()).amount(AMOUNT).insert().outTradeNo();
        HttpResponse<String> r = HTTP.send(
                request(provider, provider.notice().paid(no, newTransactionId())),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(provider.ackStatus(), r.statusCode(), r::body);
    }

    private static HttpRequest request(Provider provider, Delivery delivery) {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://localhost:" + io.restassured.RestAssured.port + provider.path()))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.body()));
        delivery.headers().forEach(b::header);
        return b.build();
    }

    /** Rows of the order, of one outcome or (null) all. */
    private static long count(Provider provider, String no, String outcome) {
        return outcome == null
                ? Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?",
                        provider.channel(),
                        no)
                : Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ? AND outcome = ?",
                        provider.channel(),
                        no,
                        outcome);
    }

    /** Unique per order, in a shape every provider's fields accept (digits, 28 long). */
    private static String newTransactionId() {
        return "4200" + String.format("%024d", UUID.randomUUID().getMostSignificantBits() & Long.MAX_VALUE);
    }
}
