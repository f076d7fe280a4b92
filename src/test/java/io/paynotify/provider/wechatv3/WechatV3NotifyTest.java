package io.paynotify.provider.wechatv3;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code POST /notify/wechatpay-v3/{channel}} over real HTTP and the real database (CONTRACT.md §1, §2). */
@QuarkusTest
class WechatV3NotifyTest {

    static final String PATH = "/notify/wechatpay-v3/" + TestChannels.WX3;
    static final String FAIL_401 = "{\"code\":\"FAIL\",\"message\":\"verification failed\"}";
    static final String FAIL_400 = "{\"code\":\"FAIL\",\"message\":\"invalid request\"}";
    static final String FAIL_422 = "{\"code\":\"FAIL\",\"message\":\"not accepted\"}";

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

    static Delivery signedResource(String eventType, Map<String, Object> resourceFields) {
        return WechatV3Fixtures.signed(WechatV3Fixtures.body(eventType, resourceFields));
    }

    /** Re-signs an envelope whose resource object the test built itself (to tamper with one part of it). */
    static Delivery signedEnvelope(Map<String, Object> resourceObject) {
        return WechatV3Fixtures.signed(
                WechatV3Fixtures.json(WechatV3Fixtures.envelope("TRANSACTION.SUCCESS", "支付成功", resourceObject)));
    }

