package io.paynotify.intake;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Refunds end to end (docs/api.md "Refunds"): one path per provider over HTTP into PostgreSQL and back out through the
 * merchant and admin APIs, Alipay's cumulative refund_fee in and out of order, and the exactly-once properties under
 * concurrency. The table itself is tested cell by cell in RefundTableTest.
 */
@QuarkusTest
class RefundIntakeTest {

    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Test
    void wechatV2RefundsArePartialThenFullAndShowInBothApis() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(100).paid(txn).insert();

        assertEquals(200, postV2(refundInfo(no, txn, "R1", 30, "SUCCESS")).statusCode());
        assertOrder(no, "PARTIALLY_REFUNDED", 30);
        Map<String, Object> refund = refund(no, "R1");
        assertEquals("SUCCESS", refund.get("status"));
        assertEquals(30L, refund.get("amount_minor"));
        assertEquals("RID-R1", refund.get("refund_id"));
        // success_time is Beijing time
        assertEquals(Instant.parse("2018-11-19T08:24:13Z"), refund.get("succeeded_at"));
        Map<String, Object> recorded = lastNotification(no);
        assertEquals("APPLIED", recorded.get("outcome"));
        assertEquals(30L, recorded.get("amount_minor"), "a refund notice records the refund's amount");

        // the same notice again: a duplicate, counted once
        assertEquals(200, postV2(refundInfo(no, txn, "R1", 30, "SUCCESS")).statusCode());
        assertEquals("DUPLICATE", lastNotification(no).get("outcome"));
        assertOrder(no, "PARTIALLY_REFUNDED", 30);

        assertEquals(200, postV2(refundInfo(no, txn, "R2", 70, "SUCCESS")).statusCode());
        assertOrder(no, "REFUNDED", 100);

