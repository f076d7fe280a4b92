package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_400;
import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_401;
import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_404;
import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_413;
import static io.paynotify.provider.wechatv2.WechatV2Http.TIME_END;
import static io.paynotify.provider.wechatv2.WechatV2Http.allNotifications;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertAck;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOk;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.insertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.lastNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.markPaid;
import static io.paynotify.provider.wechatv2.WechatV2Http.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Http.newTxn;
import static io.paynotify.provider.wechatv2.WechatV2Http.notifications;
import static io.paynotify.provider.wechatv2.WechatV2Http.order;
import static io.paynotify.provider.wechatv2.WechatV2Http.post;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.provider.SafeXmlTest;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * WeChat Pay v2 deliveries that must be refused (and never stored), and the ones that must pass although they look
 * odd: signatures and their vectors, sign types and downgrades, key rotation, XML attacks, the size limit, required
 * fields, amounts at and past the bounds, payment times, and refund notices that do not decrypt.
 */
@QuarkusTest
class WechatV2VerificationTest {

    @TestHTTPResource("/")
    URL base;

    static Map<String, String> paid(String no, String txn, long fee) {
        return WechatV2Fixtures.paid(no, txn, fee);
    }

    static byte[] signed(Map<String, String> f, String key, String type) {
        return WechatV2Fixtures.body(WechatV2Fixtures.signed(f, key, type));
    }

    static byte[] md5(Map<String, String> f) {
        return signed(f, TestChannels.WX_KEY, "MD5");
    }

    /** Posts, expects that answer, and checks that nothing at all was stored. */
    static void assertRefused(Supplier<Response> send, int status, String body) {
        long before = allNotifications();
        assertAck(send.get(), status, body);
        assertEquals(before, allNotifications(), "a refused delivery must not be stored");
    }

    static void assertRefused(byte[] body, int status, String expected) {
        assertRefused(() -> post(body), status, expected);
    }

    static void assertApplied(String no, String txn) {
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertEquals("SUCCESS", order(no).get("state"));
        assertEquals(txn, order(no).get("transaction_id"));
    }

    // ---- signatures

