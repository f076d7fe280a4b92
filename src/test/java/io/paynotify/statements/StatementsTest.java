package io.paynotify.statements;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The statements of CONTRACT.md §11 through the admin API, with uploaded bill files on real PostgreSQL: every row of
 * the difference table, re-reconciling (in place, resolutions kept, notes), bills uploaded in any order, the upload's
 * error codes and the admin calls' answers.
 */
@QuarkusTest
class StatementsTest {

    @jakarta.inject.Inject
    StatementMetrics metrics;

    static final String AUTH = "Bearer " + TestChannels.ADMIN_TOKEN;
    static final String WX = TestChannels.WX_STMT;
    static final String APP = TestChannels.WX_STMT_APPID;
    static final String MCH = TestChannels.WX_STMT_MCH;
    static final String SP = TestChannels.WX_STMT_SP;
    static final String ALI = TestChannels.ALI_STMT;

    /** Each test takes days of its own, 10 apart, far in the past (uploads accept any day). */
    private static final AtomicInteger DAYS = new AtomicInteger();

    static LocalDate newDay() {
        return LocalDate.of(2024, 1, 10).plusDays(10L * DAYS.incrementAndGet());
    }

    static String no() {
        return "ST" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    static String txn() {
        return "42" + UUID.randomUUID().toString().replace("-", "").substring(0, 26);
    }

    /** Noon Beijing time of a day. */
    static Instant noon(LocalDate day) {
        return day.atTime(LocalTime.NOON).toInstant(ZoneOffset.ofHours(8));
    }

    static BillFixtures.Wechat wechat(LocalDate day) {
        return new BillFixtures.Wechat(day, APP, MCH);
    }

    static Response upload(String channel, LocalDate day, byte[] bill) {
        return given().header("Authorization", AUTH)
                .contentType("application/octet-stream")
                .body(bill)
                .post("/admin/statements/" + channel + "/" + day);
    }

    static JsonPath ok(Response r) {
        assertEquals(200, r.statusCode(), r.asString());
        return r.jsonPath();
    }

    static JsonPath day(String channel, LocalDate day) {
        return ok(given().header("Authorization", AUTH).get("/admin/statements/" + channel + "/" + day));
    }

    /** The day's differences as "KIND outTradeNo[/outRefundNo] STATUS". */
    static List<String> differences(String channel, LocalDate day) {
        var out = new ArrayList<String>();
        if (given().header("Authorization", AUTH)
                        .get("/admin/statements/" + channel + "/" + day)
                        .statusCode()
                == 404) {
            return out;
        }
        for (Map<String, Object> d : day(channel, day).<Map<String, Object>>getList("differences")) {
            out.add(d.get("kind") + " " + d.get("outTradeNo")
                    + (d.get("outRefundNo") == null ? "" : "/" + d.get("outRefundNo")) + " " + d.get("status"));
        }
        return out;
    }

    static Map<String, Object> difference(String channel, LocalDate day, String kind, String outTradeNo) {
        for (Map<String, Object> d : day(channel, day).<Map<String, Object>>getList("differences")) {
            if (d.get("kind").equals(kind) && d.get("outTradeNo").equals(outTradeNo)) {
                return d;
            }
        }
        throw new AssertionError("no " + kind + " of " + outTradeNo + " on " + day);
    }

    static List<String> attention(String channel, String outTradeNo) {
        @SuppressWarnings("unchecked")
        List<String> a = (List<String>)
                Db.row("SELECT attention FROM orders WHERE channel = ? AND out_trade_no = ?", channel, outTradeNo)
                        .get("attention");
        return a;
    }

    static long attentionEvents(String channel, String outTradeNo) {
        return Db.count(
                "SELECT count(*) FROM events WHERE channel = ? AND out_trade_no = ? AND type = 'order.attention'",
                channel,
                outTradeNo);
    }

    // ------------------------------------------------------------------ a reconciled day

    @Test
    void aBillThatMatchesTheLedgerIsReconciledWithItsTotalsAndForeignLines() {
        LocalDate d = newDay();
        String a = no();
        String t = txn();
        anOrder().channel(WX).outTradeNo(a).amount(4200).paid(t).paidAt(noon(d)).insert();
        byte[] bill = wechat(d)
                .payment(a, t, "42.00")
                // not this service's order numbers (statements-order-pattern), and another app's trade
                .payment("SHOP-1", txn(), "5.00")
                .payment(no(), txn(), "6.00", "wxotherapp0000001", "0")
                .gzip();

        JsonPath s = ok(upload(WX, d, bill));
        assertEquals("RECONCILED", s.getString("status"));
        assertEquals("UPLOAD", s.getString("source"));
        assertEquals(1, s.getInt("payments.count"));
        assertEquals(4200, s.getInt("payments.amount"));
        assertEquals(2, s.getInt("foreign.count"));
        assertEquals(1100, s.getInt("foreign.amount"));
        assertEquals(0, s.getInt("openDifferences"));
        assertEquals("1.80000", s.getString("fees"));
        assertEquals(64, s.getString("fileSha256").length());
        assertEquals(null, s.getString("error"));
        assertEquals(0, s.getInt("attempts"));
        assertTrue(differences(WX, d).isEmpty());

        // the same bytes again change nothing
        JsonPath again = ok(upload(WX, d, bill));
        assertEquals(s.getString("fetchedAt"), again.getString("fetchedAt"));
        assertEquals(
                1, Db.count("SELECT count(*) FROM statement_line_sets WHERE channel = ? AND bill_date = ?", WX, d));
    }

    // ------------------------------------------------------------------ the difference table, line kinds

    @Test
    void everyLineKindIsRaisedWithItsAmountsAndFlagsItsOrderOnce() {
        LocalDate d = newDay();
        String unknown = no();
        String pending = no();
        String closed = no();
        String otherTxn = no();
        String amount = no();
        String txnC = txn();
        String txnD = txn();
        anOrder().channel(WX).outTradeNo(pending).amount(100).insert();
        anOrder().channel(WX).outTradeNo(closed).amount(100).closed().insert();
        anOrder()
                .channel(WX)
                .outTradeNo(otherTxn)
                .amount(100)
                .paid(txnC)
                .paidAt(noon(d))
                .insert();
        anOrder()
                .channel(WX)
                .outTradeNo(amount)
                .amount(200)
                .paid(txnD)
                .paidAt(noon(d))
                .insert();
        byte[] bill = wechat(d)
                .payment(unknown, txn(), "1.00")
                .payment(pending, txn(), "1.00")
                .payment(closed, txn(), "1.00")
                .payment(otherTxn, txn(), "1.00")
                .payment(amount, txnD, "3.00")
                .bytes();

        JsonPath s = ok(upload(WX, d, bill));
        assertEquals("DIFFERENCES", s.getString("status"));
        assertEquals(5, s.getInt("openDifferences"));
        assertEquals(
                new TreeSet<>(List.of(
                        "UNKNOWN_ORDER " + unknown + " OPEN",
                        "MISSING_LOCALLY " + pending + " OPEN",
                        "MISSING_LOCALLY " + closed + " OPEN",
                        "TRANSACTION_MISMATCH " + otherTxn + " OPEN",
                        "AMOUNT_MISMATCH " + amount + " OPEN")),
                new TreeSet<>(differences(WX, d)));

        Map<String, Object> u = difference(WX, d, "UNKNOWN_ORDER", unknown);
        assertEquals(100, u.get("billAmount"));
        assertEquals(null, u.get("localAmount"));
        assertEquals(null, u.get("localState"));
        Map<String, Object> m = difference(WX, d, "AMOUNT_MISMATCH", amount);
        assertEquals(300, m.get("billAmount"));
        assertEquals(200, m.get("localAmount"));
        assertEquals("SUCCESS", m.get("localState"));
        assertEquals(txnD, m.get("transactionId"));
        assertEquals(null, m.get("subMerchantId"));
        assertEquals("PENDING", difference(WX, d, "MISSING_LOCALLY", pending).get("localState"));
        assertEquals("CLOSED", difference(WX, d, "MISSING_LOCALLY", closed).get("localState"));

        // a bill never changes an order: it flags it, once per reason, with its order.attention event
        assertEquals(List.of("STATEMENT_MISSING_LOCALLY"), attention(WX, pending));
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM orders WHERE channel = ? AND out_trade_no = ?", WX, pending)
                        .get("state"));
        assertEquals(List.of("STATEMENT_AMOUNT_MISMATCH"), attention(WX, amount));
        assertEquals(List.of("STATEMENT_TRANSACTION_MISMATCH"), attention(WX, otherTxn));
        assertEquals(1, attentionEvents(WX, pending));

        // a new bill of the day (other bytes) updates the differences in place and flags nothing again
        long id = ((Number) m.get("id")).longValue();
        byte[] second = wechat(d)
                .payment(unknown, txn(), "1.00")
                .payment(pending, txn(), "1.00")
                .payment(closed, txn(), "1.00")
                .payment(otherTxn, txn(), "1.00")
                .payment(amount, txnD, "4.00")
                .bytes();
        ok(upload(WX, d, second));
        Map<String, Object> m2 = difference(WX, d, "AMOUNT_MISMATCH", amount);
        assertEquals(id, ((Number) m2.get("id")).longValue());
        assertEquals(400, m2.get("billAmount"));
        assertEquals(1, attentionEvents(WX, pending));
        assertEquals(1, attentionEvents(WX, amount));
        assertEquals(
                5, Db.count("SELECT count(*) FROM statement_differences WHERE channel = ? AND bill_date = ?", WX, d));
    }

