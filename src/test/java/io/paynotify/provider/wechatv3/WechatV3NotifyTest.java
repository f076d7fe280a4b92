package io.paynotify.provider.wechatv3;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.provider.wechatv2.RawHttp;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code POST /notify/wechatpay-v3/{channel}} over real HTTP and the real database: what only the route and the
 * intake decide (docs/api.md "Notify API"). Every verification, freshness, decryption and classification case runs
 * without HTTP in {@code WechatV3AdapterTest} and {@code WechatV3ClassificationTest}.
 */
@QuarkusTest
class WechatV3NotifyTest {

    static final String PATH = "/notify/wechatpay-v3/" + TestChannels.WX3;
    static final String FAIL_400 = "{\"code\":\"FAIL\",\"message\":\"invalid request\"}";
    static final String FAIL_401 = "{\"code\":\"FAIL\",\"message\":\"verification failed\"}";
    static final String FAIL_404 = "{\"code\":\"FAIL\",\"message\":\"unknown channel\"}";
    static final String FAIL_413 = "{\"code\":\"FAIL\",\"message\":\"body too large\"}";

    @TestHTTPResource("/")
    URL base;

    static String newOrderNo() {
        return "V3" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    static String txnId(String outTradeNo) {
        return "42000" + outTradeNo.substring(2, 26);
    }

    static String pendingOrder(long amount) {
        String no = newOrderNo();
        Db.insertOrder(TestChannels.WX3, "WECHATPAY_V3", no, amount);
        return no;
    }

    static Response send(Delivery d) {
        return send(d, PATH);
    }

    static Response send(Delivery d, String path) {
        RequestSpecification spec = given().body(d.body());
        d.headers().forEach(spec::header);
        return spec.post(path).then().extract().response();
    }

    static long stored(String outTradeNo) {
        return Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", outTradeNo);
    }

    static long allNotifications() {
        return Db.count("SELECT count(*) FROM notifications");
    }

    static Map<String, Object> order(String outTradeNo) {
        return Db.row(
                "SELECT state, transaction_id, paid_at, attention FROM orders WHERE channel = ?"
                        + " AND out_trade_no = ?",
                TestChannels.WX3,
                outTradeNo);
    }

    static Map<String, Object> lastNotification(String outTradeNo) {
        List<Map<String, Object>> rows = Db.rows(
                "SELECT outcome, reason, provider_status, transaction_id,"
                        + " amount_minor, currency, notify_id, raw_body, decoded FROM notifications"
                        + " WHERE channel = ? AND out_trade_no = ? ORDER BY id DESC",
                TestChannels.WX3,
                outTradeNo);
        assertTrue(!rows.isEmpty(), "no notification stored");
        return rows.get(0);
    }

    /** The failure ack with that status and body, and nothing stored for the order, which stays PENDING. */
    static void assertRefused(Response r, int status, String body, String outTradeNo) {
        assertEquals(status, r.statusCode(), r.asString());
        assertEquals("application/json", r.contentType());
        assertEquals(body, r.asString());
        assertEquals(0, stored(outTradeNo));
        assertEquals("PENDING", order(outTradeNo).get("state"));
    }

    @Test
    void aPaidNoticeMovesThePendingOrderToSuccessAndIsAnswered204WithoutBody() {
        String no = pendingOrder(100);
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 100);
        r.put("attach", "订单附言：深圳市腾讯科技 ½ ✓");
        String nonce = WechatV3Fixtures.random(12);
        String ct = WechatV3Fixtures.encrypt(nonce, "transaction", WechatV3Fixtures.json(r));
        // signed now: the route's clock is the real one
        Delivery d = WechatV3Fixtures.signed(WechatV3Fixtures.json(WechatV3Fixtures.envelope(
                "TRANSACTION.SUCCESS", "支付成功（测试）", WechatV3Fixtures.resource(ct, nonce, "transaction"))));

        RequestSpecification spec = given().body(d.body());
        d.headers().forEach(spec::header);
        spec.post(PATH)
                .then()
                .statusCode(204)
                .header("Content-Type", nullValue())
                .body(emptyString());

        var order = order(no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(txnId(no), order.get("transaction_id"));
        assertEquals(Instant.parse("2018-06-08T02:34:56Z"), order.get("paid_at"));
        assertEquals(List.of(), order.get("attention"));
        var n = lastNotification(no);
        assertEquals("APPLIED", n.get("outcome"));
        assertNull(n.get("reason"));
        assertEquals("SUCCESS", n.get("provider_status"));
        assertEquals(txnId(no), n.get("transaction_id"));
        assertEquals(100L, n.get("amount_minor"));
        assertEquals("CNY", n.get("currency"));
        assertTrue(((String) n.get("notify_id")).startsWith("EV-"));
        // verified and stored as the exact bytes received, Chinese summary and all
        assertArrayEquals(d.body(), (byte[]) n.get("raw_body"));
        assertTrue(((String) n.get("decoded")).contains("订单附言：深圳市腾讯科技 ½ ✓"));

        // WeChat delivers again: recorded as a duplicate, still acknowledged
        send(d).then().statusCode(204);
        assertEquals("DUPLICATE", lastNotification(no).get("outcome"));
        assertEquals(2, stored(no));
        assertEquals("SUCCESS", order(no).get("state"));
    }

    @Test
    void aServiceProvidersNoticeOnThisDirectChannelIsAnAccountMismatchRecordedAndFlagged() {
        // a sub-merchant's payment as WeChat shapes it in service-provider mode (sp_mchid/sub_mchid, no mchid/appid),
        // sealed and signed with this direct channel's own keys so that only its shape differs
        String no = pendingOrder(100);
        Map<String, Object> r = WechatV3Fixtures.partnerTransaction(no, txnId(no), 100, TestChannels.SUB_A);
        Delivery d = WechatV3Fixtures.signed(WechatV3Fixtures.body("TRANSACTION.SUCCESS", r));

        Response answer = send(d);
        assertEquals(422, answer.statusCode(), answer.asString());
        assertEquals("application/json", answer.contentType());
        assertEquals("{\"code\":\"FAIL\",\"message\":\"not accepted\"}", answer.asString());
        var n = lastNotification(no);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("ACCOUNT_MISMATCH", n.get("reason"));
        assertEquals(txnId(no), n.get("transaction_id"));
        assertTrue(((String) n.get("decoded")).contains("\"sub_mchid\":\"" + TestChannels.SUB_A + "\""));
        var order = order(no);
        assertEquals("PENDING", order.get("state"), "nothing applied");
        assertNull(order.get("transaction_id"));
        assertEquals(List.of("ACCOUNT_MISMATCH"), order.get("attention"));
        assertEquals(
                1, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ? AND type = 'order.attention'", no));
        assertEquals(
                0, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ? AND type <> 'order.attention'", no));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nope", TestChannels.WX, TestChannels.WX_HMAC, TestChannels.ALI, "WX3-TEST"})
    void anUnknownChannelOrAChannelOfAnotherProviderIs404(String channel) {
        String no = pendingOrder(90);
        long before = allNotifications();
        Response r = send(WechatV3Fixtures.paid(no, txnId(no), 90), "/notify/wechatpay-v3/" + channel);
        assertRefused(r, 404, FAIL_404, no);
        assertEquals(before, allNotifications());
    }

    @Test
    void anUnauthenticatedDeliveryIs401WithTheFixedAckAndIsNotStored() {
        String no = pendingOrder(25);
        assertRefused(
                send(WechatV3Fixtures.paid(no, txnId(no), 25)
                        .withHeader("Wechatpay-Serial", "PUB_KEY_ID_0000000000000024101100397200000007")),
                401,
                FAIL_401,
                no);
    }

    @Test
    void aHeaderSentTwiceReachesTheAdapterAsTwoValuesAndIs401() {
        // the adapter refuses a repeated header (WechatV3AdapterTest); this pins that the route passes every value
        String no = pendingOrder(21);
        Delivery d = WechatV3Fixtures.paid(no, txnId(no), 21);
        RequestSpecification spec = given().body(d.body());
        d.headers().forEach(spec::header);
        spec.header("Wechatpay-Serial", d.headers().get("Wechatpay-Serial"));
        assertRefused(spec.post(PATH).then().extract().response(), 401, FAIL_401, no);
    }

    @Test
    void aMalformedEnvelopeIs400WithTheFixedAckAndIsNotStored() {
        String no = pendingOrder(40);
        long before = allNotifications();
        assertRefused(send(WechatV3Fixtures.signed("{\"id\":\"EV-1\",")), 400, FAIL_400, no);
        assertEquals(before, allNotifications());
    }

    @Test
    void aBodyOver64KibIs413WithTheFixedAck() throws Exception {
        long before = allNotifications();
        for (boolean chunked : new boolean[] {false, true}) {
            RawHttp.Answer a = RawHttp.post(base.getPort(), PATH, new byte[64 * 1024 + 1], chunked);
            assertEquals(413, a.status(), a.headers());
            assertEquals(FAIL_413, a.body());
            assertTrue(a.headers().toLowerCase().contains("content-type: application/json"), a.headers());
        }
        assertEquals(before, allNotifications());
    }
}
