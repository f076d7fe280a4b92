package io.paynotify.provider.wechatv2;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Shared helpers of the v2 tests: the expected acks (the unit tests compare the adapter's with these too), and for
 * the HTTP tests posting and the rows to assert on.
 */
final class WechatV2Http {

    static final String OK =
            "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>";

    private WechatV2Http() {}

    static String fail(String reason) {
        return "<xml><return_code><![CDATA[FAIL]]></return_code><return_msg><![CDATA[" + reason
                + "]]></return_msg></xml>";
    }

    static final String FAIL_400 = fail("invalid request");
    static final String FAIL_401 = fail("verification failed");
    static final String FAIL_404 = fail("unknown channel");
    static final String FAIL_413 = fail("body too large");
    static final String FAIL_422 = fail("not accepted");

    /** time_end 20140903131540 of the fixtures, read as Beijing time. */
    static final Instant TIME_END = Instant.parse("2014-09-03T05:15:40Z");

    static String newOrderNo() {
        return "WX" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    static String newTxn() {
        return "42000" + UUID.randomUUID().toString().replace("-", "").substring(0, 23);
    }

    static Response post(String channel, byte[] body) {
        return given().body(body).post("/notify/wechatpay/" + channel);
    }

    static Response post(byte[] body) {
        return post(TestChannels.WX, body);
    }

    static void assertAck(Response r, int status, String body) {
        assertEquals(status, r.statusCode(), () -> "status; body " + r.asString());
        assertEquals(body, r.asString());
        assertEquals("application/xml", r.contentType());
    }

    static void assertOk(Response r) {
        assertAck(r, 200, OK);
    }

    static long insertOrder(String no, long amount) {
        return Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, amount);
    }

    static Map<String, Object> order(String no) {
        return Db.row("SELECT * FROM orders WHERE channel = ? AND out_trade_no = ?", TestChannels.WX, no);
    }

    static List<Map<String, Object>> notifications(String no) {
        return Db.rows(
                "SELECT * FROM notifications WHERE channel = ? AND out_trade_no = ? ORDER BY id", TestChannels.WX, no);
    }

    static Map<String, Object> lastNotification(String no) {
        List<Map<String, Object>> rows = notifications(no);
        return rows.get(rows.size() - 1);
    }

    static long allNotifications() {
        return Db.count("SELECT count(*) FROM notifications");
    }

    /** The notification row's outcome, reason, provider status, amount and transaction id. */
    static void assertNotification(
            Map<String, Object> row,
            String outcome,
            String reason,
            String providerStatus,
            Long amount,
            String transactionId) {
        assertEquals(outcome, row.get("outcome"), "outcome");
        assertEquals(reason, row.get("reason"), "reason");
        assertEquals(providerStatus, row.get("provider_status"), "provider_status");
        assertEquals(amount, row.get("amount_minor"), "amount_minor");
        assertEquals(transactionId, row.get("transaction_id"), "transaction_id");
        assertEquals("WECHATPAY_V2", row.get("provider"));
    }

    /** The order's state, transaction id, paidAt and attention. */
    static void assertOrder(String no, String state, String transactionId, Instant paidAt, List<String> attention) {
        Map<String, Object> o = order(no);
        assertEquals(state, o.get("state"), "state");
        assertEquals(transactionId, o.get("transaction_id"), "transaction_id");
        if (paidAt != null) {
            assertEquals(paidAt, o.get("paid_at"), "paid_at");
        } else if (!"SUCCESS".equals(state)) {
            assertEquals(null, o.get("paid_at"), "paid_at");
        }
        assertEquals(attention, o.get("attention"), "attention");
    }
}
