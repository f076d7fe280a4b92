package io.paynotify.intake;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.paynotify.testing.TestChannels.ALI_ISV;
import static io.paynotify.testing.TestChannels.ALI_ISV_APPID;
import static io.paynotify.testing.TestChannels.AUTH_A;
import static io.paynotify.testing.TestChannels.AUTH_B;
import static io.paynotify.testing.TestChannels.SUB_A;
import static io.paynotify.testing.TestChannels.SUB_B;
import static io.paynotify.testing.TestChannels.WX3_SP;
import static io.paynotify.testing.TestChannels.WX_SP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.http.KeysetCursor;
import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.OrderBuilder.Order;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The cross-tenant rules of docs/api.md "Account modes", over real HTTP against the real database: on the WeChat Pay
 * service-provider channels (v2 {@link TestChannels#WX_SP}, v3 {@link TestChannels#WX3_SP}) and the Alipay ISV channel
 * ({@link TestChannels#ALI_ISV}), one provider key verifies every sub-merchant's notices, so a genuine notice of
 * sub-merchant A naming sub-merchant B's order must never pay, close or refund it: {@code ACCOUNT_MISMATCH}, the
 * failure ack ({@code 422}), the order flagged once, nothing applied.
 *
 * <p>Each case fires {@link #EACH} identical copies of every kind of delivery (B's genuine one, A's naming B's order,
 * an unknown sub-merchant's, A's own for A's order) all at once, interleaved, then once more each in turn (the
 * provider's retry of whatever was answered 503 by the admission limit or the deadline), and counts the rows: one
 * APPLIED row, one state change, one refund row, one event of each kind, every cross-tenant row an ACCOUNT_MISMATCH.
 * A cross-tenant notice here differs from the genuine one only in its sub-merchant (same transaction id and amount),
 * so that the sub-merchant check is the only rule that can stop it. The events of B's order (the attention flag that
 * A's notice raised included) never reach the client limited to sub-merchant A ({@link TestChannels#CLIENT_SP_A}),
 * neither as a webhook delivery nor in its pull list, while A's own order's do.
 */
@QuarkusTest
class CrossTenantTest {

    /** Identical concurrent copies of each kind of delivery in a storm. */
    static final int EACH = 16;

    /** A sub-merchant of the service provider that no order names. */
    static final String SUB_UNKNOWN = "1900000999";

    static final MerchantClient PLATFORM = new MerchantClient(TestChannels.CLIENT_SP, TestChannels.CLIENT_SP_SECRET);
    static final MerchantClient ONLY_A = new MerchantClient(TestChannels.CLIENT_SP_A, TestChannels.CLIENT_SP_A_SECRET);

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    // ---- WeChat Pay v2, service provider

    @Test
    void v2AnotherSubMerchantsPaymentNeverPaysTheOrder() throws Exception {
        Order b = anOrder().channel(WX_SP).subMerchant(SUB_B, null).insert();
        Order a = anOrder().channel(WX_SP).subMerchant(SUB_A, null).insert();
        String txn = txn();
        String txnA = txn();
        Kind genuine = kind("B's own", v2(WechatV2Fixtures.partnerPaid(b.outTradeNo(), txn, 100, SUB_B)), 200);
        Kind fromA =
                kind("A's, naming B's order", v2(WechatV2Fixtures.partnerPaid(b.outTradeNo(), txn, 100, SUB_A)), 422);
        Kind unknown = kind(
                "an unknown sub-merchant's",
                v2(WechatV2Fixtures.partnerPaid(b.outTradeNo(), txn(), 100, SUB_UNKNOWN)),
                422);
        Kind ownA = kind("A's own", v2(WechatV2Fixtures.partnerPaid(a.outTradeNo(), txnA, 100, SUB_A)), 200);

        storm(genuine, fromA, unknown, ownA);

        assertPaidOnceAndFlagged(b, txn, genuine, fromA, unknown);
        assertPaidOnce(a, txnA, ownA);
        assertEventsReachOnlyTheirSubMerchantsClients(b, a);
    }

    @Test
    void v2AnotherSubMerchantsRefundNeverRefundsTheOrder() throws Exception {
        String txn = txn();
        Order b = anOrder().channel(WX_SP).subMerchant(SUB_B, null).paid(txn).insert();
        var info = WechatV2Fixtures.refundInfo(b.outTradeNo(), txn, 100, "SUCCESS");
        info.put("refund_fee", "40");
        info.put("settlement_refund_fee", "40");
        // A's genuine refund of its own trade of the same number: its transaction id is A's (req_info names no
        // sub-merchant; docs/api.md "Account modes": the transaction id and amount bind a v2 refund to its order)
        var infoA = new LinkedHashMap<>(info);
        infoA.put("transaction_id", txn());
        Kind genuine = kind("B's own", v2(WechatV2Fixtures.partnerRefundBody(info, SUB_B)), 200);
        // the outer sub_mch_id is not signed: naming A there decides nothing, the refund is still B's
        Kind relabelled = kind("B's, outer sub_mch_id A", v2(WechatV2Fixtures.partnerRefundBody(info, SUB_A)), 200);
        Kind fromA = kind("A's, naming B's order", v2(WechatV2Fixtures.partnerRefundBody(infoA, SUB_A)), 422);

        storm(genuine, relabelled, fromA);

        assertOutcomes(fromA, Set.of("ANOMALY REFUND_TRANSACTION_MISMATCH"));
        assertRefundedOnce(b, 40, "REFUND_TRANSACTION_MISMATCH", genuine, relabelled);
    }

    @Test
    void v2APaymentWithoutItsSubMerchantIsRefusedAndNotRecorded() throws Exception {
        Order b = anOrder().channel(WX_SP).subMerchant(SUB_B, null).insert();
        byte[] body = WechatV2Fixtures.partnerPayment(b.outTradeNo(), txn(), 100, SUB_B)
                .without("sub_mch_id")
                .signedWith(TestChannels.WX_SP_KEY, "MD5");
        assertEquals(400, send(v2(body)).statusCode());
        assertNothingRecordedOrChanged(b);
    }

    // ---- WeChat Pay v3, service provider

    @Test
    void v3AnotherSubMerchantsPaymentNeverPaysTheOrder() throws Exception {
        Order b = anOrder().channel(WX3_SP).subMerchant(SUB_B, null).insert();
        Order a = anOrder().channel(WX3_SP).subMerchant(SUB_A, null).insert();
        String txn = txn();
        String txnA = txn();
        Kind genuine = kind("B's own", v3(WechatV3Fixtures.partnerPaid(b.outTradeNo(), txn, 100, SUB_B)), 204);
        Kind fromA =
                kind("A's, naming B's order", v3(WechatV3Fixtures.partnerPaid(b.outTradeNo(), txn, 100, SUB_A)), 422);
        Kind unknown = kind(
                "an unknown sub-merchant's",
                v3(WechatV3Fixtures.partnerPaid(b.outTradeNo(), txn(), 100, SUB_UNKNOWN)),
                422);
        Kind ownA = kind("A's own", v3(WechatV3Fixtures.partnerPaid(a.outTradeNo(), txnA, 100, SUB_A)), 204);

        storm(genuine, fromA, unknown, ownA);

        assertPaidOnceAndFlagged(b, txn, genuine, fromA, unknown);
        assertPaidOnce(a, txnA, ownA);
        assertEventsReachOnlyTheirSubMerchantsClients(b, a);
    }

    @Test
    void v3AnotherSubMerchantsRefundNeverRefundsTheOrder() throws Exception {
        String txn = txn();
        Order b = anOrder().channel(WX3_SP).subMerchant(SUB_B, null).paid(txn).insert();
        Kind genuine =
                kind("B's own", v3(v3Refund(WechatV3Fixtures.partnerRefund(b.outTradeNo(), txn, 100, 40, SUB_B))), 204);
        Kind fromA = kind(
                "A's, naming B's order",
                v3(v3Refund(WechatV3Fixtures.partnerRefund(b.outTradeNo(), txn, 100, 40, SUB_A))),
                422);

        storm(genuine, fromA);

        assertOutcomes(fromA, Set.of("ANOMALY ACCOUNT_MISMATCH"));
        assertRefundedOnce(b, 40, "ACCOUNT_MISMATCH", genuine);
    }

    @Test
    void v3APaymentWithoutItsSubMerchantIsRefusedAndNotRecorded() throws Exception {
        Order b = anOrder().channel(WX3_SP).subMerchant(SUB_B, null).insert();
        var r = WechatV3Fixtures.partnerTransaction(b.outTradeNo(), txn(), 100, SUB_B);
        r.remove("sub_mchid");
        var d = WechatV3Fixtures.partnerSignedAt(
                WechatV3Fixtures.partnerBody("TRANSACTION.SUCCESS", r),
                java.time.Instant.now().getEpochSecond());
        assertEquals(400, send(v3(d)).statusCode());
        assertNothingRecordedOrChanged(b);
    }

    @Test
    void anotherSubAppIdOfTheSameSubMerchantNeverPaysAnOrderThatNamesOne() throws Exception {
        // docs/api.md "Account modes": where both the order and the notice name a sub_appid, they must agree
        Order v3 =
                anOrder().channel(WX3_SP).subMerchant(SUB_B, "wxsubappb0000001").insert();
        String txn = txn();
        var r = WechatV3Fixtures.partnerTransaction(v3.outTradeNo(), txn, 100, SUB_B);
        r.put("sub_appid", "wxsubappb0000002");
        Kind other3 = kind(
                "v3, another sub_appid",
                v3(WechatV3Fixtures.partnerSignedAt(
                        WechatV3Fixtures.partnerBody("TRANSACTION.SUCCESS", r),
                        java.time.Instant.now().getEpochSecond())),
                422);
        r.put("sub_appid", "wxsubappb0000001");
        Kind same3 = kind(
                "v3, its sub_appid",
                v3(WechatV3Fixtures.partnerSignedAt(
                        WechatV3Fixtures.partnerBody("TRANSACTION.SUCCESS", r),
                        java.time.Instant.now().getEpochSecond())),
                204);
        storm(other3, same3);
        assertPaidOnceAndFlagged(v3, txn, same3, other3);

        Order v2 =
                anOrder().channel(WX_SP).subMerchant(SUB_B, "wxsubappb0000001").insert();
        String txn2 = txn();
        Kind other2 = kind(
                "v2, another sub_appid",
                v2(WechatV2Fixtures.partnerPayment(v2.outTradeNo(), txn2, 100, SUB_B)
                        .with("sub_appid", "wxsubappb0000002")
                        .signedWith(TestChannels.WX_SP_KEY, "MD5")),
                422);
        Kind same2 = kind(
                "v2, its sub_appid",
                v2(WechatV2Fixtures.partnerPayment(v2.outTradeNo(), txn2, 100, SUB_B)
                        .with("sub_appid", "wxsubappb0000001")
                        .signedWith(TestChannels.WX_SP_KEY, "MD5")),
                200);
        storm(other2, same2);
        assertPaidOnceAndFlagged(v2, txn2, same2, other2);
    }

    // ---- Alipay, ISV

    @Test
    void isvAnotherMerchantsPaymentNeverPaysTheOrder() throws Exception {
        Order b = anOrder().channel(ALI_ISV).subMerchant(AUTH_B, null).insert();
        Order a = anOrder().channel(ALI_ISV).subMerchant(AUTH_A, null).insert();
        String trade = txn();
        String tradeA = txn();
        Kind genuine = kind("B's own", alipay(isv(b.outTradeNo(), trade, AUTH_B).body()), 200);
        Kind fromA = kind(
                "A's, naming B's order",
                alipay(isv(b.outTradeNo(), trade, AUTH_A).body()),
                422);
        // without auth_app_id a notice names no merchant: it matches no order
        Kind nobody = kind(
                "without auth_app_id", alipay(isv(b.outTradeNo(), trade, null).body()), 422);
        Kind ownA = kind("A's own", alipay(isv(a.outTradeNo(), tradeA, AUTH_A).body()), 200);

        storm(genuine, fromA, nobody, ownA);

        assertPaidOnceAndFlagged(b, trade, genuine, fromA, nobody);
        assertPaidOnce(a, tradeA, ownA);
        assertEventsReachOnlyTheirSubMerchantsClients(b, a);
    }

    @Test
    void isvAnotherMerchantsCloseNeverClosesTheOrder() throws Exception {
        Order b = anOrder().channel(ALI_ISV).subMerchant(AUTH_B, null).insert();
        String trade = txn();
        Kind fromA = kind(
                "A's close, naming B's order",
                alipay(isv(b.outTradeNo(), trade, AUTH_A).status("TRADE_CLOSED").body()),
                422);

        storm(fromA);

        assertOutcomes(fromA, Set.of("ANOMALY ACCOUNT_MISMATCH"));
        assertEquals("PENDING", order(b).get("state"), "not closed");
        assertEquals(List.of("ACCOUNT_MISMATCH"), order(b).get("attention"));
        assertEquals(Map.of("order.attention", 1L), events(b));

        // B's own close closes it, once
        Kind genuine = kind(
                "B's close",
                alipay(isv(b.outTradeNo(), trade, AUTH_B).status("TRADE_CLOSED").body()),
                200);
        storm(genuine);
        assertOutcomes(genuine, Set.of("APPLIED", "DUPLICATE"));
        assertEquals(1, rows(genuine, "APPLIED"));
        assertEquals("CLOSED", order(b).get("state"));
        assertEquals(Map.of("order.attention", 1L, "order.closed", 1L), events(b));
    }

    @Test
    void isvAnotherMerchantsRefundNeverRefundsTheOrder() throws Exception {
        String trade = txn();
        Order b = anOrder()
                .channel(ALI_ISV)
                .subMerchant(AUTH_B, null)
                .paidProviderStatus("TRADE_SUCCESS")
                .paid(trade)
                .insert();
        Kind genuine = kind("B's own", alipay(isvRefund(b.outTradeNo(), trade, AUTH_B)), 200);
        Kind fromA = kind("A's, naming B's order", alipay(isvRefund(b.outTradeNo(), trade, AUTH_A)), 422);

        storm(genuine, fromA);

        assertOutcomes(fromA, Set.of("ANOMALY ACCOUNT_MISMATCH"));
        assertRefundedOnce(b, 40, "ACCOUNT_MISMATCH", genuine);
    }

    @Test
    void aLimitedClientCannotClaimAnotherSubMerchantsOrderNumber() {
        // a create of B's order number for A: the 409 says only that the number is taken, never whose it is
        Order b = anOrder().channel(WX3_SP).subMerchant(SUB_B, null).insert();
        var taken = ONLY_A.create(
                "k-" + UUID.randomUUID(),
                "{\"channel\":\"" + WX3_SP + "\",\"outTradeNo\":\"" + b.outTradeNo()
                        + "\",\"amount\":100,\"subMerchantId\":\"" + SUB_A + "\"}");
        assertEquals(409, taken.status(), taken::toString);
        assertFalse(taken.text().contains(SUB_B), taken.text());
        assertFalse(taken.text().contains("\"state\""), taken.text());
        assertEquals(SUB_B, order(b).get("sub_merchant_id"), "B's order is unchanged");
        assertEquals(404, ONLY_A.get(WX3_SP, b.outTradeNo()).status());
    }

    // ---- the deliveries

    /** One kind of delivery: the request, the SHA-256 of its body (how its rows are found) and its expected ack. */
    record Kind(String name, HttpRequest request, byte[] sha256, int ack, Map<Integer, Integer> answers) {
        int acks() {
            return answers.getOrDefault(ack, 0);
        }

        @Override
        public String toString() {
            return name + " " + answers;
        }
    }

    record Wire(String path, byte[] body, Map<String, String> headers) {}

    static Kind kind(String name, Wire w, int ack) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://localhost:" + io.restassured.RestAssured.port + w.path()))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(w.body()));
        w.headers().forEach(b::header);
        return new Kind(name, b.build(), MessageDigest.getInstance("SHA-256").digest(w.body()), ack, new TreeMap<>());
    }

    static Wire v2(byte[] body) {
        return new Wire("/notify/wechatpay/" + WX_SP, body, Map.of("Content-Type", "text/xml"));
    }

    static Wire v3(WechatV3Fixtures.Delivery d) {
        return new Wire("/notify/wechatpay-v3/" + WX3_SP, d.body(), d.headers());
    }

    static Wire alipay(byte[] body) {
        return new Wire(
                "/notify/alipay/" + ALI_ISV,
                body,
                Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"));
    }

    static WechatV3Fixtures.Delivery v3Refund(Map<String, Object> resource) {
        return WechatV3Fixtures.partnerSignedAt(
                WechatV3Fixtures.partnerBody("REFUND.SUCCESS", resource),
                java.time.Instant.now().getEpochSecond());
    }

    /** A TRADE_SUCCESS of 1.00 on the ISV channel for that merchant ({@code auth_app_id}; null: none). */
    static AlipayFixtures.Notice isv(String no, String trade, String authAppId) {
        return AlipayFixtures.aNotice()
                .orderNo(no)
                .tradeNo(trade)
                .set("app_id", ALI_ISV_APPID)
                .set("auth_app_id", authAppId)
                .without("seller_id");
    }

    /** A refund of 0.40 of that trade, for that merchant. */
    static byte[] isvRefund(String no, String trade, String authAppId) {
        return isv(no, trade, authAppId)
                .set("out_biz_no", "RF-" + no)
                .set("refund_fee", "0.40")
                .set("gmt_refund", "2026-01-03 10:00:00")
                .body();
    }

    static HttpResponse<String> send(Wire w) throws Exception {
        return HTTP.send(kind("one", w, 0).request(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * {@link #EACH} copies of every kind, interleaved and released together; every answer is the kind's ack or 503.
     * Then each kind once more, in turn, until it gets its ack (a provider retries a 503): so every kind has been
     * decided at least once, whatever the admission limit refused during the storm.
     */
    static void storm(Kind... kinds) throws Exception {
        int total = EACH * kinds.length;
        ExecutorService pool = Executors.newFixedThreadPool(total);
        try {
            CountDownLatch ready = new CountDownLatch(total);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                Kind k = kinds[i % kinds.length];
                answers.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return HTTP.send(k.request(), HttpResponse.BodyHandlers.ofString());
                }));
            }
            assertTrue(ready.await(30, TimeUnit.SECONDS), "all senders ready");
            go.countDown();
            for (int i = 0; i < total; i++) {
                Kind k = kinds[i % kinds.length];
                HttpResponse<String> r = answers.get(i).get(60, TimeUnit.SECONDS);
                k.answers().merge(r.statusCode(), 1, Integer::sum);
                assertTrue(
                        r.statusCode() == k.ack() || r.statusCode() == 503,
                        () -> k.name() + ": " + r.statusCode() + " " + r.body());
            }
        } finally {
            pool.shutdownNow();
        }
        for (Kind k : kinds) {
            Awaitility.await(k.name() + " answered with its ack")
                    .atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        int status = HTTP.send(k.request(), HttpResponse.BodyHandlers.discarding())
                                .statusCode();
                        k.answers().merge(status, 1, Integer::sum);
                        assertTrue(status == k.ack() || status == 503, () -> k.name() + ": " + status);
                        return status == k.ack();
                    });
        }
        System.out.printf("cross-tenant storm: %s%n", List.of(kinds));
    }

    // ---- what the database holds

    /** Every delivery answered with an ack was recorded; none was recorded twice. */
    static long recorded(Kind k) {
        long rows = Db.count("SELECT count(*) FROM notifications WHERE raw_body_sha256 = ?", k.sha256());
        int sent = k.answers().values().stream().mapToInt(Integer::intValue).sum();
        assertTrue(rows >= k.acks() && rows <= sent, k + ": " + rows + " rows");
        return rows;
    }

    static long rows(Kind k, String outcome) {
        return Db.count(
                "SELECT count(*) FROM notifications WHERE raw_body_sha256 = ? AND outcome = ?", k.sha256(), outcome);
    }

    /** Each of the kind's rows has one of these outcomes ("OUTCOME" or "OUTCOME REASON"). */
    static void assertOutcomes(Kind k, Set<String> allowed) {
        recorded(k);
        Set<String> seen = new HashSet<>();
        for (var row : Db.rows("SELECT outcome, reason FROM notifications WHERE raw_body_sha256 = ?", k.sha256())) {
            seen.add(row.get("outcome") + (row.get("reason") == null ? "" : " " + row.get("reason")));
        }
        assertTrue(allowed.containsAll(seen), k + ": " + seen);
    }

    static Map<String, Object> order(Order o) {
        return Db.row(
                "SELECT state, transaction_id, refunded_minor, attention, sub_merchant_id FROM orders WHERE id = ?",
                o.id());
    }

    /** The order's events by type. */
    static Map<String, Long> events(Order o) {
        var byType = new TreeMap<String, Long>();
        for (var row : Db.rows("SELECT type, count(*) AS n FROM events WHERE order_id = ? GROUP BY type", o.id())) {
            byType.put((String) row.get("type"), ((Number) row.get("n")).longValue());
        }
        return byType;
    }

    /** Paid once, by the genuine notice; flagged once by the others, none of which applied anything. */
    static void assertPaidOnceAndFlagged(Order o, String txn, Kind genuine, Kind... others) {
        assertOutcomes(genuine, Set.of("APPLIED", "DUPLICATE"));
        assertEquals(1, rows(genuine, "APPLIED"), genuine + ": exactly one APPLIED row");
        for (Kind k : others) {
            assertOutcomes(k, Set.of("ANOMALY ACCOUNT_MISMATCH"));
        }
        assertEquals(
                1,
                Db.count("SELECT count(*) FROM notifications WHERE order_id = ? AND outcome = 'APPLIED'", o.id()),
                "one APPLIED row for the order in all");
        Map<String, Object> row = order(o);
        assertEquals("SUCCESS", row.get("state"));
        assertEquals(txn, row.get("transaction_id"));
        assertEquals(List.of("ACCOUNT_MISMATCH"), row.get("attention"), "flagged once");
        assertEquals(Map.of("order.attention", 1L, "order.paid", 1L), events(o));
    }

    static void assertPaidOnce(Order o, String txn, Kind genuine) {
        assertOutcomes(genuine, Set.of("APPLIED", "DUPLICATE"));
        assertEquals(1, rows(genuine, "APPLIED"));
        Map<String, Object> row = order(o);
        assertEquals("SUCCESS", row.get("state"));
        assertEquals(txn, row.get("transaction_id"));
        assertEquals(List.of(), row.get("attention"));
        assertEquals(Map.of("order.paid", 1L), events(o));
    }

    /** One refund row, applied once, by the genuine notices; the order flagged once with that reason. */
    static void assertRefundedOnce(Order o, long refunded, String flag, Kind... genuine) {
        long applied = 0;
        for (Kind k : genuine) {
            assertOutcomes(k, Set.of("APPLIED", "DUPLICATE"));
            applied += rows(k, "APPLIED");
        }
        assertEquals(1, applied, "exactly one APPLIED refund row");
        assertEquals(1, Db.count("SELECT count(*) FROM refunds WHERE order_id = ?", o.id()), "one refund row");
        assertEquals(
                refunded,
                ((Number) Db.row("SELECT amount_minor FROM refunds WHERE order_id = ?", o.id())
                                .get("amount_minor"))
                        .longValue());
        Map<String, Object> row = order(o);
        assertEquals("PARTIALLY_REFUNDED", row.get("state"));
        assertEquals(refunded, ((Number) row.get("refunded_minor")).longValue());
        assertEquals(List.of(flag), row.get("attention"));
        assertEquals(Map.of("order.attention", 1L, "order.refunded", 1L), events(o));
    }

    static void assertNothingRecordedOrChanged(Order o) {
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?",
                        o.channel(),
                        o.outTradeNo()));
        Map<String, Object> row = order(o);
        assertEquals("PENDING", row.get("state"));
        assertEquals(List.of(), row.get("attention"));
        assertEquals(Map.of(), events(o));
    }

    // ---- who receives the events

    /**
     * B's order's events (its payment, and the flag that A's notices raised on it) reach no delivery of the client
     * limited to A and are not in its pull list; A's order's are, in both; the platform's client pulls all of them.
     */
    static void assertEventsReachOnlyTheirSubMerchantsClients(Order b, Order a) {
        List<String> bEvents = eventIds(b);
        List<String> aEvents = eventIds(a);
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM deliveries WHERE order_id = ? AND client_id = ?",
                        b.id(),
                        TestChannels.CLIENT_SP_A),
                "no delivery of B's events to A's client");
        assertEquals(
                aEvents.size(),
                Db.count(
                        "SELECT count(*) FROM deliveries WHERE order_id = ? AND client_id = ?",
                        a.id(),
                        TestChannels.CLIENT_SP_A),
                "every event of A's order is delivered to A's client");

        long first = Db.count("SELECT min(id) FROM events WHERE order_id IN (?, ?)", a.id(), b.id());
        String cursor = KeysetCursor.encode("events", first - 1);
        var all = new ArrayList<String>(bEvents);
        all.addAll(aEvents);
        // the platform's list shows them all once visible; A's list, read after that, is then complete too
        assertTrue(pullAll(PLATFORM, cursor, all).containsAll(all));
        List<String> seenByA = pullAll(ONLY_A, cursor, aEvents);
        assertTrue(seenByA.containsAll(aEvents), seenByA::toString);
        for (String id : bEvents) {
            assertFalse(seenByA.contains(id), "B's event " + id + " in A's pull list");
        }
    }

    static List<String> eventIds(Order o) {
        var ids = new ArrayList<String>();
        for (var row : Db.rows("SELECT event_id FROM events WHERE order_id = ? ORDER BY id", o.id())) {
            ids.add((String) row.get("event_id"));
        }
        return ids;
    }

    /** Pulls from the cursor to the end of the list, again until every expected event was seen. */
    static List<String> pullAll(MerchantClient client, String cursor, List<String> expected) {
        return Awaitility.await("events visible in the pull list")
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            var seen = new ArrayList<String>();
                            String at = cursor;
                            while (true) {
                                var page = client.request("GET", "/api/v1/events?limit=500&after=" + at)
                                        .send();
                                assertEquals(200, page.status(), page::toString);
                                List<String> ids = page.json().getList("items.id");
                                if (ids.isEmpty()) {
                                    return seen;
                                }
                                seen.addAll(ids);
                                at = page.json().getString("next");
                            }
                        },
                        seen -> seen.containsAll(expected));
    }

    /** Unique, in a shape every provider's fields accept (digits, 28 long). */
    static String txn() {
        return "4200" + String.format("%024d", UUID.randomUUID().getMostSignificantBits() & Long.MAX_VALUE);
    }
}