        JsonPath merchant =
                new JsonPath(MerchantClient.a().get(TestChannels.WX, no).text());
        assertEquals("REFUNDED", merchant.getString("state"));
        assertEquals(100, merchant.getInt("refundedAmount"));
        assertEquals(List.of("R1", "R2"), merchant.getList("refunds.outRefundNo"));
        assertEquals(List.of(30, 70), merchant.getList("refunds.amount"));
        assertEquals(List.of("SUCCESS", "SUCCESS"), merchant.getList("refunds.status"));
        assertEquals("2018-11-19T08:24:13.000Z", merchant.getString("refunds[0].succeededAt"));
        String admin = RestAssured.given()
                .auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX + "/" + no)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertEquals(merchant.getList("refunds"), new JsonPath(admin).getList("refunds"));
        // the admin list filters by the new states
        String list = RestAssured.given()
                .auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/orders?state=REFUNDED&channel=" + TestChannels.WX)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertTrue(new JsonPath(list).getList("items.outTradeNo").contains(no));
        // and a paid order in any paid state cannot be closed by the merchant
        assertEquals(
                409,
                MerchantClient.a()
                        .close(TestChannels.WX, no, UUID.randomUUID().toString())
                        .status());
    }

    @Test
    void aWechatV2RefundBoundToAnotherTransactionIsRefused() throws Exception {
        String no = newNo();
        anOrder()
                .channel(TestChannels.WX)
                .outTradeNo(no)
                .amount(100)
                .paid("4200" + no)
                .insert();
        // a captured req_info of another trade replayed against this order: the transaction id gives it away
        HttpResponse<String> r = postV2(refundInfo(no, "4200-ANOTHER", "R1", 30, "SUCCESS"));
        assertEquals(422, r.statusCode());
        assertEquals("REFUND_TRANSACTION_MISMATCH", lastNotification(no).get("reason"));
        assertOrder(no, "SUCCESS", 0);
        assertEquals(0, Db.count("SELECT count(*) FROM refunds WHERE out_trade_no = ?", no));
    }

    @Test
    void aV2RefundNoticesUnsignedOuterIdsNeverFlagTheOrder() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(100).paid(txn).insert();
        // a captured genuine req_info under rewritten outer ids: only the encrypted part is authenticated
        var f = WechatV2Fixtures.refundNotice(
                WechatV2Fixtures.encryptReqInfo(refundInfo(no, txn, "R1", 30, "SUCCESS"), TestChannels.WX_KEY));
        f.put("mch_id", "10000101");
        f.put("appid", "wxffffffffffffffff");
        f.put("sub_mch_id", "1900000109");
        var r = http.send(v2Request(WechatV2Fixtures.body(f)), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "PARTIALLY_REFUNDED", 30);
        assertEquals(
                List.of(),
                Db.row("SELECT attention FROM orders WHERE out_trade_no = ?", no)
                        .get("attention"),
                "an unsigned field changes no attention");
    }

    @Test
    void aWechatV3FullRefund() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX3).outTradeNo(no).amount(500).paid(txn).insert();
        var resource = WechatV3Fixtures.refund(no, txn, 500, 500);
        assertEquals(204, postV3("REFUND.SUCCESS", resource).statusCode());
        assertOrder(no, "REFUNDED", 500);
        Map<String, Object> refund = refund(no, "R" + no);
        assertEquals("SUCCESS", refund.get("status"));
        assertEquals(Instant.parse("2018-06-08T02:34:56Z"), refund.get("succeeded_at"));

        // REFUND.ABNORMAL of another refund: flagged, answered ok
        var abnormal = WechatV3Fixtures.refund(no, txn, 500, 100);
        abnormal.put("out_refund_no", "R-ABN");
        abnormal.put("refund_status", "ABNORMAL");
        assertEquals(204, postV3("REFUND.ABNORMAL", abnormal).statusCode());
        assertEquals("ABNORMAL", refund(no, "R-ABN").get("status"));
        assertEquals(
                List.of("REFUND_ABNORMAL"),
                Db.row("SELECT attention FROM orders WHERE out_trade_no = ?", no)
                        .get("attention"));
    }

    @Test
    void aWechatV2RefundKeepsItsAmountWhateverItsStatus() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(100).paid(txn).insert();

        // CHANGE: the refund did not reach the payer; how much did not is what an operator acts on
        assertEquals(200, postV2(refundInfo(no, txn, "R1", 40, "CHANGE")).statusCode());
        assertRefund(no, "R1", "ABNORMAL", 40);
        assertEquals(40L, lastNotification(no).get("amount_minor"));
        // a later REFUNDCLOSE of the same refund that omits refund_fee keeps the amount
        var closing = refundInfo(no, txn, "R1", 40, "REFUNDCLOSE");
        closing.remove("refund_fee");
        assertEquals(200, postV2(closing).statusCode());
        assertRefund(no, "R1", "CLOSED", 40);
        // a REFUNDCLOSE first seen with its refund_fee
        assertEquals(200, postV2(refundInfo(no, txn, "R2", 25, "REFUNDCLOSE")).statusCode());
        assertRefund(no, "R2", "CLOSED", 25);
        // neither counts in the refunded amount
        assertOrder(no, "SUCCESS", 0);
        JsonPath merchant =
                new JsonPath(MerchantClient.a().get(TestChannels.WX, no).text());
        assertEquals(List.of("R1", "R2"), merchant.getList("refunds.outRefundNo"));
        assertEquals(List.of(40, 25), merchant.getList("refunds.amount"));
        assertEquals(List.of("CLOSED", "CLOSED"), merchant.getList("refunds.status"));
        assertEquals(0, merchant.getInt("refundedAmount"));
    }

    @Test
    void aWechatV3RefundKeepsItsAmountWhateverItsStatus() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX3).outTradeNo(no).amount(500).paid(txn).insert();

        // first seen PROCESSING: created with the amount asked for, counted only once it succeeds
        assertEquals(
                204,
                postV3("REFUND.PROCESSING", v3Refund(no, txn, "R-P", 70, "PROCESSING"))
                        .statusCode());
        assertRefund(no, "R-P", "PROCESSING", 70);
        assertOrder(no, "SUCCESS", 0);
        assertEquals(
                204,
                postV3("REFUND.SUCCESS", v3Refund(no, txn, "R-P", 70, "SUCCESS"))
                        .statusCode());
        assertRefund(no, "R-P", "SUCCESS", 70);
        assertOrder(no, "PARTIALLY_REFUNDED", 70);

        assertEquals(
                204,
                postV3("REFUND.ABNORMAL", v3Refund(no, txn, "R-A", 100, "ABNORMAL"))
                        .statusCode());
        assertRefund(no, "R-A", "ABNORMAL", 100);
        assertEquals(
                204,
                postV3("REFUND.CLOSED", v3Refund(no, txn, "R-C", 60, "CLOSED")).statusCode());
        assertRefund(no, "R-C", "CLOSED", 60);
        assertEquals(60L, lastNotification(no).get("amount_minor"));

        assertOrder(no, "PARTIALLY_REFUNDED", 70);
        String admin = RestAssured.given()
                .auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX3 + "/" + no)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertEquals(List.of(70, 100, 60), new JsonPath(admin).getList("refunds.amount"));
        assertEquals(List.of("SUCCESS", "ABNORMAL", "CLOSED"), new JsonPath(admin).getList("refunds.status"));
    }

    @Test
    void alipayRunningTotalsInOrderAndOutOfOrder() throws Exception {
        String no = newNo();
        String trade = "2026" + no;
        anOrder()
                .channel(TestChannels.ALI)
                .outTradeNo(no)
                .amount(1000)
                .paid(trade)
                .insert();

        // out of order: the second refund's notice (running total 5.00) arrives first
        assertEquals(
                200,
                postAlipay(alipayRefund(no, trade, "B2", "5.00", "TRADE_SUCCESS"))
                        .statusCode());
        assertOrder(no, "PARTIALLY_REFUNDED", 500);
        assertEquals(500L, refund(no, "B2").get("amount_minor"));
        // then the first refund's (running total 2.00): a new refund that adds nothing, never a phantom refund
        assertEquals(
                200,
                postAlipay(alipayRefund(no, trade, "B1", "2.00", "TRADE_SUCCESS"))
                        .statusCode());
        assertOrder(no, "PARTIALLY_REFUNDED", 500);
        assertEquals(0L, refund(no, "B1").get("amount_minor"));
        // the first one again: a duplicate
        assertEquals(
                200,
                postAlipay(alipayRefund(no, trade, "B1", "2.00", "TRADE_SUCCESS"))
                        .statusCode());
        assertEquals("DUPLICATE", lastNotification(no).get("outcome"));
        // the rest as TRADE_CLOSED with refund_fee and no out_biz_no: a full refund named by its notify_id
        assertEquals(
                200,
                postAlipay(alipayRefund(no, trade, null, "10.00", "TRADE_CLOSED"))
                        .statusCode());
        assertOrder(no, "REFUNDED", 1000);
        assertEquals(3, Db.count("SELECT count(*) FROM refunds WHERE out_trade_no = ?", no));
        assertEquals(
                1000,
                Db.count("SELECT sum(amount_minor) FROM refunds WHERE out_trade_no = ?", no),
                "the refunds add up to the refunded amount");
    }

    @Test
    void twentyIdenticalRefundNoticesAtOnceCountOnce() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(100).paid(txn).insert();
        byte[] body = WechatV2Fixtures.refundBody(refundInfo(no, txn, "R1", 30, "SUCCESS"), TestChannels.WX_KEY);
        var answers = new ArrayList<CompletableFuture<HttpResponse<String>>>();
        for (int i = 0; i < 20; i++) {
            answers.add(http.sendAsync(v2Request(body), HttpResponse.BodyHandlers.ofString()));
        }
        var statuses = new TreeMap<Integer, Integer>();
        for (var a : answers) {
            statuses.merge(a.get().statusCode(), 1, Integer::sum);
        }
        assertTrue(statuses.keySet().stream().allMatch(s -> s == 200 || s == 503), statuses.toString());
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));
        assertOrder(no, "PARTIALLY_REFUNDED", 30);
        assertEquals(1, Db.count("SELECT count(*) FROM refunds WHERE out_trade_no = ?", no));
    }

    @Test
    void twoRefundsAtOnceWhoseSumExceedsTheAmountApplyOneOnly() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX3).outTradeNo(no).amount(100).paid(txn).insert();
        var first = WechatV3Fixtures.refund(no, txn, 100, 60);
        first.put("out_refund_no", "R-A");
        var second = WechatV3Fixtures.refund(no, txn, 100, 60);
        second.put("out_refund_no", "R-B");
        var a = http.sendAsync(v3Request("REFUND.SUCCESS", first), HttpResponse.BodyHandlers.ofString());
        var b = http.sendAsync(v3Request("REFUND.SUCCESS", second), HttpResponse.BodyHandlers.ofString());
        List<Integer> statuses = List.of(a.get().statusCode(), b.get().statusCode());
        assertTrue(statuses.contains(204) && statuses.contains(422), statuses.toString());
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE out_trade_no = ? AND reason = 'REFUND_EXCEEDS_AMOUNT'",
                        no));
        assertOrder(no, "PARTIALLY_REFUNDED", 60);
    }

    @Test
    void aGenuineRefundAfterFiveHundredReplaysIsApplied() throws Exception {
        String no = newNo();
        String txn = "4200" + no;
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(100).paid(txn).insert();
        ReplayFloodTest.fillToTheCap(no);
        // and the cap is known to this replica (a replay past it was answered from a read)
        byte[] paid = WechatV2Fixtures.body(
                WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, txn, 100), TestChannels.WX_KEY, "MD5"));
        assertEquals(
                200,
                http.send(v2Request(paid), HttpResponse.BodyHandlers.ofString()).statusCode());

        assertEquals(200, postV2(refundInfo(no, txn, "R1", 40, "SUCCESS")).statusCode());
        assertOrder(no, "PARTIALLY_REFUNDED", 40);
        assertEquals("SUCCESS", refund(no, "R1").get("status"));
        assertEquals(500, ReplayFloodTest.recorded(no), "past the cap the row is not stored");
    }

    // ---- helpers ----

    static String newNo() {
        return "RI" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    static Map<String, String> refundInfo(String no, String txn, String outRefundNo, long refundFee, String status) {
        var info = WechatV2Fixtures.refundInfo(no, txn, 100, status);
        info.put("out_refund_no", outRefundNo);
        info.put("refund_id", "RID-" + outRefundNo);
        info.put("refund_fee", Long.toString(refundFee));
        return info;
    }

    static Map<String, Object> v3Refund(String no, String txn, String outRefundNo, long amount, String status) {
        var r = WechatV3Fixtures.refund(no, txn, 500, amount);
        r.put("out_refund_no", outRefundNo);
        r.put("refund_status", status);
        if (!status.equals("SUCCESS")) {
            r.remove("success_time");
        }
        return r;
    }

    static void assertRefund(String no, String outRefundNo, String status, long amount) {
        Map<String, Object> row = refund(no, outRefundNo);
        assertEquals(status, row.get("status"), outRefundNo);
        assertEquals(amount, row.get("amount_minor"), outRefundNo + ": the refund's amount");
    }

    static Map<String, String> alipayRefund(String no, String trade, String outBizNo, String refundFee, String status) {
        var p = AlipayFixtures.paid(no, trade, "10.00");
        p.put("trade_status", status);
        p.put("refund_fee", refundFee);
        p.put("gmt_refund", "2026-01-03 10:00:00.123");
        p.put("notify_id", "N-" + UUID.randomUUID());
        if (outBizNo != null) {
            p.put("out_biz_no", outBizNo);
        }
        return p;
    }

    HttpResponse<String> postV2(Map<String, String> info) throws Exception {
        return http.send(
                v2Request(WechatV2Fixtures.refundBody(info, TestChannels.WX_KEY)),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postV3(String eventType, Map<String, Object> resource) throws Exception {
        return http.send(v3Request(eventType, resource), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postAlipay(Map<String, String> params) throws Exception {
        return http.send(
                request("/notify/alipay/" + TestChannels.ALI, AlipayFixtures.signedBody(params), Map.of()),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpRequest v2Request(byte[] body) {
        return request("/notify/wechatpay/" + TestChannels.WX, body, Map.of());
    }

    static HttpRequest v3Request(String eventType, Map<String, Object> resource) {
        WechatV3Fixtures.Delivery d = WechatV3Fixtures.signed(WechatV3Fixtures.body(eventType, resource));
        return request("/notify/wechatpay-v3/" + TestChannels.WX3, d.body(), d.headers());
    }

    static HttpRequest request(String path, byte[] body, Map<String, String> headers) {
        var b = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        return b.build();
    }

    static void assertOrder(String no, String state, long refunded) {
        Map<String, Object> row = Db.row("SELECT state, refunded_minor FROM orders WHERE out_trade_no = ?", no);
        assertEquals(state, row.get("state"));
        assertEquals(refunded, row.get("refunded_minor"));
    }

    static Map<String, Object> refund(String no, String outRefundNo) {
        return Db.row(
                "SELECT status, amount_minor, refund_id, succeeded_at FROM refunds WHERE out_trade_no = ?"
                        + " AND out_refund_no = ?",
                no,
                outRefundNo);
    }

    static Map<String, Object> lastNotification(String no) {
        return Db.row(
                "SELECT outcome, reason, amount_minor FROM notifications WHERE out_trade_no = ? ORDER BY id DESC LIMIT 1",
                no);
    }
}