    @Test
    void onAPartnerChannelALineUnderAnotherSubMerchantIsAccountMismatchAndAnUnknownSubMerchantIsForeign() {
        LocalDate d = newDay();
        String mine = no();
        String t = txn();
        anOrder()
                .channel(SP)
                .outTradeNo(mine)
                .amount(100)
                .paid(t)
                .paidAt(noon(d))
                .subMerchant(TestChannels.SUB_A, null)
                .insert();
        anOrder().channel(SP).amount(100).subMerchant(TestChannels.SUB_B, null).insert();
        byte[] bill = new BillFixtures.Wechat(d, TestChannels.WX_STMT_SP_APPID, TestChannels.WX_STMT_SP_MCH)
                .payment(mine, t, "1.00", TestChannels.WX_STMT_SP_APPID, TestChannels.SUB_B)
                .payment(no(), txn(), "2.00", TestChannels.WX_STMT_SP_APPID, "1900009999")
                .bytes();
        JsonPath s = ok(upload(SP, d, bill));
        assertEquals(1, s.getInt("foreign.count"));
        Map<String, Object> diff = difference(SP, d, "ACCOUNT_MISMATCH", mine);
        assertEquals(TestChannels.SUB_B, diff.get("subMerchantId"));
        assertEquals(100, diff.get("localAmount"));
        assertEquals(List.of("STATEMENT_ACCOUNT_MISMATCH"), attention(SP, mine));
    }

