package io.paynotify.intake;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The intake's rules over real HTTP and PostgreSQL, each tested once: what a verified notice does to the order and
 * the notification rows does not depend on the provider, so these tests send WeChat Pay v2 notices (as the other
 * intake tests do), and Alipay's where only Alipay sends the notice a rule needs (a close). Only the unknown-order
 * test runs for every provider: its subject is each provider's failure ack and what each records. Which notice is
 * which class is each provider's {@code …ClassificationTest}; what each class does to each order state is {@code
 * OrderStateMachineTest}; each provider's own wiring (its happy path, its ids, its acks) stays in its
 * {@code …IntakeTest} and {@code …NotifyTest}.
 */
@QuarkusTest
class NotificationRulesTest {

    static final String V2_OK =
            "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>";
    static final String V2_FAIL_422 =
            "<xml><return_code><![CDATA[FAIL]]></return_code><return_msg><![CDATA[not accepted]]></return_msg></xml>";

    /** The paidAt of an order paid by {@link #markPaid}. */
    static final Instant FIXTURE_PAID_AT = Instant.parse("2020-01-01T00:00:00Z");

    /** time_end 20140903131540 of the v2 fixtures, read as Beijing time. */
    static final Instant TIME_END = Instant.parse("2014-09-03T05:15:40Z");

    /** gmt_payment 2026-01-02 11:04:05 of the Alipay fixtures, read as Beijing time. */
    static final Instant GMT_PAYMENT = Instant.parse("2026-01-02T03:04:05Z");

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** Sends byte[] bodies as they are under a form content type (rest-assured would try to encode a form). */
    static final RestAssuredConfig RAW_FORM = RestAssured.config()
            .encoderConfig(EncoderConfig.encoderConfig()
                    .encodeContentTypeAs("application/x-www-form-urlencoded", ContentType.BINARY));

    // ------------------------------------------------------------------ every provider: its wiring is the subject

    /** One signed delivery: the exact body and the headers that go with it. */
    record Delivery(byte[] body, Map<String, String> headers) {}

    /** A provider's channel, notify path, failure ack of a 422 and signed payment notice of 1.00 CNY. */
    enum Wire {
        WECHATPAY_V2(
                TestChannels.WX,
                "/notify/wechatpay/",
                "SUCCESS",
                "application/xml",
                V2_FAIL_422,
                (no, txn) -> new Delivery(WechatV2Fixtures.payment(no, txn, 100).md5(), Map.of())),
        WECHATPAY_V3(
                TestChannels.WX3,
                "/notify/wechatpay-v3/",
                "SUCCESS",
                "application/json",
                "{\"code\":\"FAIL\",\"message\":\"not accepted\"}",
                (no, txn) -> {
                    WechatV3Fixtures.Delivery d = WechatV3Fixtures.paid(no, txn, 100);
                    return new Delivery(d.body(), d.headers());
                }),
        ALIPAY(
                TestChannels.ALI,
                "/notify/alipay/",
                "TRADE_SUCCESS",
                "text/plain",
                "fail",
                (no, txn) -> new Delivery(
                        AlipayFixtures.aNotice().orderNo(no).tradeNo(txn).body(),
                        Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")));

        final String channel;
        final String path;
        final String paidStatus;
        final String failContentType;
        final String fail422;
        final BiFunction<String, String, Delivery> paid;

        Wire(
                String channel,
                String path,
                String paidStatus,
                String failContentType,
                String fail422,
                BiFunction<String, String, Delivery> paid) {
            this.channel = channel;
            this.path = path + channel;
            this.paidStatus = paidStatus;
            this.failContentType = failContentType;
            this.fail422 = fail422;
            this.paid = paid;
        }
    }

    static HttpResponse<String> send(Wire wire, Delivery d) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + wire.path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(d.body()));
        d.headers().forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * From WechatV2IntakeTest.aPaymentForNoOrderIsRecordedWithoutOneAndCreatesNone and
     * AlipayIntakeTest.outTradeNoIsMatchedByteForByte, now for every provider: an order number is matched byte for
     * byte, and a notice for no order is answered with the provider's failure ack, 422, recorded without an order.
     */
    @ParameterizedTest
    @EnumSource(Wire.class)
    void aNoticeForNoOrderIs422WithTheFailureAckAndIsRecordedWithoutOne(Wire wire) throws Exception {
        String no = "Case" + newOrderNo().substring(2, 26);
        Db.insertOrder(wire.channel, wire.name(), no, 100);
        for (String variant :
                List.of(newOrderNo(), no.toUpperCase(), no.toLowerCase(), no.substring(0, no.length() - 1))) {
            String txn = newTxn();
            HttpResponse<String> r = send(wire, wire.paid.apply(variant, txn));
            assertEquals(422, r.statusCode(), r::body);
            assertEquals(wire.fail422, r.body());
            assertEquals(
                    wire.failContentType, r.headers().firstValue("Content-Type").orElse(null));
            var row = lastNotification(variant);
            assertNotification(row, "ANOMALY", "UNKNOWN_ORDER", wire.paidStatus, 100L, txn, wire.name());
            assertNull(row.get("order_id"));
            assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", variant));
        }
        assertEquals("PENDING", order(wire.channel, no).get("state"));
        assertEquals(List.of(), order(wire.channel, no).get("attention"));
    }