    static long stored(String outTradeNo) {
        return Db.count(
                "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?",
                TestChannels.WX3,
                outTradeNo);
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

    static void assertRefused401(Delivery d, String outTradeNo) {
        Response r = send(d);
        assertEquals(401, r.statusCode());
        assertEquals("application/json", r.contentType());
        assertEquals(FAIL_401, r.asString());
        assertEquals(0, stored(outTradeNo));
        assertEquals("PENDING", order(outTradeNo).get("state"));
    }

    static void assertRefused400(Delivery d, String outTradeNo) {
        Response r = send(d);
        assertEquals(400, r.statusCode(), r.asString());
        assertEquals("application/json", r.contentType());
        assertEquals(FAIL_400, r.asString());
        if (outTradeNo != null) {
            assertEquals(0, stored(outTradeNo));
        }
    }

    // --- success ------------------------------------------------------------------------------------------------

    @Test
    void paidNoticeMovesPendingOrderToSuccessAndAnswers204WithoutBody() {
        String no = pendingOrder(100);
        Delivery d = WechatV3Fixtures.paid(no, txnId(no), 100);

        given().body(d.body())
                .headers(d.headers())
                .post(PATH)
                .then()
                .statusCode(204)
                .header("Content-Type", nullValue())
                .body(emptyString());

        var order = order(no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(txnId(no), order.get("transaction_id"));
        assertEquals(Instant.parse("2018-06-08T02:34:56Z"), order.get("paid_at"));
        var n = lastNotification(no);
        assertEquals("APPLIED", n.get("outcome"));
        assertNull(n.get("reason"));
        assertEquals("SUCCESS", n.get("provider_status"));
        assertEquals(txnId(no), n.get("transaction_id"));
        assertEquals(100L, n.get("amount_minor"));
        assertEquals("CNY", n.get("currency"));
        assertTrue(((String) n.get("notify_id")).startsWith("EV-"));
        assertArrayEquals(d.body(), (byte[]) n.get("raw_body"));
        assertTrue(((String) n.get("decoded")).contains("\"out_trade_no\":\"" + no + "\""));

        // WeChat delivers again: recorded as a duplicate, still acknowledged
        send(d).then().statusCode(204);
        assertEquals("DUPLICATE", lastNotification(no).get("outcome"));
        assertEquals(2, stored(no));
    }

    @Test
    void chineseSummaryAndFieldsAreVerifiedOnTheRawBytesAndStoredIntact() {
        String no = pendingOrder(2);
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 2);
        r.put("attach", "订单附言：深圳市腾讯科技 ½ ✓");
        String nonce = WechatV3Fixtures.random(12);
        String ct = WechatV3Fixtures.encrypt(nonce, "transaction", WechatV3Fixtures.json(r));
        var envelope = WechatV3Fixtures.envelope(
                "TRANSACTION.SUCCESS", "支付成功（测试）", WechatV3Fixtures.resource(ct, nonce, "transaction"));
        // written as WeChat does: UTF-8, no escapes, no trailing newline
        Delivery d = WechatV3Fixtures.signed(WechatV3Fixtures.json(envelope));
        assertTrue(d.bodyText().contains("支付成功（测试）"));

        send(d).then().statusCode(204);

        assertEquals("SUCCESS", order(no).get("state"));
        var n = lastNotification(no);
        assertArrayEquals(d.body(), (byte[]) n.get("raw_body"));
        assertTrue(((String) n.get("decoded")).contains("订单附言：深圳市腾讯科技 ½ ✓"));
    }

    @Test
    void absentOrEmptyAssociatedDataIsEmpty() {
        for (String aad : new String[] {null, ""}) {
            String no = pendingOrder(5);
            String nonce = WechatV3Fixtures.random(12);
            String ct = WechatV3Fixtures.encrypt(
                    nonce, aad, WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 5)));
            send(signedEnvelope(WechatV3Fixtures.resource(ct, nonce, aad)))
                    .then()
                    .statusCode(204);
            assertEquals("SUCCESS", order(no).get("state"));
        }
    }

    @Test
    void absentCurrencyIsCnyAndAbsentSignatureTypeIsAccepted() {
        String no = pendingOrder(8);
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 8);
        r.put("amount", Map.of("total", 8));
        send(signedResource("TRANSACTION.SUCCESS", r).withoutHeader("Wechatpay-Signature-Type"))
                .then()
                .statusCode(204);
        assertEquals("SUCCESS", order(no).get("state"));
        assertEquals("CNY", lastNotification(no).get("currency"));
    }

    // --- keys: rotation and the certificate-to-public-key migration -----------------------------------------------

    @Test
    void bothLiveSerialsAreAcceptedAndAnUnconfiguredOneIsRefused() {
        String byCert = pendingOrder(10);
        String byPubKey = pendingOrder(11);
        String byRemoved = pendingOrder(12);
        long now = Instant.now().getEpochSecond();

        send(WechatV3Fixtures.paid(byCert, txnId(byCert), 10)).then().statusCode(204);
        byte[] body = WechatV3Fixtures.body(
                        "TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(byPubKey, txnId(byPubKey), 11))
                .getBytes(StandardCharsets.UTF_8);
        send(WechatV3Fixtures.signed(body, TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_PUBKEY_ID, now))
                .then()
                .statusCode(204);
        assertEquals("SUCCESS", order(byCert).get("state"));
        assertEquals("SUCCESS", order(byPubKey).get("state"));

        // a certificate retired from the configuration (never configured here): its serial and key are refused
        byte[] removed = WechatV3Fixtures.body(
                        "TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(byRemoved, txnId(byRemoved), 12))
                .getBytes(StandardCharsets.UTF_8);
        assertRefused401(
                WechatV3Fixtures.signed(removed, TestKeys.STRANGER, "2C3B4A5968778695A4B3C2D1E0F1E2D3C4B5A697", now),
                byRemoved);
        // a live serial does not lend its name to another key
        assertRefused401(
                WechatV3Fixtures.signed(removed, TestKeys.STRANGER, TestChannels.WX3_PUBKEY_ID, now), byRemoved);
        assertRefused401(
                WechatV3Fixtures.signed(removed, TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_CERT_SERIAL, now),
                byRemoved);
    }

    // --- 401: headers, signature, freshness -----------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"Wechatpay-Timestamp", "Wechatpay-Nonce", "Wechatpay-Signature", "Wechatpay-Serial"})
    void missingHeaderIs401(String header) {
        String no = pendingOrder(20);
        assertRefused401(WechatV3Fixtures.paid(no, txnId(no), 20).withoutHeader(header), no);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Wechatpay-Timestamp",
                "Wechatpay-Nonce",
                "Wechatpay-Signature",
                "Wechatpay-Serial",
                "Wechatpay-Signature-Type"
            })
    void repeatedHeaderIs401(String header) {
        String no = pendingOrder(21);
        Delivery d = WechatV3Fixtures.paid(no, txnId(no), 21);
        RequestSpecification spec = given().body(d.body());
        d.headers().forEach(spec::header);
        // the same value twice: no header may be ambiguous, whatever a proxy did to it
        spec.header(header, d.headers().get(header));
        Response r = spec.post(PATH).then().extract().response();
        assertEquals(401, r.statusCode());
        assertEquals(FAIL_401, r.asString());
        assertEquals(0, stored(no));
    }

    @Test
    void otherSignatureTypeIs401() {
        String no = pendingOrder(22);
        assertRefused401(
                WechatV3Fixtures.paid(no, txnId(no), 22)
                        .withHeader("Wechatpay-Signature-Type", "WECHATPAY2-SM2-WITH-SM3"),
                no);
    }

    @Test
    void probeSignatureIs401() {
        String no = pendingOrder(23);
        assertRefused401(
                WechatV3Fixtures.paid(no, txnId(no), 23)
                        .withHeader(
                                "Wechatpay-Signature",
                                "WECHATPAY/SIGNTEST/" + Base64.getEncoder().encodeToString(new byte[256])),
                no);
    }

    @Test
    void badBase64SignatureIs401() {
        String no = pendingOrder(24);
        Delivery d = WechatV3Fixtures.paid(no, txnId(no), 24);
        assertRefused401(d.withHeader("Wechatpay-Signature", "%%" + d.headers().get("Wechatpay-Signature")), no);
        assertRefused401(
                d.withHeader(
                        "Wechatpay-Signature",
                        d.headers().get("Wechatpay-Signature").substring(1)),
                no);
    }

    @Test
    void unknownSerialIs401() {
        String no = pendingOrder(25);
        assertRefused401(
                WechatV3Fixtures.paid(no, txnId(no), 25)
                        .withHeader("Wechatpay-Serial", "PUB_KEY_ID_0000000000000024101100397200000007"),
                no);
    }

    @Test
    void timestampMoreThan300SecondsOffEitherWayIs401() {
        String no = pendingOrder(26);
        byte[] body = WechatV3Fixtures.body("TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(no, txnId(no), 26))
                .getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        assertRefused401(
                WechatV3Fixtures.signed(body, TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, now - 301), no);
        // 301 s ahead is refused only while the server is in the same second as this test: start a new second
        io.paynotify.testing.MerchantClient.startOfSecond();
        long future = Instant.now().getEpochSecond() + 301;
        assertRefused401(
                WechatV3Fixtures.signed(body, TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, future), no);
        // just inside the window, a few seconds of margin for the request's own travel
        send(WechatV3Fixtures.signed(body, TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, now + 290))
                .then()
                .statusCode(204);
        send(WechatV3Fixtures.signed(body, TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, now - 290))
                .then()
                .statusCode(204);
        assertEquals("SUCCESS", order(no).get("state"));
    }

    @Test
    void bodyReserialisedWithOtherSpacingUnderTheOriginalSignatureIs401() {
        String no = pendingOrder(27);
        Delivery d = WechatV3Fixtures.paid(no, txnId(no), 27);
        // what a framework that parses and re-emits the JSON would verify: the same content, other bytes
        String spaced = d.bodyText().replace("\":", "\": ").replace(",\"", ", \"");
        assertTrue(!spaced.equals(d.bodyText()));
        assertRefused401(d.withBody(spaced.getBytes(StandardCharsets.UTF_8)), no);
        assertRefused401(d.withBody((d.bodyText() + "\n").getBytes(StandardCharsets.UTF_8)), no);
        // the untouched body still verifies
        send(d).then().statusCode(204);
    }

    // --- 401: decryption -------------------------------------------------------------------------------------------

    @Test
    void tamperedResourceIs401AndNothingIsStored() {
        String no = pendingOrder(30);
        String plain = WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 30));
        String nonce = "uluk4a9R25RW";
        String ct = WechatV3Fixtures.encrypt(nonce, "transaction", plain);
        byte[] sealed = Base64.getDecoder().decode(ct);

        byte[] body = sealed.clone();
        body[5] ^= 0x01;
        byte[] tag = sealed.clone();
        tag[sealed.length - 3] ^= 0x40;
        String b64 = Base64.getEncoder().encodeToString(body);
        String tagB64 = Base64.getEncoder().encodeToString(tag);

        assertRefused401(signedEnvelope(WechatV3Fixtures.resource(b64, nonce, "transaction")), no);
        assertRefused401(signedEnvelope(WechatV3Fixtures.resource(tagB64, nonce, "transaction")), no);
        assertRefused401(signedEnvelope(WechatV3Fixtures.resource(ct, "uluk4a9R25RX", "transaction")), no);
        assertRefused401(signedEnvelope(WechatV3Fixtures.resource(ct, nonce, "refund")), no);
        assertRefused401(signedEnvelope(WechatV3Fixtures.resource(ct, nonce, null)), no);
        assertRefused401(signedEnvelope(WechatV3Fixtures.resource("%%%" + ct, nonce, "transaction")), no);
        // sealed with another key than the channel's API v3 key
        String otherKey = WechatV3Fixtures.encrypt(
                "b7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb".getBytes(StandardCharsets.UTF_8),
                nonce,
                "transaction",
                plain.getBytes(StandardCharsets.UTF_8));
        assertRefused401(signedEnvelope(WechatV3Fixtures.resource(otherKey, nonce, "transaction")), no);
        // only AEAD_AES_256_GCM
        Map<String, Object> otherAlgorithm = WechatV3Fixtures.resource(ct, nonce, "transaction");
        otherAlgorithm.put("algorithm", "AEAD_SM4_GCM");
        assertRefused401(signedEnvelope(otherAlgorithm), no);
        otherAlgorithm.put("algorithm", "AEAD_AES_128_GCM");
        assertRefused401(signedEnvelope(otherAlgorithm), no);
        Map<String, Object> numericAad = WechatV3Fixtures.resource(ct, nonce, null);
        numericAad.put("associated_data", 7);
        assertRefused401(signedEnvelope(numericAad), no);

        // the untampered resource then goes through
        send(signedEnvelope(WechatV3Fixtures.resource(ct, nonce, "transaction")))
                .then()
                .statusCode(204);
        assertEquals(1, stored(no));
    }

    // --- 400: envelope and resource -------------------------------------------------------------------------------

    @Test
    void malformedEnvelopeIs400() {
        String no = pendingOrder(40);
        assertRefused400(WechatV3Fixtures.signed("{\"id\":\"EV-1\","), no);
        assertRefused400(WechatV3Fixtures.signed("[]"), no);
        assertRefused400(WechatV3Fixtures.signed(""), no);
        assertRefused400(WechatV3Fixtures.signed("{\"id\":\"EV-1\"} {}"), no);
        String good = WechatV3Fixtures.body("TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(no, txnId(no), 40));
        // a key given twice: which one counts is not guessed
        assertRefused400(WechatV3Fixtures.signed(good.replaceFirst("\\{", "{\"event_type\":\"REFUND.SUCCESS\",")), no);
        // nesting far deeper than any real notice
        assertRefused400(
                WechatV3Fixtures.signed(good.replaceFirst("\\{", "{\"x\":" + "[".repeat(40) + "]".repeat(40) + ",")),
                no);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"id", "event_type", "resource", "resource.algorithm", "resource.ciphertext", "resource.nonce"})
    void missingEnvelopeFieldIs400(String field) {
        String no = pendingOrder(41);
        String nonce = WechatV3Fixtures.random(12);
        String ct = WechatV3Fixtures.encrypt(
                nonce, "transaction", WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 41)));
        Map<String, Object> resource = WechatV3Fixtures.resource(ct, nonce, "transaction");
        Map<String, Object> envelope = WechatV3Fixtures.envelope("TRANSACTION.SUCCESS", "支付成功", resource);
        if (field.startsWith("resource.")) {
            resource.remove(field.substring("resource.".length()));
        } else {
            envelope.remove(field);
        }
        assertRefused400(WechatV3Fixtures.signed(WechatV3Fixtures.json(envelope)), no);
        // present but empty or not a string is no better
        if (!field.equals("resource")) {
            if (field.startsWith("resource.")) {
                resource.put(field.substring("resource.".length()), "");
            } else {
                envelope.put(field, 12);
            }
            assertRefused400(WechatV3Fixtures.signed(WechatV3Fixtures.json(envelope)), no);
        }
    }

    @Test
    void resourceThatDecryptsButIsNoJsonObjectIs400() {
        String no = pendingOrder(42);
        for (String plain :
                new String[] {"not json", "[1,2]", "\"text\"", "{\"out_trade_no\":\"" + no + "\"", "{\"a\":1,\"a\":2}"
                }) {
            String nonce = WechatV3Fixtures.random(12);
            assertRefused400(
                    signedEnvelope(WechatV3Fixtures.resource(
                            WechatV3Fixtures.encrypt(nonce, "transaction", plain), nonce, "transaction")),
                    no);
        }
    }

    @Test
    void repeatedAmountInTheResourceIs400() {
        String no = pendingOrder(43);
        String plain = WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 43))
                .replace("\"amount\":{", "\"amount\":{\"total\":1},\"amount\":{");
        String nonce = WechatV3Fixtures.random(12);
        assertRefused400(
                signedEnvelope(WechatV3Fixtures.resource(
                        WechatV3Fixtures.encrypt(nonce, "transaction", plain), nonce, "transaction")),
                no);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"out_trade_no", "mchid", "appid", "trade_state", "transaction_id", "amount", "amount.total"})
    void missingResourceFieldIs400(String field) {
        String no = pendingOrder(44);
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 44);
        if (field.equals("amount.total")) {
            r.put("amount", Map.of("currency", "CNY"));
        } else {
            r.remove(field);
        }
        assertRefused400(signedResource("TRANSACTION.SUCCESS", r), no);
    }

    @Test
    void malformedAmountOnAPaidNoticeIs400() {
        for (Object total : new Object[] {"44", 44.0, -44, 4.4e1, 12_345_678_901L, "４４", true}) {
            String no = pendingOrder(44);
            Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 44);
            r.put("amount", Map.of("total", total, "currency", "CNY"));
            assertRefused400(signedResource("TRANSACTION.SUCCESS", r), no);
        }
    }

    @Test
    void outTradeNoLongerThan32OrOutsideTheAlphabetIs400() {
        for (String no : new String[] {"A".repeat(33), "ORD 1", "ＯＲＤ１"}) {
            Map<String, Object> r = WechatV3Fixtures.transaction(no, "4200000000000000000000000000001", 1);
            assertRefused400(signedResource("TRANSACTION.SUCCESS", r), null);
        }
    }

    // --- outcomes --------------------------------------------------------------------------------------------------

    @Test
    void amountOrCurrencyMismatchIsAnAnomalyWithTheFailureAck() {
        String no = pendingOrder(50);
        Response r = send(WechatV3Fixtures.paid(no, txnId(no), 49));
        assertEquals(422, r.statusCode());
        assertEquals("application/json", r.contentType());
        assertEquals(FAIL_422, r.asString());
        var n = lastNotification(no);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("AMOUNT_MISMATCH", n.get("reason"));
        assertEquals(49L, n.get("amount_minor"));
        var order = order(no);
        assertEquals("PENDING", order.get("state"));
        assertEquals(List.of("AMOUNT_MISMATCH"), order.get("attention"));

        String usd = pendingOrder(50);
        Map<String, Object> res = WechatV3Fixtures.transaction(usd, txnId(usd), 50);
        res.put("amount", Map.of("total", 50, "currency", "USD"));
        send(signedResource("TRANSACTION.SUCCESS", res)).then().statusCode(422).body(equalTo(FAIL_422));
        assertEquals("AMOUNT_MISMATCH", lastNotification(usd).get("reason"));
        assertEquals("USD", lastNotification(usd).get("currency"));
        assertEquals("PENDING", order(usd).get("state"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"appid", "mchid", "sp_mchid", "sub_mchid"})
    void accountMismatchIsAnAnomalyBeforeTheOrderIsLookedAt(String field) {
        String no = pendingOrder(60);
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 60);
        switch (field) {
            case "appid" -> r.put("appid", "wxv3app000000002");
            case "mchid" -> r.put("mchid", "1900000110");
            case "sp_mchid" -> r.put("sp_mchid", TestChannels.WX3_MCH);
            default -> r.put("sub_mchid", "1900000111");
        }
        send(signedResource("TRANSACTION.SUCCESS", r)).then().statusCode(422).body(equalTo(FAIL_422));
        var n = lastNotification(no);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("ACCOUNT_MISMATCH", n.get("reason"));
        var order = order(no);
        assertEquals("PENDING", order.get("state"));
        assertNull(order.get("transaction_id"));
        assertEquals(List.of("ACCOUNT_MISMATCH"), order.get("attention"));
    }

    @Test
    void unknownOrderIsAnAnomalyWithTheFailureAck() {
        String no = newOrderNo();
        send(WechatV3Fixtures.paid(no, txnId(no), 70)).then().statusCode(422).body(equalTo(FAIL_422));
        assertEquals("UNKNOWN_ORDER", lastNotification(no).get("reason"));
    }

    @Test
    void nonFinalTradeStatesAreIgnored() {
        String no = pendingOrder(71);
        for (String state : new String[] {"NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR", "REVOKED", "CLOSED"}) {
            Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 71);
            r.put("trade_state", state);
            r.remove("transaction_id");
            r.remove("success_time");
            send(signedResource("TRANSACTION.SUCCESS", r)).then().statusCode(204);
            var n = lastNotification(no);
            assertEquals("IGNORED", n.get("outcome"));
            assertEquals("NOT_FINAL", n.get("reason"));
            assertEquals(state, n.get("provider_status"));
        }
        assertEquals("PENDING", order(no).get("state"));
        assertEquals(6, stored(no));
    }

    @Test
    void unknownTradeStateIsAnAnomalyWithTheFailureAck() {
        String no = pendingOrder(72);
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 72);
        r.put("trade_state", "PAID_MAYBE");
        send(signedResource("TRANSACTION.SUCCESS", r)).then().statusCode(422).body(equalTo(FAIL_422));
        var n = lastNotification(no);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("UNKNOWN_STATUS", n.get("reason"));
        assertEquals("PAID_MAYBE", n.get("provider_status"));
        assertEquals("PENDING", order(no).get("state"));
        assertEquals(List.of("UNKNOWN_STATUS"), order(no).get("attention"));
    }

    @Test
    void refundNoticesAreRecordedAsRefunds() {
        String no = pendingOrder(80);
        send(WechatV3Fixtures.paid(no, txnId(no), 80)).then().statusCode(204);
        send(signedResource("REFUND.SUCCESS", WechatV3Fixtures.refund(no, txnId(no), 80, 80)))
                .then()
                .statusCode(204);
        var n = lastNotification(no);
        assertEquals("IGNORED", n.get("outcome"));
        assertEquals("REFUND", n.get("reason"));
        assertEquals("SUCCESS", n.get("provider_status"));
        assertTrue(((String) n.get("decoded")).contains("招商银行信用卡0403"));
        assertEquals("SUCCESS", order(no).get("state"));

        // a refund of a payment we never saw: flagged, still acknowledged
        String unpaid = pendingOrder(81);
        Map<String, Object> r = WechatV3Fixtures.refund(unpaid, txnId(unpaid), 81, 1);
        r.put("refund_status", "ABNORMAL");
        send(signedResource("REFUND.ABNORMAL", r)).then().statusCode(204);
        var m = lastNotification(unpaid);
        assertEquals("ANOMALY", m.get("outcome"));
        assertEquals("REFUND_ON_UNPAID", m.get("reason"));
        assertEquals("ABNORMAL", m.get("provider_status"));
        assertEquals("PENDING", order(unpaid).get("state"));

        // a refund resource naming another merchant is still an account mismatch
        String other = pendingOrder(82);
        Map<String, Object> foreign = WechatV3Fixtures.refund(other, txnId(other), 82, 82);
        foreign.put("mchid", "1900000110");
        send(signedResource("REFUND.SUCCESS", foreign)).then().statusCode(422);
        assertEquals("ACCOUNT_MISMATCH", lastNotification(other).get("reason"));
    }

    @Test
    void channelOfAnotherProviderIs404() {
        String no = pendingOrder(90);
        Response r = send(WechatV3Fixtures.paid(no, txnId(no), 90), "/notify/wechatpay-v3/" + TestChannels.WX);
        assertEquals(404, r.statusCode());
        assertEquals("{\"code\":\"FAIL\",\"message\":\"unknown channel\"}", r.asString());
        assertEquals(0, stored(no));
    }
}