    // ------------------------------------------------------------------ refunds

    static void refund(String channel, String outTradeNo, String outRefundNo, long amount, Instant succeededAt) {
        Db.update(
                "INSERT INTO refunds (order_id, channel, out_trade_no, out_refund_no, amount_minor, status,"
                        + " succeeded_at, created_at, updated_at) SELECT id, channel, out_trade_no, ?, ?, 'SUCCESS', ?,"
                        + " now(), now() FROM orders WHERE channel = ? AND out_trade_no = ?",
                outRefundNo,
                amount,
                java.sql.Timestamp.from(succeededAt),
                channel,
                outTradeNo);
        Db.update(
                "UPDATE orders SET refunded_minor = refunded_minor + ?, state = CASE WHEN refunded_minor + ? ="
                        + " amount_minor THEN 'REFUNDED' ELSE 'PARTIALLY_REFUNDED' END WHERE channel = ? AND out_trade_no = ?",
                amount,
                amount,
                channel,
                outTradeNo);
    }

    @Test
    void wechatRefundsAreComparedByRefundNumberAndALocalRefundMissingFromItsWindowIsRaised() {
        LocalDate d = newDay();
        String o = no();
        String t = txn();
        anOrder()
                .channel(WX)
                .outTradeNo(o)
                .amount(1000)
                .paid(t)
                .paidAt(noon(d.minusDays(3)))
                .insert();
        refund(WX, o, "R1", 100, noon(d));
        refund(WX, o, "R4", 200, noon(d));
        byte[] bill = wechat(d)
                .refund(o, t, "R1", "1.00", "SUCCESS")
                .refund(o, t, "R2", "0.50", "PROCESSING")
                .refund(o, t, "R3", "0.70", "REFUNDCLOSE")
                .bytes();
        ok(upload(WX, d, bill));
        assertEquals(List.of("REFUND_MISSING_LOCALLY " + o + "/R2 OPEN"), differences(WX, d));
        Map<String, Object> r2 = difference(WX, d, "REFUND_MISSING_LOCALLY", o);
        assertEquals(50, r2.get("billAmount"));
        assertEquals(null, r2.get("localAmount"));

        // R4 succeeded on d and is in no bill: raised once d .. d+2 are all reconciled, not before
        ok(upload(WX, d.plusDays(1), wechat(d.plusDays(1)).bytes()));
        assertEquals(1, differences(WX, d).size());
        ok(upload(WX, d.plusDays(2), wechat(d.plusDays(2)).bytes()));
        var kinds = new TreeSet<>(differences(WX, d));
        assertTrue(kinds.contains("REFUND_MISSING_AT_PROVIDER " + o + "/R4 OPEN"), kinds.toString());
        Map<String, Object> r4 = null;
        for (Map<String, Object> x : day(WX, d).<Map<String, Object>>getList("differences")) {
            if ("R4".equals(x.get("outRefundNo"))) {
                r4 = x;
            }
        }
        assertNotNull(r4);
        assertEquals(null, r4.get("billAmount"));
        assertEquals(200, r4.get("localAmount"));
        assertEquals(
                List.of("STATEMENT_REFUND_MISSING_LOCALLY", "STATEMENT_REFUND_MISSING_AT_PROVIDER"), attention(WX, o));
    }

