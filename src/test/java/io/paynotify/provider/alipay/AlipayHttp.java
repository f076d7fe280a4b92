package io.paynotify.provider.alipay;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Shared helpers of the Alipay HTTP tests: posting, the acks, and the rows to assert on. */
final class AlipayHttp {

    /** gmt_payment 2026-01-02 11:04:05 of the fixtures, read as Beijing time. */
    static final Instant GMT_PAYMENT = Instant.parse("2026-01-02T03:04:05Z");

    private AlipayHttp() {}

    static String newOrderNo() {
        return "ALI" + UUID.randomUUID().toString().replace("-", "");
    }

    static String newTradeNo() {
        return "2026" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    /** Sends byte[] bodies as they are under a form content type (rest-assured would try to encode a form). */
    static final RestAssuredConfig RAW_FORM = RestAssured.config()
            .encoderConfig(EncoderConfig.encoderConfig()
                    .encodeContentTypeAs("application/x-www-form-urlencoded", ContentType.BINARY));

    static Response post(String channel, byte[] body) {
        return given().config(RAW_FORM)
                .contentType("application/x-www-form-urlencoded; charset=utf-8")
                .body(body)
                .post("/notify/alipay/" + channel);
    }

    static Response post(byte[] body) {
        return post(TestChannels.ALI, body);
    }

    static void assertOk(Response r) {
        assertEquals(200, r.statusCode(), () -> "status; body " + r.asString());
        // exactly the 7 bytes: no BOM, no newline
        assertEquals("success", new String(r.asByteArray(), StandardCharsets.ISO_8859_1));
        assertEquals("text/plain", r.contentType());
    }

    static void assertFail(Response r, int status) {
        assertEquals(status, r.statusCode(), () -> "status; body " + r.asString());
        assertEquals("fail", new String(r.asByteArray(), StandardCharsets.ISO_8859_1));
        assertEquals("text/plain", r.contentType());
    }

    static long insertOrder(String no, long amount) {
        return Db.insertOrder(TestChannels.ALI, "ALIPAY", no, amount);
    }

    static Map<String, Object> order(String no) {
        return Db.row("SELECT * FROM orders WHERE channel = ? AND out_trade_no = ?", TestChannels.ALI, no);
    }

    static List<Map<String, Object>> notifications(String no) {
        return Db.rows("SELECT * FROM notifications WHERE out_trade_no = ? ORDER BY id", no);
    }

    static Map<String, Object> lastNotification(String no) {
        List<Map<String, Object>> rows = notifications(no);
        if (rows.isEmpty()) {
            throw new AssertionError("no notification recorded for " + no);
        }
        return rows.get(rows.size() - 1);
    }

    static long allNotifications() {
        return Db.count("SELECT count(*) FROM notifications");
    }

    static void assertNotification(
            Map<String, Object> row,
            String outcome,
            String reason,
            String providerStatus,
            Long amount,
            String tradeNo) {
        assertEquals(outcome, row.get("outcome"), "outcome");
        assertEquals(reason, row.get("reason"), "reason");
        assertEquals(providerStatus, row.get("provider_status"), "provider_status");
        assertEquals(amount, row.get("amount_minor"), "amount_minor");
        assertEquals(tradeNo, row.get("transaction_id"), "transaction_id");
        assertEquals("ALIPAY", row.get("provider"));
    }

    static void assertOrder(String no, String state, String tradeNo, Instant paidAt, List<String> attention) {
        Map<String, Object> o = order(no);
        assertEquals(state, o.get("state"), "state");
        assertEquals(tradeNo, o.get("transaction_id"), "transaction_id");
        if (paidAt != null || !"SUCCESS".equals(state)) {
            assertEquals(paidAt, o.get("paid_at"), "paid_at");
        }
        assertEquals(attention, o.get("attention"), "attention");
    }
}