    @Test
    void md5AndHmacSignaturesAreAccepted() {
        for (String type : List.of("MD5", "HMAC-SHA256")) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            var f = paid(no, txn, 100);
            f.put("sign_type", type);
            assertOk(post(signed(f, TestChannels.WX_KEY, type)));
            assertApplied(no, txn);
        }
    }

    @Test
    void hmacOnlyChannelAcceptsHmac() {
        String no = newOrderNo();
        String txn = newTxn();
        io.paynotify.testing.Db.insertOrder(TestChannels.WX_HMAC, "WECHATPAY_V2", no, 100);
        var f = hmacChannelNotice(no, txn);
        f.put("sign_type", "HMAC-SHA256");
        assertOk(post(TestChannels.WX_HMAC, signed(f, TestChannels.WX_HMAC_KEY, "HMAC-SHA256")));
        assertEquals(
                "SUCCESS",
                io.paynotify.testing.Db.row(
                                "SELECT state FROM orders WHERE channel = ? AND" + " out_trade_no = ?",
                                TestChannels.WX_HMAC,
                                no)
                        .get("state"));
    }

    static Map<String, String> hmacChannelNotice(String no, String txn) {
        var f = paid(no, txn, 100);
        f.put("appid", TestChannels.WX_HMAC_APPID);
        f.put("mch_id", TestChannels.WX_HMAC_MCH);
        return f;
    }

    @Test
    void absentSignTypeWithA64HexSignIsHmac() {
        // PROTOCOLS.md P7: notices for HMAC orders may come without sign_type
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        assertFalse(f.containsKey("sign_type"));
        byte[] body = signed(f, TestChannels.WX_KEY, "HMAC-SHA256");
        assertTrue(new String(body, StandardCharsets.UTF_8).matches(".*<sign><!\\[CDATA\\[[0-9A-F]{64}]]></sign>.*"));
        assertOk(post(body));
        assertApplied(no, txn);

        String hmacNo = newOrderNo();
        io.paynotify.testing.Db.insertOrder(TestChannels.WX_HMAC, "WECHATPAY_V2", hmacNo, 100);
        assertOk(post(
                TestChannels.WX_HMAC,
                signed(hmacChannelNotice(hmacNo, newTxn()), TestChannels.WX_HMAC_KEY, "HMAC-SHA256")));
    }

    @Test
    void lowercaseHexSignIsAccepted() {
        for (String type : List.of("MD5", "HMAC-SHA256")) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            var f = paid(no, txn, 100);
            f.put("sign", WechatV2Fixtures.sign(f, TestChannels.WX_KEY, type).toLowerCase());
            assertOk(post(WechatV2Fixtures.body(f)));
            assertApplied(no, txn);
        }
    }

    @Test
    void aTamperedFieldIs401() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var f = WechatV2Fixtures.signed(paid(no, newTxn(), 100), TestChannels.WX_KEY, "MD5");
        for (String[] change : new String[][] {
            {"total_fee", "1"},
            {"out_trade_no", newOrderNo()},
            {"attach", "x"},
            {"sign_type", "MD5"},
            {"nonce_str", "5d2b6c2a8db53831f7eda20af46e531d"},
            {"transaction_id", newTxn()}
        }) {
            var t = new LinkedHashMap<>(f);
            t.put(change[0], change[1]);
            assertRefused(WechatV2Fixtures.body(t), 401, FAIL_401);
        }
        // a field dropped after signing
        var dropped = new LinkedHashMap<>(f);
        dropped.remove("openid");
        assertRefused(WechatV2Fixtures.body(dropped), 401, FAIL_401);
        assertEquals("PENDING", order(no).get("state"));
        assertEquals(0, notifications(no).size());
    }

    @Test
    void missingOrEmptySignIs401NeverAnything400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var f = paid(no, newTxn(), 100);
        assertRefused(WechatV2Fixtures.body(f), 401, FAIL_401);
        var empty = new LinkedHashMap<>(f);
        empty.put("sign", "");
        assertRefused(WechatV2Fixtures.body(empty), 401, FAIL_401);
        assertRefused(
                WechatV2Fixtures.xml(f).replace("</xml>", "<sign></sign></xml>").getBytes(StandardCharsets.UTF_8),
                401,
                FAIL_401);
        assertRefused(
                WechatV2Fixtures.xml(f).replace("</xml>", "<sign/></xml>").getBytes(StandardCharsets.UTF_8),
                401,
                FAIL_401);
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void returnCodeFailIsAlways401() {
        assertRefused(
                "<xml><return_code><![CDATA[FAIL]]></return_code><return_msg><![CDATA[签名失败]]></return_msg></xml>"
                        .getBytes(StandardCharsets.UTF_8),
                401,
                FAIL_401);
        assertRefused("<xml><return_code>FAIL</return_code></xml>".getBytes(StandardCharsets.UTF_8), 401, FAIL_401);
        // even with every field present and a valid signature
        String no = newOrderNo();
        insertOrder(no, 100);
        var f = paid(no, newTxn(), 100);
        f.put("return_code", "FAIL");
        assertRefused(md5(f), 401, FAIL_401);
        // and any other return_code value
        f.put("return_code", "success");
        assertRefused(md5(f), 401, FAIL_401);
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void every401HasTheSameBody() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var f = paid(no, newTxn(), 100);
        var tampered = WechatV2Fixtures.signed(f, TestChannels.WX_KEY, "MD5");
        tampered.put("total_fee", "1");
        var failCode = new LinkedHashMap<>(f);
        failCode.put("return_code", "FAIL");
        var badType = new LinkedHashMap<>(f);
        badType.put("sign_type", "junk");
        var bodies = new java.util.HashSet<String>();
        for (byte[] body : List.of(
                WechatV2Fixtures.body(f),
                WechatV2Fixtures.body(tampered),
                md5(failCode),
                md5(badType),
                signed(f, "strangerstrangerstrangerstranger", "HMAC-SHA256"),
                WechatV2Fixtures.body(WechatV2Fixtures.refundNotice("AAAAAAAAAAAAAAAAAAAAAA==")))) {
            Response r = post(body);
            assertEquals(401, r.statusCode());
            bodies.add(r.asString());
        }
        // never say which check failed
        assertEquals(java.util.Set.of(FAIL_401), bodies);
    }

    @Test
    void md5IsADowngradeOnAnHmacOnlyChannel() {
        String no = newOrderNo();
        io.paynotify.testing.Db.insertOrder(TestChannels.WX_HMAC, "WECHATPAY_V2", no, 100);
        var declared = hmacChannelNotice(no, newTxn());
        declared.put("sign_type", "MD5");
        assertRefused(
                () -> post(TestChannels.WX_HMAC, signed(declared, TestChannels.WX_HMAC_KEY, "MD5")), 401, FAIL_401);
        // inferred from a 32-hex sign: still MD5, still refused
        assertRefused(
                () -> post(
                        TestChannels.WX_HMAC, signed(hmacChannelNotice(no, newTxn()), TestChannels.WX_HMAC_KEY, "MD5")),
                401,
                FAIL_401);
        assertEquals(
                "PENDING",
                io.paynotify.testing.Db.row(
                                "SELECT state FROM orders WHERE channel = ? AND" + " out_trade_no = ?",
                                TestChannels.WX_HMAC,
                                no)
                        .get("state"));
    }

    @Test
    void unknownSignTypesAre401() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String type : List.of("hmac-sha256", "HMAC-SHA-256", "SHA256", "md5", "junk", "HMAC-SHA256 ", "RSA")) {
            var f = paid(no, newTxn(), 100);
            f.put("sign_type", type);
            // signed "correctly" with either algorithm: the type itself is refused
            assertRefused(signed(f, TestChannels.WX_KEY, "HMAC-SHA256"), 401, FAIL_401);
            assertRefused(signed(f, TestChannels.WX_KEY, "MD5"), 401, FAIL_401);
        }
        // a declared type that does not match the sign's length
        var f = paid(no, newTxn(), 100);
        f.put("sign_type", "MD5");
        f.put("sign", WechatV2Fixtures.sign(f, TestChannels.WX_KEY, "HMAC-SHA256"));
        assertRefused(WechatV2Fixtures.body(f), 401, FAIL_401);
        // a sign of neither length, or not hex
        for (String sign : List.of("ABC", "Z".repeat(32), "９A0A8659F005D6984697E2CA0A9CF3B7", "0".repeat(48))) {
            var g = paid(no, newTxn(), 100);
            g.put("sign", sign);
            assertRefused(WechatV2Fixtures.body(g), 401, FAIL_401);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void apiKeyRotationAcceptsBothKeysAndNoOther() {
        for (String type : List.of("MD5", "HMAC-SHA256")) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            assertOk(post(signed(paid(no, txn, 100), TestChannels.WX_KEY_NEXT, type)));
            assertApplied(no, txn);
            String stranger = newOrderNo();
            insertOrder(stranger, 100);
            assertRefused(
                    signed(paid(stranger, newTxn(), 100), "strangerstrangerstrangerstranger", type), 401, FAIL_401);
            // another channel's key is a stranger here too
            assertRefused(signed(paid(stranger, newTxn(), 100), TestChannels.WX_HMAC_KEY, type), 401, FAIL_401);
        }
    }

    @Test
    void specialCharactersChineseAndEmojiAreSignedAsSent() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("attach", "a+b & c=d %20 %zz 100% 空格 中文 😀 <tag> \"q\" 'q'");
        f.put("body", "腾讯充值中心-QQ会员充值");
        assertOk(post(md5(f)));
        assertApplied(no, txn);
        // the raw body is stored exactly as received
        assertEquals(
                new String(md5(f), StandardCharsets.UTF_8),
                new String((byte[]) lastNotification(no).get("raw_body"), StandardCharsets.UTF_8));
    }

    @Test
    void couponFieldsAreCoveredByTheSignature() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("cash_fee", "60");
        f.put("coupon_fee", "40");
        f.put("coupon_count", "2");
        f.put("coupon_type_0", "CASH");
        f.put("coupon_id_0", "10000");
        f.put("coupon_fee_0", "30");
        f.put("coupon_type_1", "NO_CASH");
        f.put("coupon_id_1", "10001");
        f.put("coupon_fee_1", "10");
        var s = WechatV2Fixtures.signed(f, TestChannels.WX_KEY, "MD5");
        for (String field : List.of("coupon_fee_0", "coupon_id_1", "coupon_type_0", "coupon_count")) {
            var t = new LinkedHashMap<>(s);
            t.put(field, t.get(field) + "9");
            assertRefused(WechatV2Fixtures.body(t), 401, FAIL_401);
            var d = new LinkedHashMap<>(s);
            d.remove(field);
            assertRefused(WechatV2Fixtures.body(d), 401, FAIL_401);
        }
        assertOk(post(WechatV2Fixtures.body(s)));
        // the amount compared is total_fee, never cash_fee
        assertApplied(no, txn);
    }

    @Test
    void unindexedCouponFieldsAreCoveredToo() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("coupon_fee", "10");
        f.put("coupon_count", "1");
        f.put("coupon_type", "CASH");
        f.put("coupon_id", "10000");
        var s = WechatV2Fixtures.signed(f, TestChannels.WX_KEY, "HMAC-SHA256");
        var t = new LinkedHashMap<>(s);
        t.put("coupon_id", "10001");
        assertRefused(WechatV2Fixtures.body(t), 401, FAIL_401);
        assertOk(post(WechatV2Fixtures.body(s)));
        assertApplied(no, txn);
    }

    @Test
    void unknownFieldsAreSignedAndKept() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("promotion_detail", "[{\"promotion_id\":\"1\",\"amount\":0}]");
        f.put("zz_new_field_2030", "v");
        assertOk(post(md5(f)));
        assertApplied(no, txn);
    }

    // ---- XML

    @Test
    void externalEntityToAFileIs400AndNothingLeaks() throws Exception {
        Path secret = Files.createTempFile("pn-secret", ".txt");
        try {
            Files.writeString(secret, "TOP-SECRET-VALUE");
            String no = newOrderNo();
            String xml = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>"
                    + WechatV2Fixtures.xml(WechatV2Fixtures.signed(paid(no, newTxn(), 100), TestChannels.WX_KEY, "MD5"))
                            .replace("<![CDATA[JSAPI]]>", "&xxe;");
            long before = allNotifications();
            Response r = post(xml.getBytes(StandardCharsets.UTF_8));
            assertAck(r, 400, FAIL_400);
            assertFalse(r.asString().contains("TOP-SECRET"));
            assertEquals(before, allNotifications());
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    @Test
    void parameterEntitiesExternalDtdsAndXIncludeAre400AndFetchNothing() throws Exception {
        try (var listener = new SafeXmlTest.Listener()) {
            String no = newOrderNo();
            insertOrder(no, 100);
            String signedXml =
                    WechatV2Fixtures.xml(WechatV2Fixtures.signed(paid(no, newTxn(), 100), TestChannels.WX_KEY, "MD5"));
            for (String xml : List.of(
                    "<!DOCTYPE xml [<!ENTITY % remote SYSTEM \"" + listener.url("/evil.dtd") + "\"> %remote;]>"
                            + signedXml,
                    "<!DOCTYPE xml [<!ENTITY x SYSTEM \"" + listener.url("/x") + "\">]>"
                            + signedXml.replace("<![CDATA[JSAPI]]>", "&x;"),
                    "<!DOCTYPE xml SYSTEM \"" + listener.url("/ext.dtd") + "\">" + signedXml,
                    signedXml
                            .replace("<xml>", "<xml xmlns:xi=\"http://www.w3.org/2001/XInclude\">")
                            .replace(
                                    "</xml>",
                                    "<xi:include href=\"" + listener.url("/xi") + "\" parse=\"text\"/></xml>"),
                    signedXml.replace("</xml>", "<xi:include href=\"" + listener.url("/xi2") + "\"/></xml>"))) {
                assertRefused(xml.getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
            }
            assertEquals(0, listener.connections(), "the parser must never fetch anything");
            assertEquals("PENDING", order(no).get("state"));
        }
    }

    @Test
    void billionLaughsIs400() {
        var sb = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            sb.append("<!ENTITY lol")
                    .append(i)
                    .append(" \"")
                    .append(("&lol" + (i - 1) + ";").repeat(10))
                    .append("\">");
        }
        sb.append("]><xml><return_code>&lol9;</return_code></xml>");
        assertRefused(sb.toString().getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
    }

    @Test
    void malformedXmlShapesAre400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var s = WechatV2Fixtures.signed(paid(no, newTxn(), 100), TestChannels.WX_KEY, "MD5");
        String xml = WechatV2Fixtures.xml(s);
        byte[] utf8 = xml.getBytes(StandardCharsets.UTF_8);
        byte[] bom = new byte[utf8.length + 3];
        bom[0] = (byte) 0xEF;
        bom[1] = (byte) 0xBB;
        bom[2] = (byte) 0xBF;
        System.arraycopy(utf8, 0, bom, 3, utf8.length);
        assertRefused(bom, 400, FAIL_400);
        assertRefused(
                ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + xml).getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        assertRefused(
                ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + xml).getBytes(StandardCharsets.UTF_16), 400, FAIL_400);
        assertRefused((xml + xml).getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        assertRefused((xml + "junk").getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        assertRefused((xml + "<x/>").getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        assertRefused(xml.replace("<![CDATA[CFT]]>", "<b>CFT</b>").getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        assertRefused(
                xml.replace("</xml>", "<total_fee>100</total_fee></xml>").getBytes(StandardCharsets.UTF_8),
                400,
                FAIL_400);
        assertRefused(
                xml.replace("</xml>", "<nonce_str><![CDATA[5d2b6c2a8db53831f7eda20af46e531c]]></nonce_str>" + "</xml>")
                        .getBytes(StandardCharsets.UTF_8),
                400,
                FAIL_400);
        assertRefused(
                xml.replace("<xml>", "<root>").replace("</xml>", "</root>").getBytes(StandardCharsets.UTF_8),
                400,
                FAIL_400);
        assertRefused(xml.substring(0, xml.length() - 3).getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        assertRefused(new byte[0], 400, FAIL_400);
        assertRefused("{\"return_code\":\"SUCCESS\"}".getBytes(StandardCharsets.UTF_8), 400, FAIL_400);
        // invalid UTF-8 inside a value
        byte[] bad = xml.replace("CFT", "C\u0001T").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bad.length; i++) {
            if (bad[i] == 1) {
                bad[i] = (byte) 0xC0;
            }
        }
        assertRefused(bad, 400, FAIL_400);
        // the genuine document still passes
        assertOk(post(utf8));
        assertEquals(1, notifications(no).size());
    }

    @Test
    void bodyOver64KibIs413WithTheFailureAckWithContentLengthOrChunked() throws Exception {
        byte[] big = new byte[64 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) 'a');
        for (boolean chunked : new boolean[] {false, true}) {
            long before = allNotifications();
            RawHttp.Answer a = RawHttp.post(base.getPort(), "/notify/wechatpay/" + TestChannels.WX, big, chunked);
            assertEquals(413, a.status(), a.headers());
            assertEquals(FAIL_413, a.body());
            assertTrue(a.headers().toLowerCase().contains("content-type: application/xml"), a.headers());
            assertEquals(before, allNotifications());
        }
        // a much larger declared body is refused on its headers alone
        RawHttp.Answer huge =
                RawHttp.post(base.getPort(), "/notify/wechatpay/" + TestChannels.WX, new byte[10 * 1024 * 1024], false);
        assertEquals(413, huge.status());
        assertEquals(FAIL_413, huge.body());
    }

    @Test
    void aSignedBodyOfExactly64KibIsAcceptedWithContentLengthOrChunked() throws Exception {
        for (boolean chunked : new boolean[] {false, true}) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            var f = paid(no, txn, 100);
            f.put("attach", "");
            // an empty value is not signed, so the sign keeps its length: each added ASCII character adds one byte
            int overhead = md5(f).length;
            f.put("attach", "x".repeat(64 * 1024 - overhead));
            byte[] body = md5(f);
            assertEquals(64 * 1024, body.length);
            RawHttp.Answer a = RawHttp.post(base.getPort(), "/notify/wechatpay/" + TestChannels.WX, body, chunked);
            assertEquals(200, a.status(), a.body());
            assertEquals(WechatV2Http.OK, a.body());
            assertApplied(no, txn);
        }
    }

    @Test
    void unknownChannelOrAnotherProvidersChannelIs404WithTheV2FailureAck() {
        byte[] body = md5(paid(newOrderNo(), newTxn(), 100));
        for (String channel :
                List.of("nope", TestChannels.ALI, TestChannels.ALI_RSA, TestChannels.WX3, "WX-TEST", "wx-test-")) {
            assertRefused(() -> post(channel, body), 404, FAIL_404);
        }
    }

    @Test
    void contentTypeIsNeitherRequiredNorTrusted() {
        for (String type : List.of("application/json", "text/plain", "application/octet-stream", "text/xml")) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            assertOk(given().contentType(type)
                    .body(md5(paid(no, txn, 100)))
                    .post("/notify/wechatpay/" + TestChannels.WX));
            assertApplied(no, txn);
        }
    }

    // ---- required fields

    @Test
    void missingRequiredFieldsAre400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String field : List.of(
                "return_code", "appid", "mch_id", "result_code", "out_trade_no", "transaction_id", "total_fee")) {
            var f = paid(no, newTxn(), 100);
            f.remove(field);
            assertRefused(md5(f), 400, FAIL_400);
            var e = paid(no, newTxn(), 100);
            e.put(field, "");
            assertRefused(md5(e), 400, FAIL_400);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void malformedOutTradeNoIs400() {
        for (String no : List.of("A".repeat(33), "ORD 1", " ORD1", "ORD#1", "ＯＲＤ１", "ORD\\1", "订单1")) {
            assertRefused(md5(paid(no, newTxn(), 100)), 400, FAIL_400);
        }
        // 32 characters and the whole alphabet are fine
        String ok = "Ab0_-|*" + "x".repeat(25);
        insertOrder(ok, 100);
        String txn = newTxn();
        assertOk(post(md5(paid(ok, txn, 100))));
        assertApplied(ok, txn);
    }

    // ---- amounts

    @Test
    void amountsAtTheBoundsAreApplied() {
        for (long fee : new long[] {1, 9_999_999_999L}) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, fee);
            assertOk(post(md5(paid(no, txn, fee))));
            assertApplied(no, txn);
            assertEquals(fee, lastNotification(no).get("amount_minor"));
        }
    }

    @Test
    void tenBillionFenCannotBeExpressedInTheWechatPattern() {
        // the contract's WeChat pattern is ^[0-9]{1,10}$: the largest order amount has 11 digits
        String no = newOrderNo();
        insertOrder(no, 10_000_000_000L);
        assertRefused(md5(paid(no, newTxn(), 10_000_000_000L)), 400, FAIL_400);
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void malformedTotalFeeOnAPaidNoticeIs400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String fee : List.of(
                "１００", "1E+5000000", "-1", "+1", " 1", "1 ", "1.0", "100.00", "0x64", "1e2", "١٠٠", "99999999999")) {
            var f = paid(no, newTxn(), 100);
            f.put("total_fee", fee);
            assertRefused(md5(f), 400, FAIL_400);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void malformedAmountsInOtherClassesAreStoredAsNull() {
        String no = newOrderNo();
        insertOrder(no, 100);
        String info = newOrderNo();
        insertOrder(info, 100);
        var f = paid(info, newTxn(), 100);
        f.put("result_code", "FAIL");
        f.put("total_fee", "1.0");
        assertOk(post(md5(f)));
        assertNotification(lastNotification(info), "IGNORED", "NOT_FINAL", "FAIL", null, f.get("transaction_id"));

        // a refund notice's total_fee is optional
        String txn = newTxn();
        markPaid(no, txn);
        var refund = WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS");
        refund.put("total_fee", "１００");
        assertOk(post(WechatV2Fixtures.body(
                WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(refund, TestChannels.WX_KEY)))));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "SUCCESS", null, txn);
    }

    // ---- times

    @Test
    void paidAtIsTimeEndInBeijingTime() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("time_end", "20260101000000");
        assertOk(post(md5(f)));
        assertOrder(no, "SUCCESS", txn, Instant.parse("2025-12-31T16:00:00Z"), List.of());
        assertEquals(TIME_END, Instant.parse("2014-09-03T05:15:40Z"));
    }

    @Test
    void absentOrMalformedTimeEndIsTheReceivedAtOfTheApplyingNotification() {
        for (String timeEnd :
                new String[] {null, "", "20140231131540", "2014-09-03 13:15:40", "201409031315", "２０１４０９０３１３１５４０"}) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            var f = paid(no, txn, 100);
            if (timeEnd == null) {
                f.remove("time_end");
            } else {
                f.put("time_end", timeEnd);
            }
            Instant before = Instant.now();
            assertOk(post(md5(f)));
            var row = lastNotification(no);
            Instant receivedAt = (Instant) row.get("received_at");
            assertOrder(no, "SUCCESS", txn, receivedAt, List.of());
            assertTrue(
                    !receivedAt.isBefore(before.minusSeconds(5)) && !receivedAt.isAfter(Instant.now()),
                    "receivedAt " + receivedAt + " is the arrival time");
            // a later duplicate does not move paidAt
            assertOk(post(md5(f)));
            assertEquals(receivedAt, order(no).get("paid_at"));
        }
    }

    // ---- refund notices that must be refused

    @Test
    void refundThatDoesNotDecryptIs401() throws Exception {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        var info = WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS");
        for (String reqInfo : List.of(
                WechatV2Fixtures.encryptReqInfo(info, "strangerstrangerstrangerstranger"),
                WechatV2Fixtures.encryptReqInfo(info, TestChannels.WX_HMAC_KEY),
                "!!!not base64!!!",
                Base64.getEncoder().encodeToString(new byte[15]),
                Base64.getEncoder().encodeToString(new byte[64]),
                // encrypted with the right key but not a document
                WechatV2Fixtures.encryptReqInfo("hello".getBytes(StandardCharsets.UTF_8), TestChannels.WX_KEY),
                // encrypted with the raw key instead of its MD5
                rawKeyEncrypt(info))) {
            assertRefused(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(reqInfo)), 401, FAIL_401);
        }
        // a refund notice with return_code FAIL is not even decrypted
        var fail = WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(info, TestChannels.WX_KEY));
        fail.put("return_code", "FAIL");
        assertRefused(WechatV2Fixtures.body(fail), 401, FAIL_401);
    }

    static String rawKeyEncrypt(Map<String, String> info) throws Exception {
        var sb = new StringBuilder("<root>");
        info.forEach((k, v) -> sb.append('<')
                .append(k)
                .append('>')
                .append(v)
                .append("</")
                .append(k)
                .append('>'));
        Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(TestChannels.WX_KEY.getBytes(StandardCharsets.US_ASCII), "AES"));
        return Base64.getEncoder()
                .encodeToString(c.doFinal(sb.append("</root>").toString().getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void refundMissingFieldsIs400() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        String reqInfo = WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS"), TestChannels.WX_KEY);
        for (String field : List.of("appid", "mch_id", "return_code")) {
            var f = WechatV2Fixtures.refundNotice(reqInfo);
            f.remove(field);
            assertRefused(WechatV2Fixtures.body(f), 400, FAIL_400);
        }
        var emptyReqInfo = WechatV2Fixtures.refundNotice(reqInfo);
        emptyReqInfo.put("req_info", "");
        assertRefused(WechatV2Fixtures.body(emptyReqInfo), 400, FAIL_400);
        for (String field : List.of("out_trade_no", "refund_status")) {
            var info = WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS");
            info.remove(field);
            assertRefused(
                    WechatV2Fixtures.body(
                            WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(info, TestChannels.WX_KEY))),
                    400,
                    FAIL_400);
        }
        var badNo = WechatV2Fixtures.refundInfo("A".repeat(33), txn, 100, "SUCCESS");
        assertRefused(
                WechatV2Fixtures.body(
                        WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(badNo, TestChannels.WX_KEY))),
                400,
                FAIL_400);
        assertEquals(0, notifications(no).size());
    }

    @Test
    void refundEncryptedWithTheSecondKeyOfARotationIsAccepted() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        assertOk(post(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS"), TestChannels.WX_KEY_NEXT)))));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "SUCCESS", 100L, txn);
    }

    @Test
    void refundForTheSecondKeyIsAcceptedEvenWhenTheFirstKeyHappensToUnpad() throws Exception {
        // About 1 in 256 ciphertexts for the second key also "decrypt" with the first one (the padding happens to
        // be valid); the garbage that comes out must not end the search.
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        // decrypted without unpadding, so the test sees the padding byte itself
        Cipher firstKey = Cipher.getInstance("AES/ECB/NoPadding");
        firstKey.init(
                Cipher.DECRYPT_MODE,
                new SecretKeySpec(
                        WechatV2Fixtures.md5Hex(TestChannels.WX_KEY).getBytes(StandardCharsets.US_ASCII), "AES"));
        String reqInfo = null;
        var info = WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS");
        var xml = new StringBuilder("<root>");
        info.forEach((k, v) -> xml.append('<')
                .append(k)
                .append('>')
                .append(v)
                .append("</")
                .append(k)
                .append('>'));
        xml.append("</root>");
        for (int i = 0; i < 100_000 && reqInfo == null; i++) {
            // ECB: only the last block carries the padding, so the varying part must sit in it: a trailing
            // comment, aligned by whitespace so that the plaintext always ends 8 bytes into its last block
            byte[] head = xml.toString().getBytes(StandardCharsets.UTF_8);
            String tail = String.format("<!--%06d-->", i);
            int spaces = Math.floorMod(8 - head.length - tail.length(), 16);
            byte[] plain = (xml + " ".repeat(spaces) + tail).getBytes(StandardCharsets.UTF_8);
            String candidate = WechatV2Fixtures.encryptReqInfo(plain, TestChannels.WX_KEY_NEXT);
            byte[] underFirstKey = firstKey.doFinal(Base64.getDecoder().decode(candidate));
            // a last byte of 0x01 is valid PKCS#7 padding of one byte: the first key "decrypts" this
            if (underFirstKey[underFirstKey.length - 1] == 1) {
                reqInfo = candidate;
            }
        }
        assertTrue(reqInfo != null, "no colliding ciphertext found");
        assertOk(post(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(reqInfo))));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "SUCCESS", 100L, txn);
    }
}
