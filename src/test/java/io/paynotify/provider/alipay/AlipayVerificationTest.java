package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayHttp.GMT_PAYMENT;
import static io.paynotify.provider.alipay.AlipayHttp.allNotifications;
import static io.paynotify.provider.alipay.AlipayHttp.assertFail;
import static io.paynotify.provider.alipay.AlipayHttp.assertNotification;
import static io.paynotify.provider.alipay.AlipayHttp.assertOk;
import static io.paynotify.provider.alipay.AlipayHttp.assertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.insertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.lastNotification;
import static io.paynotify.provider.alipay.AlipayHttp.newOrderNo;
import static io.paynotify.provider.alipay.AlipayHttp.newTradeNo;
import static io.paynotify.provider.alipay.AlipayHttp.notifications;
import static io.paynotify.provider.alipay.AlipayHttp.order;
import static io.paynotify.provider.alipay.AlipayHttp.post;
import static io.paynotify.provider.alipay.AlipayHttp.postSigned;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Alipay deliveries that must be refused (and never stored) and odd ones that must pass: sign types and downgrades,
 * key rotation, charsets, escapes, repeated parameters, required fields, amounts, times, size and channels.
 */
@QuarkusTest
class AlipayVerificationTest {

    @TestHTTPResource("/")
    URL base;

    static Map<String, String> paid(String no, String t, String amount) {
        return AlipayFixtures.paid(no, t, amount);
    }