    @Test
    void alipayRefundsAreComparedPerOrderOverAllStoredBills() {
        LocalDate d = newDay();
        String o = no();
        String t = "2024" + txn().substring(0, 24);
        anOrder()
                .channel(ALI)
                .outTradeNo(o)
                .amount(1000)
                .paid(t)
                .paidAt(noon(d.minusDays(5)))
                .insert();
        refund(ALI, o, "Q1", 300, noon(d));
        var bill = new BillFixtures.Alipay(d, TestChannels.ALI_STMT_SELLER)
                .refund(o, t, "Q1", "3.00")
                .refund(o, t, "Q2", "2.00");
        ok(upload(ALI, d, bill.totals(0, 2).zip()));
        Map<String, Object> diff = difference(ALI, d, "REFUND_MISSING_LOCALLY", o);
        assertEquals(null, diff.get("outRefundNo"));
        assertEquals(500, diff.get("billAmount"));
        assertEquals(300, diff.get("localAmount"));
    }

    // ------------------------------------------------------------------ missing at provider, any order

    /** Uploads the bills of d-1 … d+2 in this order (offsets), the payment of {@code seen} on d+1. */
    static List<String> missingAtProvider(int[] order) {
        LocalDate d = newDay();
        String missing = no();
        String seen = no();
        String late = no();
        String tm = txn();
        String ts = txn();
        anOrder()
                .channel(WX)
                .outTradeNo(missing)
                .amount(700)
                .paid(tm)
                .paidAt(noon(d))
                .insert();
        anOrder()
                .channel(WX)
                .outTradeNo(seen)
                .amount(800)
                .paid(ts)
                .paidAt(noon(d))
                .insert();
        var results = new ArrayList<String>();
        for (int i = 0; i < order.length; i++) {
            LocalDate day = d.plusDays(order[i]);
            var bill = wechat(day);
            if (order[i] == 1) {
                bill.payment(seen, ts, "8.00");
            }
            ok(upload(WX, day, bill.bytes()));
            if (i < order.length - 1) {
                assertTrue(differences(WX, d).isEmpty(), "raised before every day of the window is reconciled");
            }
        }
        for (String x : differences(WX, d)) {
            results.add(x.replace(missing, "<missing>"));
        }
        Map<String, Object> diff = difference(WX, d, "MISSING_AT_PROVIDER", missing);
        assertEquals(null, diff.get("billAmount"));
        assertEquals(700, diff.get("localAmount"));
        assertEquals(tm, diff.get("transactionId"));
        assertEquals(List.of("STATEMENT_MISSING_AT_PROVIDER"), attention(WX, missing));
        assertEquals(List.of(), attention(WX, seen));
        return results;
    }

