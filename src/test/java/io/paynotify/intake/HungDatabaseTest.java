package io.paynotify.intake;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TcpProxy;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A database that accepts connections and never answers (the test proxy in hang mode): every notification still
 * gets the provider's failure ack (503) well inside the providers' 5 s deadline, nothing is acknowledged as a
 * success, and once the database answers again the provider's retry is applied.
 */
@QuarkusTest
class HungDatabaseTest {

    static final String V2_FAIL_503 = "<xml><return_code><![CDATA[FAIL]]></return_code><return_msg>"
            + "<![CDATA[try again later]]></return_msg></xml>";

    @AfterEach
    void heal() {
        TcpProxy.heal();
    }

    @Test
    void wechatNotificationGetsFailureAckWithinDeadlineWhileDatabaseHangs() {
        String no = "HANG" + UUID.randomUUID().toString().substring(0, 8);
        anOrder().channel(TestChannels.WX).outTradeNo(no).insert();
        byte[] body = WechatV2Fixtures.body(
                WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, "4200" + no, 100), TestChannels.WX_KEY, "MD5"));

        TcpProxy.hang();
        for (int i = 0; i < 3; i++) {
            long started = System.nanoTime();
            Response r = given().body(body).post("/notify/wechatpay/" + TestChannels.WX);
            long ms = (System.nanoTime() - started) / 1_000_000;
            assertEquals(503, r.statusCode());
            assertEquals(V2_FAIL_503, r.asString());
            assertTrue(ms < 5_000, "answered after " + ms + " ms");
        }
        TcpProxy.heal();

        // A transaction stalled in the proxy may still commit once traffic flows again: that is the case the
        // failure ack is for (never a success ack for an uncommitted notification). Whichever way, the provider's
        // retry is acknowledged and the order is paid exactly once.
        Response retried = retryUntilAnswered(body, "/notify/wechatpay/" + TestChannels.WX);
        assertEquals(200, retried.statusCode());
        assertEquals(
                "SUCCESS",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));
    }

    @Test
    void alipayNotificationGetsFailureAckWithinDeadlineWhileDatabaseHangs() {
        String no = "HANGA" + UUID.randomUUID().toString().substring(0, 8);
        anOrder().channel(TestChannels.ALI).outTradeNo(no).amount(4200).insert();
        byte[] body = AlipayFixtures.body(
                AlipayFixtures.signed(AlipayFixtures.paid(no, "2026" + no, "42.00"), TestKeys.ALIPAY, "RSA2"));

        TcpProxy.hang();
        long started = System.nanoTime();
        Response r = given().body(body).post("/notify/alipay/" + TestChannels.ALI);
        long ms = (System.nanoTime() - started) / 1_000_000;
        TcpProxy.heal();

        assertEquals(503, r.statusCode());
        assertEquals("fail", r.asString());
        assertTrue(ms < 5_000, "answered after " + ms + " ms");
        Response retried = retryUntilAnswered(body, "/notify/alipay/" + TestChannels.ALI);
        assertEquals(200, retried.statusCode());
        assertEquals("success", retried.asString());
    }

    /** The provider's retries, compressed: until the pool has replaced its dead connections (bounded). */
    private static Response retryUntilAnswered(byte[] body, String path) {
        return await("an answer other than 503 to the provider's retry")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> given().body(body).post(path), r -> r.statusCode() != 503);
    }
}