    static Map<String, String> with(Map<String, String> p, String... kv) {
        var copy = new LinkedHashMap<>(p);
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                copy.remove(kv[i]);
            } else {
                copy.put(kv[i], kv[i + 1]);
            }
        }
        return copy;
    }

    static void assertRefused(Supplier<Response> send, int status) {
        long before = allNotifications();
        assertFail(send.get(), status);
        assertEquals(before, allNotifications(), "a refused delivery must not be stored");
    }

    static void assertRefused(byte[] body, int status) {
        assertRefused(() -> post(body), status);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String str(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }

    static void assertApplied(String no, String t) {
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
    }

    // ---- signatures

    @Test
    void rsa2IsAcceptedWithEitherKeyOfARotation() {
        for (String key : List.of(TestKeys.ALIPAY, TestKeys.ALIPAY_NEXT)) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            assertOk(post(AlipayFixtures.body(AlipayFixtures.signed(paid(no, t, "1.00"), key, "RSA2"))));
            assertApplied(no, t);
        }
    }

    @Test
    void aStrangerKeyIs401() {
        String no = newOrderNo();
        insertOrder(no, 100);
        assertRefused(
                AlipayFixtures.body(AlipayFixtures.signed(paid(no, newTradeNo(), "1.00"), TestKeys.STRANGER, "RSA2")),
                401);
        // ali-rsa knows only the first key
        String rsaNo = newOrderNo();
        Db.insertOrder(TestChannels.ALI_RSA, "ALIPAY", rsaNo, 100);
        assertRefused(
                () -> post(
                        TestChannels.ALI_RSA,
                        AlipayFixtures.body(AlipayFixtures.signed(
                                AlipayFixtures.onRsaChannel(paid(rsaNo, newTradeNo(), "1.00")),
                                TestKeys.ALIPAY_NEXT,
                                "RSA2"))),
                401);
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void rsaIsADowngradeWhereOnlyRsa2IsAllowed() {
        String no = newOrderNo();
        insertOrder(no, 100);
        assertRefused(
                AlipayFixtures.body(AlipayFixtures.signed(paid(no, newTradeNo(), "1.00"), TestKeys.ALIPAY, "RSA")),
                401);
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void rsaIsAcceptedWhereTheChannelOptsIn() {
        for (String type : List.of("RSA", "RSA2")) {
            String no = newOrderNo();
            String t = newTradeNo();
            Db.insertOrder(TestChannels.ALI_RSA, "ALIPAY", no, 100);
            assertOk(post(
                    TestChannels.ALI_RSA,
                    AlipayFixtures.body(AlipayFixtures.signed(
                            AlipayFixtures.onRsaChannel(paid(no, t, "1.00")), TestKeys.ALIPAY, type))));
            assertOrder(TestChannels.ALI_RSA, no, "SUCCESS", t, GMT_PAYMENT, List.of());
        }
        // an RSA2 signature labelled RSA (or the reverse) does not verify
        String no = newOrderNo();
        Db.insertOrder(TestChannels.ALI_RSA, "ALIPAY", no, 100);
        var p = AlipayFixtures.signed(
                AlipayFixtures.onRsaChannel(paid(no, newTradeNo(), "1.00")), TestKeys.ALIPAY, "RSA2");
        p.put("sign_type", "RSA");
        assertRefused(() -> post(TestChannels.ALI_RSA, AlipayFixtures.body(p)), 401);
    }

    @Test
    void unknownSignTypesAre401() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var signed = AlipayFixtures.signed(paid(no, newTradeNo(), "1.00"), TestKeys.ALIPAY, "RSA2");
        // sign_type is not part of the signed content, so only the type itself changes
        for (String type : List.of("rsa2", "RSA256", "SHA256withRSA", "SHA256", "SM2", "MD5", "junk", "RSA2 ", "")) {
            assertRefused(AlipayFixtures.body(with(signed, "sign_type", type)), 401);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void missingOrEmptySignOrSignTypeIs401() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var signed = AlipayFixtures.signed(paid(no, newTradeNo(), "1.00"), TestKeys.ALIPAY, "RSA2");
        assertRefused(AlipayFixtures.body(with(signed, "sign", null)), 401);
        assertRefused(AlipayFixtures.body(with(signed, "sign", "")), 401);
        assertRefused(AlipayFixtures.body(with(signed, "sign_type", null)), 401);
        assertRefused(AlipayFixtures.body(with(signed, "sign", null, "sign_type", null)), 401);
        assertRefused(AlipayFixtures.body(with(signed, "sign", "!!!!")), 401);
        assertRefused(AlipayFixtures.body(with(signed, "sign", "AAAA")), 401);
        // a sign sent with a raw + (decoded as a space) no longer verifies
        String body = str(AlipayFixtures.body(signed));
        if (body.contains("%2B")) {
            assertRefused(ascii(body.replace("%2B", "+")), 401);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void aTamperedFieldIs401() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var signed = AlipayFixtures.signed(paid(no, newTradeNo(), "1.00"), TestKeys.ALIPAY, "RSA2");
        for (String[] change : new String[][] {
            {"total_amount", "0.01"},
            {"trade_status", "TRADE_FINISHED"},
            {"subject", "x"},
            {"passback_params", "x"},
            {"gmt_payment", "2026-01-02 11:04:06"},
            {"trade_no", newTradeNo()},
            {"charset", "UTF-8"}
        }) {
            assertRefused(AlipayFixtures.body(with(signed, change[0], change[1])), 401);
        }
        assertRefused(AlipayFixtures.body(with(signed, "buyer_id", null)), 401);
        assertEquals("PENDING", order(no).get("state"));
        assertEquals(0, notifications(no).size());
    }

    @Test
    void emptyValuesAreNotSigned() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        var p = AlipayFixtures.signed(paid(no, t, "1.00"), TestKeys.ALIPAY, "RSA2");
        // a parameter with an empty value may be added or dropped without touching the signature
        assertOk(post(AlipayFixtures.body(with(p, "body", "", "passback_params", ""))));
        assertApplied(no, t);
    }

    // ---- charsets and escapes

    @Test
    void gbkBodiesWithChineseText() {
        for (String charset : new String[] {"gbk", "GBK", "gb2312", "GB2312", null}) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            var p = with(paid(no, t, "1.00"), "charset", charset, "subject", "大乐透2.1 测试", "body", "中文 + & = % 空格");
            byte[] body = AlipayFixtures.signedBody(p);
            // 测 is B2 E2 in GBK
            assertTrue(str(body).contains("%B2%E2"), str(body));
            assertOk(post(body));
            assertApplied(no, t);
        }
    }

    @Test
    void utf8Variants() {
        for (String charset : List.of("utf-8", "UTF-8", "utf8", "UTF8", "Utf-8")) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            assertOk(postSigned(with(paid(no, t, "1.00"), "charset", charset)));
            assertApplied(no, t);
        }
    }

    @Test
    void aBodyDecodedInTheWrongCharsetDoesNotVerify() {
        // signed over UTF-8 text but declaring gbk: the decoded text differs, so the signature fails (or the bytes
        // are not GBK at all); never a success
        String no = newOrderNo();
        insertOrder(no, 100);
        var p = with(paid(no, newTradeNo(), "1.00"), "subject", "测试商品");
        var signed = AlipayFixtures.signed(p, TestKeys.ALIPAY, "RSA2");
        String body = str(AlipayFixtures.body(signed)).replace("charset=utf-8", "charset=gbk");
        Response r = post(ascii(body));
        assertTrue(r.statusCode() == 401 || r.statusCode() == 400, "status " + r.statusCode());
        assertEquals(0, notifications(no).size());
    }

    @Test
    void specialCharactersAndEmojiAreDecodedOnce() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        var p = with(
                paid(no, t, "1.00"),
                "subject",
                "a+b & c=d %41 100% 😀 空 格",
                "body",
                "  lead and trail  ",
                // the merchant URL-encoded passback_params; it arrives still encoded and must not be decoded twice
                "passback_params",
                "%7B%22k%22%3A%22v%2Bw%22%7D");
        byte[] body = AlipayFixtures.signedBody(p);
        assertTrue(str(body).contains("passback_params=%257B%2522k"), str(body));
        assertOk(post(body));
        assertApplied(no, t);
    }

    @Test
    void aParameterGivenTwiceIs400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        String body = str(AlipayFixtures.signedBody(paid(no, newTradeNo(), "1.00")));
        for (String extra : List.of(
                "&notify_id=x",
                "&out_trade_no=" + no,
                "&charset=utf-8",
                "&charset=gbk",
                "&sign_type=RSA2",
                "&sign=AAAA",
                "&trade_status=TRADE_SUCCESS",
                "&total_amount=1.00",
                "&out%5Ftrade%5Fno=" + no)) {
            assertRefused(ascii(body + extra), 400);
            assertRefused(ascii(extra.substring(1) + "&" + body), 400);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void otherCharsetsAre400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String cs : List.of("latin1", "ISO-8859-1", "utf-16", "big5", "gb18030", "UTF-8 ", "utf_8", "ascii")) {
            var p = with(paid(no, newTradeNo(), "1.00"), "charset", cs);
            String body = str(AlipayFixtures.body(
                            AlipayFixtures.signed(with(p, "charset", "utf-8"), TestKeys.ALIPAY, "RSA2")))
                    .replace("charset=utf-8", "charset=" + java.net.URLEncoder.encode(cs, StandardCharsets.UTF_8));
            assertRefused(ascii(body), 400);
        }
    }

    @Test
    void malformedEscapesAndInvalidBytesAre400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        String body = str(AlipayFixtures.signedBody(paid(no, newTradeNo(), "1.00")));
        for (String bad : List.of(
                "&memo=%zz",
                "&memo=%4",
                "&memo=%",
                "&memo=%G1",
                "&memo=%%41",
                "&memo=%C0%AF",
                "&memo=%FF",
                "&memo=%E6%B5",
                "&memo=%ED%A0%80",
                "&memo=a%00b",
                "&%ZZ=1",
                "&=value")) {
            assertRefused(ascii(body + bad), 400);
        }
        // in GBK too: a lead byte without its trail byte
        String gbk = str(AlipayFixtures.signedBody(with(paid(no, newTradeNo(), "1.00"), "charset", "gbk")));
        assertRefused(ascii(gbk + "&memo=%B2"), 400);
        assertEquals("PENDING", order(no).get("state"));
    }

    // ---- required fields

    @Test
    void missingRequiredFieldsAre400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String field :
                List.of("notify_id", "app_id", "out_trade_no", "trade_no", "trade_status", "total_amount")) {
            assertRefused(AlipayFixtures.signedBody(with(paid(no, newTradeNo(), "1.00"), field, null)), 400);
            assertRefused(AlipayFixtures.signedBody(with(paid(no, newTradeNo(), "1.00"), field, "")), 400);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void totalAmountIsRequiredForPaidOnly() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(with(AlipayFixtures.notice(no, t, "1.00", "TRADE_CLOSED"), "total_amount", null)));
        assertNotification(lastNotification(no), "APPLIED", null, "TRADE_CLOSED", null, t);
        assertEquals("CLOSED", order(no).get("state"));
    }

    @Test
    void malformedIdsAre400() {
        for (String[] kv : new String[][] {
            {"out_trade_no", "A".repeat(65)},
            {"out_trade_no", "ORD 1"},
            {"out_trade_no", "订单"},
            {"trade_no", "T".repeat(65)},
            {"trade_no", "T 1"},
            {"notify_id", "n".repeat(129)},
            {"notify_id", "n 1"}
        }) {
            assertRefused(AlipayFixtures.signedBody(with(paid(newOrderNo(), newTradeNo(), "1.00"), kv[0], kv[1])), 400);
        }
        // 64 characters is the Alipay maximum
        String no = "Ab0_-|*" + "x".repeat(57);
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(paid(no, t, "1.00")));
        assertApplied(no, t);
    }

    // ---- amounts

    @Test
    void amountsAtTheBounds() {
        String[][] cases = {
            {"0.01", "1"},
            {"100000000.00", "10000000000"},
            {"100000000", "10000000000"},
            {"178.2", "17820"},
            {"5", "500"}
        };
        for (String[] c : cases) {
            String no = newOrderNo();
            String t = newTradeNo();
            long fen = Long.parseLong(c[1]);
            insertOrder(no, fen);
            assertOk(postSigned(paid(no, t, c[0])));
            assertNotification(lastNotification(no), "APPLIED", null, "TRADE_SUCCESS", fen, t);
            assertApplied(no, t);
        }
    }

    @Test
    void malformedTotalAmountOnAPaidNoticeIs400() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String amount : List.of(
                "１.00",
                "1E+5000000",
                "-1.00",
                "+1.00",
                " 1.00",
                "1.00 ",
                "1.001",
                "1,000.00",
                ".5",
                "1.",
                "1000000000.00",
                "0x1",
                "NaN",
                "1e2")) {
            assertRefused(AlipayFixtures.signedBody(paid(no, newTradeNo(), amount)), 400);
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    @Test
    void malformedAmountsInOtherClassesAreStoredAsNull() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(AlipayFixtures.notice(no, t, "1.0.0", "TRADE_CLOSED")));
        assertNotification(lastNotification(no), "APPLIED", null, "TRADE_CLOSED", null, t);

        String wait = newOrderNo();
        insertOrder(wait, 100);
        assertOk(postSigned(AlipayFixtures.notice(wait, t, "-1", "WAIT_BUYER_PAY")));
        assertNotification(lastNotification(wait), "IGNORED", "NOT_FINAL", "WAIT_BUYER_PAY", null, t);
    }

    @Test
    void malformedRefundFeeIs400InEveryClass() {
        String no = newOrderNo();
        insertOrder(no, 100);
        for (String status : List.of("TRADE_SUCCESS", "TRADE_CLOSED", "WAIT_BUYER_PAY", "TRADE_FINISHED")) {
            for (String fee : List.of("abc", "1.001", "-1.00", "+1", "１.00", "1E+5000000", " 0.00")) {
                assertRefused(
                        AlipayFixtures.signedBody(
                                with(AlipayFixtures.notice(no, newTradeNo(), "1.00", status), "refund_fee", fee)),
                        400);
            }
        }
        assertEquals("PENDING", order(no).get("state"));
    }

    // ---- times

    @Test
    void paidAtIsGmtPaymentInBeijingTime() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(with(paid(no, t, "1.00"), "gmt_payment", "2026-01-01 00:00:00")));
        assertOrder(no, "SUCCESS", t, Instant.parse("2025-12-31T16:00:00Z"), List.of());
    }

    @Test
    void absentOrMalformedGmtPaymentIsTheReceivedAt() {
        for (String gmt : new String[] {
            null, "", "2026-02-30 11:04:05", "2026-01-02T11:04:05", "20260102110405", "2026-01-02 11:04"
        }) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            assertOk(postSigned(with(paid(no, t, "1.00"), "gmt_payment", gmt)));
            Instant receivedAt = (Instant) lastNotification(no).get("received_at");
            assertOrder(no, "SUCCESS", t, receivedAt, List.of());
        }
    }

    // ---- transport

    @Test
    void unknownChannelOrAnotherProvidersChannelIs404WithFail() {
        byte[] body = AlipayFixtures.signedBody(paid(newOrderNo(), newTradeNo(), "1.00"));
        for (String channel : List.of("nope", TestChannels.WX, TestChannels.WX_HMAC, TestChannels.WX3, "ALI-TEST")) {
            assertRefused(() -> post(channel, body), 404);
        }
    }

    @Test
    void bodyOver64KibIs413WithFail() throws Exception {
        byte[] big = ("a=" + "b".repeat(64 * 1024)).getBytes(StandardCharsets.US_ASCII);
        for (boolean chunked : new boolean[] {false, true}) {
            long before = allNotifications();
            String[] answer = raw(base.getPort(), "/notify/alipay/" + TestChannels.ALI, big, chunked);
            assertTrue(answer[0].startsWith("HTTP/1.1 413"), answer[0]);
            assertTrue(answer[0].toLowerCase().contains("content-type: text/plain"), answer[0]);
            assertEquals("fail", answer[1]);
            assertEquals(before, allNotifications());
        }
    }

    /** A raw exchange: headers and body of the answer. The writer ignores a reset (the server stops reading). */
    static String[] raw(int port, String path, byte[] body, boolean chunked) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            Thread writer = new Thread(() -> {
                try {
                    out.write(ascii("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                            + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n")
                            + "\r\n"));
                    for (int off = 0; off < body.length; off += 4096) {
                        int n = Math.min(4096, body.length - off);
                        if (chunked) {
                            out.write(ascii(Integer.toHexString(n) + "\r\n"));
                        }
                        out.write(body, off, n);
                        if (chunked) {
                            out.write(ascii("\r\n"));
                        }
                    }
                    if (chunked) {
                        out.write(ascii("0\r\n\r\n"));
                    }
                    out.flush();
                } catch (java.io.IOException e) {
                    // refused: the server closed the connection
                }
            });
            writer.setDaemon(true);
            writer.start();
            var in = s.getInputStream();
            var buf = new java.io.ByteArrayOutputStream();
            byte[] b = new byte[4096];
            while (true) {
                int n;
                try {
                    n = in.read(b);
                } catch (java.io.IOException e) {
                    break;
                }
                if (n < 0) {
                    break;
                }
                buf.write(b, 0, n);
                String text = buf.toString(StandardCharsets.US_ASCII);
                int end = text.indexOf("\r\n\r\n");
                if (end >= 0 && text.toLowerCase().contains("content-length: 4") && text.length() >= end + 8) {
                    break;
                }
            }
            String text = buf.toString(StandardCharsets.US_ASCII);
            int end = text.indexOf("\r\n\r\n");
            return new String[] {text.substring(0, end), text.substring(end + 4)};
        }
    }

    @Test
    void contentTypeIsNeitherRequiredNorTrusted() {
        for (String type : List.of(
                "application/json",
                "text/plain",
                "application/xml",
                "application/x-www-form-urlencoded; charset=iso-8859-1")) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            assertOk(given().config(AlipayHttp.RAW_FORM)
                    .contentType(type)
                    .body(AlipayFixtures.signedBody(paid(no, t, "1.00")))
                    .post("/notify/alipay/" + TestChannels.ALI));
            assertApplied(no, t);
        }
    }

    @Test
    void theRawBodyIsStoredAsReceived() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        byte[] body = AlipayFixtures.signedBody(with(paid(no, t, "1.00"), "charset", "gbk"));
        assertOk(post(body));
        assertEquals(str(body), str((byte[]) lastNotification(no).get("raw_body")));
    }
}