    // ------------------------------------------------------------------ the rules, once

    /** From WechatV2IntakeTest; also AlipayIntakeTest.withoutGmtPaymentTheOrderIsPaidAtTheArrival. */
    @Test
    void withoutAPaymentTimePaidAtIsTheArrivalTimeAndADuplicateDoesNotMoveIt() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        byte[] body = payment(no, txn, 100).without("time_end").md5();
        Instant before = Instant.now();
        assertOk(post(body));
        Instant receivedAt = (Instant) lastNotification(no).get("received_at");
        assertOrder(no, "SUCCESS", txn, receivedAt, List.of());
        assertTrue(
                !receivedAt.isBefore(before.minusSeconds(5)) && !receivedAt.isAfter(Instant.now()),
                "receivedAt " + receivedAt + " is the arrival time");

        assertOk(post(body));
        assertEquals("DUPLICATE", lastNotification(no).get("outcome"));
        assertEquals(receivedAt, order(no).get("paid_at"));
    }

    /** From WechatV2IntakeTest; also AlipayIntakeTest.aDuplicateChangesNothing (its first half). */
    @Test
    void aDuplicateIsRecordedAndChangesNothing() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        var before = order(no);

        assertOk(post(payment(no, txn, 100).md5()));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 100L, txn);
        // paidAt and the transaction id are set only by the applying notice; not even updated_at moves
        assertEquals(before, order(no));
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of());

        // a duplicate stating another amount is still a duplicate, and only flags the order
        assertOk(post(payment(no, txn, 101).md5()));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 101L, txn);
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of("AMOUNT_MISMATCH"));
        assertEquals(2, notifications(no).size());
    }

    /**
     * From WechatV2IntakeTest.anAnomalyFlagsTheOrderAndAnswers422WithTheFailureAck; also
     * AlipayIntakeTest.anotherAmountIsAnsweredFailAndFlagsTheOrder (Alipay's 422 ack is in the unknown-order test).
     */
    @Test
    void anAnomalyFlagsTheOrderAndAnswers422WithTheFailureAck() {
        String no = newOrderNo();
        String txn = newTxn();
        long id = insertOrder(no, 100);
        assertAck(post(payment(no, txn, 99).md5()), 422, V2_FAIL_422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "AMOUNT_MISMATCH", "SUCCESS", 99L, txn);
        assertEquals(id, row.get("order_id"));
        assertOrder(no, "PENDING", null, null, List.of("AMOUNT_MISMATCH"));
    }

    /** From WechatV2IntakeTest; also the first half of AlipayIntakeTest.aTradeNumberAlreadyOnAnotherOrder…. */
    @Test
    void aTransactionIdIsLookedUpAcrossTheProvidersChannelsButNotOtherProviders() {
        // on another order of the same channel, paid through the route
        String owner = newOrderNo();
        String txn = newTxn();
        insertOrder(owner, 100);
        assertOk(post(payment(owner, txn, 100).md5()));
        String second = newOrderNo();
        insertOrder(second, 100);
        assertAck(post(payment(second, txn, 100).md5()), 422, V2_FAIL_422);
        assertNotification(lastNotification(second), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "SUCCESS", 100L, txn);
        assertOrder(second, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        // the owner is untouched
        assertOrder(owner, "SUCCESS", txn, TIME_END, List.of());

        // on an order of another v2 channel: still another order of the provider
        String hmacOwner = newOrderNo();
        String hmacTxn = newTxn();
        Db.insertOrder(TestChannels.WX_HMAC, "WECHATPAY_V2", hmacOwner, 100);
        paidDirectly(TestChannels.WX_HMAC, hmacOwner, hmacTxn);
        String no = newOrderNo();
        insertOrder(no, 100);
        assertAck(post(payment(no, hmacTxn, 100).md5()), 422, V2_FAIL_422);
        assertNotification(lastNotification(no), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "SUCCESS", 100L, hmacTxn);
        assertOrder(no, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));

        // the same number on another provider's order is no conflict
        String ali = newOrderNo();
        String shared = newTxn();
        Db.insertOrder(TestChannels.ALI, "ALIPAY", ali, 100);
        paidDirectly(TestChannels.ALI, ali, shared);
        String mine = newOrderNo();
        insertOrder(mine, 100);
        assertOk(post(payment(mine, shared, 100).md5()));
        assertOrder(mine, "SUCCESS", shared, TIME_END, List.of());
    }

    /**
     * The second half of AlipayIntakeTest.aTradeNumberAlreadyOnAnotherOrderIsTransactionOnOtherOrder (Alipay: the
     * provider that notifies a close). Its order now carries no TRANSACTION_ON_OTHER_ORDER from the first half, which
     * {@link #aTransactionIdIsLookedUpAcrossTheProvidersChannelsButNotOtherProviders} proves.
     */
    @Test
    void onlyAPaymentIsLookedUpACloseCarryingATakenTransactionIdClosesTheOrder() {
        String owner = newOrderNo();
        String pending = newOrderNo();
        String t = newTxn();
        Db.insertOrder(TestChannels.ALI, "ALIPAY", owner, 100);
        Db.insertOrder(TestChannels.ALI, "ALIPAY", pending, 100);
        assertAlipayOk(postAlipay(alipay(owner, t).body()));
        assertAlipayOk(postAlipay(alipay(pending, t).status("TRADE_CLOSED").body()));
        assertEquals("APPLIED", lastNotification(pending).get("outcome"));
        assertOrder(TestChannels.ALI, pending, "CLOSED", null, null, List.of());
        assertOrder(TestChannels.ALI, owner, "SUCCESS", t, GMT_PAYMENT, List.of());
    }

    /** From WechatV2IntakeTest and AlipayIntakeTest (each its own sequence of flags, unchanged). */
    @Test
    void attentionIsAppendOnlyWithoutDuplicates() {
        String no = newOrderNo();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(post(payment(no, newTxn(), 100).md5()));
        assertOk(post(payment(no, newTxn(), 100).md5()));
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE"));
        assertAck(
                post(payment(no, newTxn(), 100)
                        .with("result_code", "PROCESSING")
                        .md5()),
                422,
                V2_FAIL_422);
        assertOk(post(payment(no, newTxn(), 7).md5()));
        // a refund on a closed order: REFUND_ON_UNPAID, answered ok
        assertOk(post(WechatV2Fixtures.refundBody(no, newTxn(), 100, "SUCCESS")));
        assertOk(post(WechatV2Fixtures.refundBody(no, newTxn(), 100, "SUCCESS")));
        assertOrder(
                no,
                "CLOSED",
                null,
                null,
                List.of("PAID_AFTER_CLOSE", "UNKNOWN_STATUS", "AMOUNT_MISMATCH", "REFUND_ON_UNPAID"));
        assertEquals(6, notifications(no).size());

        // Alipay's sequence: a close of a paid order, and one decision that adds two flags at once
        String ali = newOrderNo();
        String t = newTxn();
        Db.insertOrder(TestChannels.ALI, "ALIPAY", ali, 100);
        markPaid(TestChannels.ALI, ali, t, "TRADE_SUCCESS");
        assertAlipayOk(postAlipay(alipay(ali, t).status("TRADE_CLOSED").body()));
        assertAlipayOk(postAlipay(alipay(ali, t).status("TRADE_CLOSED").body()));
        assertOrder(TestChannels.ALI, ali, "SUCCESS", t, FIXTURE_PAID_AT, List.of("CLOSED_AFTER_PAID"));
        assertAlipayOk(postAlipay(alipay(ali, newTxn()).amount("3.00").body()));
        assertAlipayOk(postAlipay(alipay(ali, t).status("WAIT_BUYER_PAY").body()));
        assertAlipayOk(postAlipay(alipay(ali, newTxn()).body()));
        assertOrder(
                TestChannels.ALI,
                ali,
                "SUCCESS",
                t,
                FIXTURE_PAID_AT,
                List.of("CLOSED_AFTER_PAID", "DUPLICATE_PAYMENT", "AMOUNT_MISMATCH"));
        assertEquals(5, notifications(ali).size());
    }

    /** From WechatV2IntakeTest; also AlipayIntakeTest's, whose every assertion this one makes. */
    @Test
    void pastFiveHundredRowsDeliveriesAreAnsweredTheSameButNotRecorded() {
        String no = newOrderNo();
        String txn = newTxn();
        long id = insertOrder(no, 100);
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, order_id, provider_status, outcome,"
                        + " reason, raw_body, received_at) SELECT ?, 'WECHATPAY_V2', ?, ?, 'FAIL', 'IGNORED', 'NOT_FINAL',"
                        + " '\\x00'::bytea, now() FROM generate_series(1, 499)",
                TestChannels.WX,
                no,
                id);
        assertEquals(499, notifications(no).size());

        assertOk(post(payment(no, txn, 100).md5()));
        assertEquals(500, notifications(no).size());
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of());

        assertOk(post(payment(no, txn, 100).md5()));
        assertOk(post(payment(no, txn, 100).md5()));
        assertAck(post(payment(no, txn, 100).with("result_code", "PROCESSING").md5()), 422, V2_FAIL_422);
        assertEquals(500, notifications(no).size());
        assertEquals(
                0, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'DUPLICATE'", no));
        // the decision still applies to the order: the anomaly is flagged even though it is not recorded
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of("UNKNOWN_STATUS"));
    }

    // ------------------------------------------------------------------ helpers

    static String newOrderNo() {
        return "IR" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    static String newTxn() {
        return "42000" + UUID.randomUUID().toString().replace("-", "").substring(0, 23);
    }

    static WechatV2Fixtures.Notice payment(String no, String txn, long fee) {
        return WechatV2Fixtures.payment(no, txn, fee);
    }

    static AlipayFixtures.Notice alipay(String no, String tradeNo) {
        return AlipayFixtures.aNotice().orderNo(no).tradeNo(tradeNo);
    }

    static Response post(byte[] body) {
        return given().body(body).post("/notify/wechatpay/" + TestChannels.WX);
    }

    static Response postAlipay(byte[] body) {
        return given().config(RAW_FORM)
                .contentType("application/x-www-form-urlencoded; charset=utf-8")
                .body(body)
                .post("/notify/alipay/" + TestChannels.ALI);
    }

    static void assertAck(Response r, int status, String body) {
        assertEquals(status, r.statusCode(), () -> "status; body " + r.asString());
        assertEquals(body, r.asString());
        assertEquals("application/xml", r.contentType());
    }

    static void assertOk(Response r) {
        assertAck(r, 200, V2_OK);
    }

    static void assertAlipayOk(Response r) {
        assertEquals(200, r.statusCode(), () -> "status; body " + r.asString());
        assertEquals("success", new String(r.asByteArray(), StandardCharsets.ISO_8859_1));
        assertEquals("text/plain", r.contentType());
    }

    static long insertOrder(String no, long amount) {
        return Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, amount);
    }

    static void markPaid(String no, String txn) {
        markPaid(TestChannels.WX, no, txn, "SUCCESS");
    }

    /** Marks an order paid at {@link #FIXTURE_PAID_AT} by that provider status, as if an earlier notice had. */
    static void markPaid(String channel, String no, String txn, String providerStatus) {
        Db.update(
                "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = timestamptz '2020-01-01 00:00:00+00',"
                        + " paid_provider_status = ? WHERE channel = ? AND out_trade_no = ?",
                txn,
                providerStatus,
                channel,
                no);
    }

    static void markClosed(String no) {
        Db.update("UPDATE orders SET state = 'CLOSED' WHERE channel = ? AND out_trade_no = ?", TestChannels.WX, no);
    }

    static void paidDirectly(String channel, String no, String txn) {
        Db.update(
                "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = now() WHERE channel = ? AND"
                        + " out_trade_no = ?",
                txn,
                channel,
                no);
    }

    static Map<String, Object> order(String no) {
        return order(TestChannels.WX, no);
    }

    static Map<String, Object> order(String channel, String no) {
        return Db.row("SELECT * FROM orders WHERE channel = ? AND out_trade_no = ?", channel, no);
    }

    /** Every notification recorded for that order number (the numbers are unique to the test). */
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

    static void assertNotification(
            Map<String, Object> row,
            String outcome,
            String reason,
            String providerStatus,
            Long amount,
            String transactionId) {
        assertNotification(row, outcome, reason, providerStatus, amount, transactionId, "WECHATPAY_V2");
    }

    /** The notification row's outcome, reason, provider status, amount, transaction id and provider. */
    static void assertNotification(
            Map<String, Object> row,
            String outcome,
            String reason,
            String providerStatus,
            Long amount,
            String transactionId,
            String provider) {
        assertEquals(outcome, row.get("outcome"), "outcome");
        assertEquals(reason, row.get("reason"), "reason");
        assertEquals(providerStatus, row.get("provider_status"), "provider_status");
        assertEquals(amount, row.get("amount_minor"), "amount_minor");
        assertEquals(transactionId, row.get("transaction_id"), "transaction_id");
        assertEquals(provider, row.get("provider"));
    }

    static void assertOrder(String no, String state, String transactionId, Instant paidAt, List<String> attention) {
        assertOrder(TestChannels.WX, no, state, transactionId, paidAt, attention);
    }

    /** The order's state, transaction id, paidAt (when given, or null unless paid) and attention. */
    static void assertOrder(
            String channel, String no, String state, String transactionId, Instant paidAt, List<String> attention) {
        Map<String, Object> o = order(channel, no);
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