    @Test
    void missingAtProviderIsRaisedOnceEveryDayOfItsWindowIsReconciledWhateverTheOrderOfTheBills() {
        var forward = missingAtProvider(new int[] {-1, 0, 1, 2});
        var backward = missingAtProvider(new int[] {2, 1, 0, -1});
        var mixed = missingAtProvider(new int[] {1, -1, 2, 0});
        assertEquals(List.of("MISSING_AT_PROVIDER <missing> OPEN"), forward);
        assertEquals(forward, backward);
        assertEquals(forward, mixed);
    }

    // ------------------------------------------------------------------ re-reconciling, resolving

    @Test
    void reconcilingADayAgainKeepsResolutionsAndResolvesWhatNoLongerArises() {
        LocalDate d = newDay();
        String unknown = no();
        String pending = no();
        String amount = no();
        String ta = txn();
        String tp = txn();
        anOrder().channel(WX).outTradeNo(pending).amount(100).insert();
        anOrder()
                .channel(WX)
                .outTradeNo(amount)
                .amount(100)
                .paid(ta)
                .paidAt(noon(d))
                .insert();
        ok(upload(
                WX,
                d,
                wechat(d)
                        .payment(unknown, txn(), "1.00")
                        .payment(pending, tp, "1.00")
                        .payment(amount, ta, "2.00")
                        .bytes()));
        long unknownId = ((Number) difference(WX, d, "UNKNOWN_ORDER", unknown).get("id")).longValue();

        JsonPath resolved = ok(given().header("Authorization", AUTH)
                .contentType("application/json")
                .body("{\"note\":\"refunded to the buyer by hand\"}")
                .post("/admin/statement-differences/" + unknownId + "/resolve"));
        assertEquals("RESOLVED", resolved.getString("status"));
        assertEquals("refunded to the buyer by hand", resolved.getString("note"));
        assertNotNull(resolved.getString("resolvedAt"));
        // again: 200, unchanged
        JsonPath again = ok(given().header("Authorization", AUTH)
                .contentType("application/json")
                .body("{\"note\":\"another note\"}")
                .post("/admin/statement-differences/" + unknownId + "/resolve"));
        assertEquals("refunded to the buyer by hand", again.getString("note"));
        assertEquals(resolved.getString("resolvedAt"), again.getString("resolvedAt"));

        // the pending order is paid by its notification meanwhile; the next bill has the right amount
        Db.update(
                "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = ? WHERE channel = ? AND out_trade_no = ?",
                tp,
                java.sql.Timestamp.from(noon(d)),
                WX,
                pending);
        ok(upload(
                WX,
                d,
                wechat(d)
                        .payment(unknown, txn(), "1.00")
                        .payment(pending, tp, "1.00")
                        .payment(amount, ta, "1.00")
                        .bytes()));
        Map<String, Object> u = difference(WX, d, "UNKNOWN_ORDER", unknown);
        assertEquals(unknownId, ((Number) u.get("id")).longValue());
        assertEquals("RESOLVED", u.get("status"));
        assertEquals("refunded to the buyer by hand", u.get("note"));
        Map<String, Object> p = difference(WX, d, "MISSING_LOCALLY", pending);
        assertEquals("RESOLVED", p.get("status"));
        assertEquals("paid by notification", p.get("note"));
        Map<String, Object> a = difference(WX, d, "AMOUNT_MISMATCH", amount);
        assertEquals("RESOLVED", a.get("status"));
        assertEquals("no longer in the bill", a.get("note"));
        assertEquals("RECONCILED", day(WX, d).getString("status"));
        // attention is append-only
        assertEquals(List.of("STATEMENT_MISSING_LOCALLY"), attention(WX, pending));
    }

    // ------------------------------------------------------------------ what an upload refuses

