package io.paynotify.merchant;

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
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A merchant close and the provider's payment for the same order, at the same moment, a hundred times: exactly one
 * wins each time. Close wins: 200 CLOSED, and the payment is recorded as ANOMALY PAID_AFTER_CLOSE with the success
 * ack. Payment wins: APPLIED, SUCCESS, and the close is 409. Never both, never neither.
 */
@QuarkusTest
class CloseVersusPayRaceTest {

    static final int ITERATIONS = 100;
    static final String OK =
            "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>";

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @Test
    void closeAndPaymentAtTheSameMomentHaveExactlyOneWinner() throws Exception {
        MerchantClient a = MerchantClient.a();
        int closeWon = 0;
        int payWon = 0;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < ITERATIONS; i++) {
                String no = "R" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
                String txn = "4200" + no.substring(1, 21);
                Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, 100);
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
                CountDownLatch go = new CountDownLatch(1);
                Future<HttpResponse<String>> closeAnswer = pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return HTTP.send(close, HttpResponse.BodyHandlers.ofString());
                });
                Future<HttpResponse<String>> payAnswer = pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return HTTP.send(pay, HttpResponse.BodyHandlers.ofString());
                });
                ready.await(5, TimeUnit.SECONDS);
                go.countDown();
                HttpResponse<String> c = closeAnswer.get(30, TimeUnit.SECONDS);
                HttpResponse<String> p = payAnswer.get(30, TimeUnit.SECONDS);

                // the provider is acknowledged either way: PAID_AFTER_CLOSE is an "ok" cell
                assertEquals(200, p.statusCode(), p::body);
                assertEquals(OK, p.body());
                Map<String, Object> order = Db.row(
                        "SELECT state, transaction_id FROM orders WHERE channel = ?" + " AND out_trade_no = ?",
                        TestChannels.WX,
                        no);
                Map<String, Object> notice = Db.row(
                        "SELECT outcome, reason FROM notifications WHERE channel = ?" + " AND out_trade_no = ?",
                        TestChannels.WX,
                        no);
                if (c.statusCode() == 200) {
                    closeWon++;
                    assertTrue(c.body().contains("\"state\":\"CLOSED\""), c::body);
                    assertEquals("CLOSED", order.get("state"), "iteration " + i);
                    assertNull(order.get("transaction_id"));
                    assertEquals("ANOMALY", notice.get("outcome"), "iteration " + i);
                    assertEquals("PAID_AFTER_CLOSE", notice.get("reason"), "iteration " + i);
                } else if (c.statusCode() == 409) {
                    payWon++;
                    assertEquals("SUCCESS", order.get("state"), "iteration " + i);
                    assertEquals(txn, order.get("transaction_id"));
                    assertEquals("APPLIED", notice.get("outcome"), "iteration " + i);
                    assertNull(notice.get("reason"));
                } else {
                    fail("iteration " + i + ": close answered " + c.statusCode() + " " + c.body());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(ITERATIONS, closeWon + payWon);
        // the split is timing, not a rule; it is printed so that a run shows the race really was contended
        System.out.printf(
                "close-versus-pay: %d iterations, close won %d, payment won %d%n", ITERATIONS, closeWon, payWon);
    }
}
