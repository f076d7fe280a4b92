package io.paynotify.merchant;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A merchant close and the provider's payment for the same order, started together, many times: exactly one wins
 * each time. Close wins: 200 CLOSED, and the payment is recorded as ANOMALY PAID_AFTER_CLOSE with the success ack.
 * Payment wins: APPLIED, SUCCESS, and the close is 409. Never both, never neither; and over the run each side wins
 * at least once, so both ways out of the race are checked.
 *
 * <p>Left to itself the payment wins most races: the close claims its Idempotency-Key before it locks the order,
 * one database round trip more. So the iterations take turns in how the two requests are started, each from
 * parked senders and without any sleep: released together; the close first, and the payment as soon as the close's
 * transaction is running in the database; the payment first, and the close likewise. The second request still
 * arrives while the first one's transaction runs (it commits only after the row lock, the notification and the
 * order are written), so it has to wait for the row lock and then see what the first one did.
 */
@QuarkusTest
class CloseVersusPayRaceTest {

    static final int ITERATIONS = 45;
    static final String OK =
            "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>";

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    /** How an iteration starts the two requests. */
    enum Start {
        TOGETHER,
        CLOSE_FIRST,
        PAYMENT_FIRST
    }

    @Test
    void closeAndPaymentStartedTogetherHaveExactlyOneWinner() throws Exception {
        MerchantClient a = MerchantClient.a();
        Map<Start, int[]> wins = new EnumMap<>(Start.class); // per start: {close won, payment won}
        for (Start start : Start.values()) {
            wins.put(start, new int[2]);
        }
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection watch = Db.connect();
                PreparedStatement busy = watch.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND application_name = 'paynotify'"
                        + " AND state <> 'idle'")) {
            for (int i = 0; i < ITERATIONS; i++) {
                Start start = Start.values()[i % Start.values().length];
                String no = anOrder().channel(TestChannels.WX).insert().outTradeNo();
                String txn = "4200" + no.substring(1, 21);
                HttpRequest close = a.request("POST", MerchantClient.orderPath(TestChannels.WX, no) + "/close")
                        .key("race-" + no)
                        .build();
                HttpRequest pay = HttpRequest.newBuilder(URI.create("http://localhost:"
                                + io.restassured.RestAssured.port + "/notify/wechatpay/" + TestChannels.WX))
                        .timeout(Duration.ofSeconds(20))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(WechatV2Fixtures.body(WechatV2Fixtures.signed(
                                WechatV2Fixtures.paid(no, txn, 100), TestChannels.WX_KEY, "MD5"))))
                        .build();

                CountDownLatch ready = new CountDownLatch(2);
                CountDownLatch closeGo = new CountDownLatch(1);
                CountDownLatch payGo = new CountDownLatch(1);
                Future<HttpResponse<String>> closeAnswer = pool.submit(() -> {
                    ready.countDown();
                    closeGo.await();
                    return HTTP.send(close, HttpResponse.BodyHandlers.ofString());
                });
                Future<HttpResponse<String>> payAnswer = pool.submit(() -> {
                    ready.countDown();
                    payGo.await();
                    return HTTP.send(pay, HttpResponse.BodyHandlers.ofString());
                });
                assertTrue(ready.await(5, TimeUnit.SECONDS), "both senders ready");
                switch (start) {
                    case TOGETHER -> {
                        closeGo.countDown();
                        payGo.countDown();
                    }
                    case CLOSE_FIRST -> {
                        closeGo.countDown();
                        untilInTheDatabase(busy, closeAnswer);
                        payGo.countDown();
                    }
                    case PAYMENT_FIRST -> {
                        payGo.countDown();
                        untilInTheDatabase(busy, payAnswer);
                        closeGo.countDown();
                    }
                }
                HttpResponse<String> c = closeAnswer.get(30, TimeUnit.SECONDS);
                HttpResponse<String> p = payAnswer.get(30, TimeUnit.SECONDS);

                String iteration = "iteration " + i + " (" + start + ")";
                // the provider is acknowledged either way: PAID_AFTER_CLOSE is an "ok" cell
                assertEquals(200, p.statusCode(), () -> iteration + ": " + p.body());
                assertEquals(OK, p.body(), iteration);
                Map<String, Object> order = Db.row(
                        "SELECT state, transaction_id, attention FROM orders WHERE channel = ? AND out_trade_no = ?",
                        TestChannels.WX,
                        no);
                Map<String, Object> notice = Db.row(
                        "SELECT outcome, reason FROM notifications WHERE channel = ? AND out_trade_no = ?",
                        TestChannels.WX,
                        no);
                if (c.statusCode() == 200) {
                    wins.get(start)[0]++;
                    assertTrue(c.body().contains("\"state\":\"CLOSED\""), () -> iteration + ": " + c.body());
                    assertEquals("CLOSED", order.get("state"), iteration);
                    assertNull(order.get("transaction_id"), iteration);
                    assertEquals(List.of("PAID_AFTER_CLOSE"), order.get("attention"), iteration);
                    assertEquals("ANOMALY", notice.get("outcome"), iteration);
                    assertEquals("PAID_AFTER_CLOSE", notice.get("reason"), iteration);
                } else if (c.statusCode() == 409) {
                    wins.get(start)[1]++;
                    assertEquals("SUCCESS", order.get("state"), iteration);
                    assertEquals(txn, order.get("transaction_id"), iteration);
                    assertEquals(List.of(), order.get("attention"), iteration);
                    assertEquals("APPLIED", notice.get("outcome"), iteration);
                    assertNull(notice.get("reason"), iteration);
                } else {
                    fail(iteration + ": close answered " + c.statusCode() + " " + c.body());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        int closeWins = wins.values().stream().mapToInt(w -> w[0]).sum();
        int payWins = wins.values().stream().mapToInt(w -> w[1]).sum();
        var split = new StringBuilder();
        wins.forEach((start, w) -> split.append(
                String.format("; %s: close %d, payment %d", start.name().toLowerCase(), w[0], w[1])));
        String summary = String.format(
                "%d iterations in %d ms, close won %d, payment won %d%s",
                ITERATIONS, (System.nanoTime() - started) / 1_000_000, closeWins, payWins, split);
        System.out.println("close-versus-pay: " + summary);
        // each iteration above had exactly one winner; a run that one side never won checked only half the rule
        assertTrue(closeWins > 0, "the close never won: " + summary);
        assertTrue(payWins > 0, "the payment never won: " + summary);
    }

    /**
     * Waits until the first request's transaction runs in the database (a paynotify session that is not idle), or
     * the first request has been answered already.
     */
    private static void untilInTheDatabase(PreparedStatement busy, Future<?> first) {
        await("the first request reaches the database")
                .atMost(Duration.ofSeconds(10))
                .pollInSameThread()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> first.isDone() || busyConnections(busy) > 0);
    }

    private static long busyConnections(PreparedStatement busy) throws SQLException {
        try (ResultSet rs = busy.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