    @Test
    void anUnreadableOrForeignBillIs400AndChangesNothing() {
        LocalDate d = newDay();
        assertRefused(d, wechat(d.minusDays(1)).payment(no(), txn(), "1.00").bytes(), "WRONG_DAY");
        assertRefused(
                d,
                new BillFixtures.Wechat(d, APP, "19999999")
                        .payment(no(), txn(), "1.00")
                        .bytes(),
                "WRONG_ACCOUNT");
        assertRefused(d, wechat(d).payment(no(), txn(), "1.00").summaryCount(2).bytes(), "TRUNCATED");
        assertRefused(d, wechat(d).raw("`" + d + " 10:00:00,`" + APP).bytes(), "UNPARSEABLE");
        assertRefused(d, new byte[] {0x1f, (byte) 0x8b, 1, 2, 3}, "UNPARSEABLE");
        given().header("Authorization", AUTH)
                .get("/admin/statements/" + WX + "/" + d)
                .then()
                .statusCode(404);
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM statement_lines l JOIN statement_line_sets s ON s.id = l.set_id"
                                + " WHERE s.channel = ? AND s.bill_date = ?",
                        WX,
                        d));

        // a good bill, then a bad one: the day keeps the good one
        ok(upload(WX, d, wechat(d).bytes()));
        assertRefused(d, wechat(d).payment(no(), txn(), "1.00").summaryCount(5).bytes(), "TRUNCATED");
        assertEquals("RECONCILED", day(WX, d).getString("status"));
        assertEquals(0, day(WX, d).getInt("payments.count"));
    }

    static void assertRefused(LocalDate d, byte[] bill, String code) {
        Response r = upload(WX, d, bill);
        assertEquals(400, r.statusCode(), r.asString());
        assertTrue(r.asString().contains(code), r.asString());
    }

    @Test
    void anUploadOver64MibIs413() {
        LocalDate d = newDay();
        // declared over the limit: refused on the headers alone, before any byte of the body is sent
        int port = io.restassured.RestAssured.port;
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            String head = "POST /admin/statements/" + WX + "/" + d + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: " + AUTH + "\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: " + (64L * 1024 * 1024 + 1) + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.setSoTimeout(10_000);
            String status =
                    new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream())).readLine();
            assertEquals("HTTP/1.1 413 Request Entity Too Large", status);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        given().header("Authorization", AUTH)
                .get("/admin/statements/" + WX + "/" + d)
                .then()
                .statusCode(404);
    }

    @Test
    void theAdminCallsCheckTheirParameters() {
        String auth = StatementsTest.AUTH;
        given().header("Authorization", auth)
                .get("/admin/statements/nope/2024-01-01")
                .then()
                .statusCode(404);
        given().header("Authorization", auth)
                .get("/admin/statements/" + WX + "/2024-1-01")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .get("/admin/statements/" + WX + "/2024-02-30")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .get("/admin/statements?status=NOPE")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .get("/admin/statements?channel=nope")
                .then()
                .statusCode(404);
        given().header("Authorization", auth)
                .get("/admin/statement-differences?kind=NOPE")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .get("/admin/statement-differences?status=NOPE")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .get("/admin/statement-differences?limit=501")
                .then()
                .statusCode(400);
        given().get("/admin/statements").then().statusCode(401);
        // fetch: today, the future, more than 90 days back, a channel without statements-enabled
        LocalDate today = io.paynotify.core.statement.Windows.day(Instant.now());
        given().header("Authorization", auth)
                .post("/admin/statements/" + WX + "/" + today + "/fetch")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .post("/admin/statements/" + WX + "/" + today.plusDays(1) + "/fetch")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .post("/admin/statements/" + WX + "/" + today.minusDays(91) + "/fetch")
                .then()
                .statusCode(400);
        given().header("Authorization", auth)
                .post("/admin/statements/" + SP + "/" + today.minusDays(1) + "/fetch")
                .then()
                .statusCode(409);
        // upload on an isv channel
        given().header("Authorization", auth)
                .contentType("application/octet-stream")
                .body(new byte[] {1})
                .post("/admin/statements/" + TestChannels.ALI_ISV + "/2024-01-01")
                .then()
                .statusCode(409);
        // resolve: the note, an unknown id
        given().header("Authorization", auth)
                .contentType("application/json")
                .body("{\"note\":\"x\"}")
                .post("/admin/statement-differences/999999999/resolve")
                .then()
                .statusCode(404);
        for (String body : new String[] {"{\"note\":\"\"}", "{}", "{\"note\":\"" + "x".repeat(501) + "\"}", "nope"}) {
            given().header("Authorization", auth)
                    .contentType("application/json")
                    .body(body)
                    .post("/admin/statement-differences/1/resolve")
                    .then()
                    .statusCode(400);
        }
    }

    @Test
    void theListsAreKeysetPagesInTheirOrder() {
        LocalDate d = newDay();
        ok(upload(
                WX,
                d,
                wechat(d)
                        .payment(no(), txn(), "1.00")
                        .payment(no(), txn(), "1.00")
                        .bytes()));
        ok(upload(WX, d.plusDays(1), wechat(d.plusDays(1)).bytes()));
        JsonPath first = ok(given().header("Authorization", AUTH).get("/admin/statements?channel=" + WX + "&limit=1"));
        assertEquals(1, first.getList("items").size());
        String next = first.getString("next");
        assertNotNull(next);
        JsonPath second = ok(given().header("Authorization", AUTH)
                .get("/admin/statements?channel=" + WX + "&limit=1&after=" + next));
        assertTrue(LocalDate.parse(first.getString("items[0].billDate"))
                .isAfter(LocalDate.parse(second.getString("items[0].billDate"))));
        JsonPath diffs = ok(given().header("Authorization", AUTH)
                .get("/admin/statement-differences?channel=" + WX + "&kind=UNKNOWN_ORDER&status=OPEN&limit=1"));
        long id1 = diffs.getLong("items[0].id");
        JsonPath diffs2 = ok(given().header("Authorization", AUTH)
                .get("/admin/statement-differences?channel=" + WX + "&kind=UNKNOWN_ORDER&limit=1&after="
                        + diffs.getString("next")));
        assertTrue(diffs2.getLong("items[0].id") < id1);
        ok(given().header("Authorization", AUTH).get("/admin/statements?status=DIFFERENCES&channel=" + WX))
                .getList("items")
                .forEach(x -> assertEquals("DIFFERENCES", ((Map<?, ?>) x).get("status")));
    }

    @Test
    void theMetricsCountRunsAndLinesAndReadTheGaugesFromPostgresql() {
        String before = io.paynotify.testing.Management.scrape();
        double runs = io.paynotify.testing.Management.sum(
                before, "paynotify_statements_total", Map.of("channel", SP, "status", "DIFFERENCES"));
        double lines = io.paynotify.testing.Management.sum(
                before, "paynotify_statement_lines_total", Map.of("channel", SP, "type", "PAYMENT"));
        LocalDate d = LocalDate.of(2030, 1, 1).minusDays(DAYS.incrementAndGet());
        anOrder().channel(SP).amount(100).subMerchant(TestChannels.SUB_A, null).insert();
        ok(upload(
                SP,
                d,
                new BillFixtures.Wechat(d, TestChannels.WX_STMT_SP_APPID, TestChannels.WX_STMT_SP_MCH)
                        .payment(no(), txn(), "1.00", TestChannels.WX_STMT_SP_APPID, TestChannels.SUB_A)
                        .bytes()));
        metrics.refresh();
        String after = io.paynotify.testing.Management.scrape();
        assertEquals(
                runs + 1,
                io.paynotify.testing.Management.sum(
                        after, "paynotify_statements_total", Map.of("channel", SP, "status", "DIFFERENCES")));
        assertEquals(
                lines + 1,
                io.paynotify.testing.Management.sum(
                        after, "paynotify_statement_lines_total", Map.of("channel", SP, "type", "PAYMENT")));
        assertTrue(io.paynotify.testing.Management.sum(
                        after, "paynotify_statement_differences_open", Map.of("channel", SP, "kind", "UNKNOWN_ORDER"))
                >= 1);
        ok(upload(WX, d, wechat(d).bytes()));
        metrics.refresh();
        assertEquals(
                (double) io.paynotify.core.statement.Windows.start(d).getEpochSecond(),
                io.paynotify.testing.Management.sum(
                        io.paynotify.testing.Management.scrape(),
                        "paynotify_statement_last_reconciled_day_timestamp_seconds",
                        Map.of("channel", WX)),
                "the newest settled day of a statements-enabled channel");
        assertTrue(
                !after.contains("paynotify_statement_last_reconciled_day_timestamp_seconds{channel=\"" + SP + "\""),
                "no such gauge where bills are not fetched");
        assertTrue(after.contains("paynotify_statement_fetch_seconds"), "the fetch histogram is registered");
    }
}
