package io.paynotify.provider.alipay;

import static io.paynotify.testing.AlipayFixtures.ORDER_NO;
import static io.paynotify.testing.AlipayFixtures.TRADE_NO;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.AckResponse;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.provider.RawNotify;
import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AlipayAdapter#verify} on its own, without Quarkus: which deliveries are refused (400 or 401, and so never
 * stored) and what an accepted one says. Sign types and downgrades, key rotation, charsets, escapes, repeated
 * parameters, required fields, ids, amounts and times. How a notice is classified is {@link
 * AlipayClassificationTest}; what reaches the database and the wire is {@link AlipayIntakeTest}, {@link
 * AlipayTransportTest} and {@code intake/NotificationRulesTest}.
 */
@Tag("unit")
class AlipayAdapterTest {

    static final AlipayAdapter ADAPTER = new AlipayAdapter();
    static final Channel ALI = TestChannels.channel(TestChannels.ALI);
    /** Accepts RSA as well as RSA2, knows only {@link TestKeys#ALIPAY}, requires a seller id. */
    static final Channel ALI_RSA = TestChannels.channel(TestChannels.ALI_RSA);

    static final Instant RECEIVED_AT = Instant.parse("2026-01-02T03:04:09Z");
    /** gmt_payment 2026-01-02 11:04:05 of the fixtures, read as Beijing time (UTC+08:00). */
    static final Instant GMT_PAYMENT = Instant.parse("2026-01-02T03:04:05Z");

    static VerifiedNotification verify(Channel channel, byte[] body) {
        try {
            return ADAPTER.verify(channel, new RawNotify(channel.name(), Map.of(), body, RECEIVED_AT));
        } catch (NotifyRejection r) {
            return fail("refused: " + r.getMessage());
        }
    }

    static VerifiedNotification verify(byte[] body) {
        return verify(ALI, body);
    }

    static VerifiedNotification verify(AlipayFixtures.Notice notice) {
        return verify(notice.body());
    }

    static NotifyRejection rejection(Channel channel, byte[] body) {
        return assertThrows(
                NotifyRejection.class,
                () -> ADAPTER.verify(channel, new RawNotify(channel.name(), Map.of(), body, RECEIVED_AT)));
    }

    /** 401: the signature does not verify or is not acceptable on this channel. */
    static void assertUnauthenticated(Channel channel, byte[] body) {
        NotifyRejection r = rejection(channel, body);
        assertEquals(Kind.UNAUTHENTICATED, r.kind());
        assertEquals(401, r.kind().status());
        assertEquals(Cause.SIGNATURE, r.rejectionCause());
    }

    static void assertUnauthenticated(byte[] body) {
        assertUnauthenticated(ALI, body);
    }

    /** 400 for that cause. */
    static void assertBadRequest(Cause cause, byte[] body) {
        NotifyRejection r = rejection(ALI, body);
        assertEquals(Kind.BAD_REQUEST, r.kind());
        assertEquals(400, r.kind().status());
        assertEquals(cause, r.rejectionCause());
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }

    // ---- what an accepted notice says

    @Test
    void anAcceptedNoticeCarriesItsFields() {
        byte[] body = aNotice().body();
        VerifiedNotification n = verify(body);
        assertEquals(Provider.ALIPAY, n.provider());
        assertEquals(TestChannels.ALI, n.channel());
        assertEquals(ORDER_NO, n.outTradeNo());
        assertEquals(TRADE_NO, n.transactionId());
        assertEquals(NotifyClass.PAID, n.notifyClass());
        assertEquals("TRADE_SUCCESS", n.providerStatus());
        assertEquals(100L, n.amountMinor());
        assertEquals("CNY", n.currency());
        assertEquals(GMT_PAYMENT, n.paidAt());
        assertFalse(n.accountMismatch());
        assertEquals(aNotice().params().get("notify_id"), n.notifyId());
        assertFalse(n.finishedNotice());
        // the exact bytes are stored, never a re-encoding
        assertSame(body, n.rawBody());
        assertNull(n.decoded());
        assertEquals(RECEIVED_AT, n.receivedAt());
    }

    @Test
    void theAcksAreAlipaysPlainTextWords() {
        AckResponse ok = ADAPTER.success();
        assertEquals(200, ok.status());
        assertEquals("text/plain", ok.contentType());
        // exactly the 7 bytes: no BOM, no newline
        assertArrayEquals(ascii("success"), ok.body());
        for (int status : new int[] {400, 401, 404, 413, 422, 503}) {
            AckResponse no = ADAPTER.failure(status);
            assertEquals(status, no.status());
            assertEquals("text/plain", no.contentType());
            assertArrayEquals(ascii("fail"), no.body());
        }
        assertEquals("alipay", ADAPTER.pathSegment());
        assertEquals(Provider.ALIPAY, ADAPTER.provider());
    }

    // ---- signatures

    @ParameterizedTest
    @ValueSource(strings = {TestKeys.ALIPAY, TestKeys.ALIPAY_NEXT})
    void rsa2IsAcceptedWithEitherKeyOfARotation(String key) {
        assertEquals(NotifyClass.PAID, verify(aNotice().signedWith(key, "RSA2")).notifyClass());
    }

    @Test
    void aKeyTheChannelDoesNotKnowIs401() {
        assertUnauthenticated(aNotice().signedWith(TestKeys.STRANGER, "RSA2").body());
        // ali-rsa knows only the first key of ali-test's rotation
        assertUnauthenticated(
                ALI_RSA,
                aNotice()
                        .onRsaChannel()
                        .signedWith(TestKeys.ALIPAY_NEXT, "RSA2")
                        .body());
    }

    @Test
    void rsaIsADowngradeWhereOnlyRsa2IsAllowed() {
        // a valid SHA1 signature with the channel's own key: refused for its type alone
        assertUnauthenticated(aNotice().signedWith(TestKeys.ALIPAY, "RSA").body());
        assertUnauthenticated(aNotice().signedWith(TestKeys.ALIPAY_NEXT, "RSA").body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"RSA", "RSA2"})
    void rsaIsAcceptedWhereTheChannelOptsIn(String signType) {
        VerifiedNotification n = verify(
                ALI_RSA,
                aNotice().onRsaChannel().signedWith(TestKeys.ALIPAY, signType).body());
        assertEquals(NotifyClass.PAID, n.notifyClass());
        assertEquals(TestChannels.ALI_RSA, n.channel());
        assertFalse(n.accountMismatch());
    }

    @ParameterizedTest
    @CsvSource({"RSA2, RSA", "RSA, RSA2"})
    void aSignatureLabelledWithTheOtherTypeDoesNotVerify(String signedAs, String labelled) {
        // sign_type is not part of the signed content, so only the label changes
        assertUnauthenticated(
                ALI_RSA,
                aNotice()
                        .onRsaChannel()
                        .signedWith(TestKeys.ALIPAY, signedAs)
                        .afterSigning("sign_type", labelled)
                        .body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rsa2", "RSA256", "SHA256withRSA", "SHA256", "SM2", "MD5", "junk", "RSA2 ", " RSA2", ""})
    void unknownSignTypesAre401(String signType) {
        assertUnauthenticated(aNotice().afterSigning("sign_type", signType).body());
        assertUnauthenticated(
                ALI_RSA,
                aNotice().onRsaChannel().afterSigning("sign_type", signType).body());
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "ABSENT",
            value = {"sign, ABSENT", "sign, ''", "sign_type, ABSENT", "sign, '!!!!'", "sign, AAAA", "sign, ' '"})
    void missingEmptyOrNonBase64SignOrSignTypeIs401(String name, String value) {
        assertUnauthenticated(aNotice().afterSigning(name, value).body());
    }

    @Test
    void neitherSignNorSignTypeIs401() {
        assertUnauthenticated(aNotice()
                .afterSigning("sign", null)
                .afterSigning("sign_type", null)
                .body());
    }

    @Test
    void aSignSentWithARawPlusNoLongerVerifies() {
        // a raw + in a form is a space: a sign whose + was not escaped is another sign. A base64 RSA signature
        // has a + with probability 1 - (63/64)^344, so some trade number of the first few gives one.
        for (int i = 0; i < 100; i++) {
            var notice = aNotice().tradeNo(TRADE_NO + i);
            if (notice.signedParams().get("sign").contains("+")) {
                String body = notice.bodyText();
                assertTrue(body.contains("%2B"), body);
                assertEquals(NotifyClass.PAID, verify(ascii(body)).notifyClass());
                assertUnauthenticated(ascii(body.replace("%2B", "+")));
                return;
            }
        }
        fail("no signature with a + in 100 notices");
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "ABSENT",
            value = {
                "total_amount, 0.01",
                "trade_status, TRADE_FINISHED",
                "subject, x",
                "passback_params, x",
                "gmt_payment, 2026-01-02 11:04:06",
                "trade_no, 2026010222001400000000000002",
                "out_trade_no, ORDER-0002",
                "app_id, " + TestChannels.ALI_RSA_APPID,
                "charset, UTF-8",
                "buyer_id, ABSENT"
            })
    void aTamperedFieldIs401(String name, String value) {
        assertUnauthenticated(aNotice().afterSigning(name, value).body());
    }

    @Test
    void emptyValuesAreNotSigned() {
        // a parameter with an empty value may be added or dropped without touching the signature
        VerifiedNotification n = verify(aNotice().afterSigning("body", "").afterSigning("passback_params", ""));
        assertEquals(NotifyClass.PAID, n.notifyClass());
        assertEquals(
                NotifyClass.PAID,
                verify(aNotice().set("body", "").afterSigning("body", null)).notifyClass());
    }

    // ---- charsets and escapes

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"gbk", "GBK", "gb2312", "GB2312"})
    void gbkBodiesWithChineseText(String charset) throws Exception {
        byte[] body = aNotice()
                .charset(charset)
                .set("subject", "大乐透2.1 测试")
                .set("body", "中文 + & = % 空格")
                .body();
        // 测 is B2 E2 in GBK
        assertTrue(text(body).contains("%B2%E2"), text(body));
        assertEquals(NotifyClass.PAID, verify(body).notifyClass());
        var decoded = AlipayForm.decode(body).params();
        assertEquals("大乐透2.1 测试", decoded.get("subject"));
        assertEquals("中文 + & = % 空格", decoded.get("body"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"utf-8", "UTF-8", "utf8", "UTF8", "Utf-8"})
    void utf8Variants(String charset) {
        assertEquals(NotifyClass.PAID, verify(aNotice().charset(charset)).notifyClass());
    }

    @Test
    void aBodyDecodedInTheWrongCharsetDoesNotVerify() {
        // signed over UTF-8 text but declaring gbk: the bytes decode as GBK to other text, so the signature fails
        String body = aNotice().set("subject", "测试商品").bodyText();
        assertTrue(body.contains("charset=utf-8"), body);
        assertUnauthenticated(ascii(body.replace("charset=utf-8", "charset=gbk")));
    }

    @Test
    void specialCharactersAndEmojiAreDecodedOnce() throws Exception {
        byte[] body = aNotice()
                .set("subject", "a+b & c=d %41 100% 😀 空 格")
                .set("body", "  lead and trail  ")
                // the merchant URL-encoded passback_params; it arrives still encoded and must not be decoded twice
                .set("passback_params", "%7B%22k%22%3A%22v%2Bw%22%7D")
                .body();
        assertTrue(text(body).contains("passback_params=%257B%2522k"), text(body));
        assertEquals(NotifyClass.PAID, verify(body).notifyClass());
        var decoded = AlipayForm.decode(body).params();
        assertEquals("%7B%22k%22%3A%22v%2Bw%22%7D", decoded.get("passback_params"));
        assertEquals("a+b & c=d %41 100% 😀 空 格", decoded.get("subject"));
        assertEquals("  lead and trail  ", decoded.get("body"));
    }

    static Stream<Arguments> repeatedParameters() {
        var out = new ArrayList<Arguments>();
        for (String extra : List.of(
                "notify_id=x",
                "out_trade_no=" + ORDER_NO,
                "charset=utf-8",
                "charset=gbk",
                "sign_type=RSA2",
                "sign=AAAA",
                "trade_status=TRADE_SUCCESS",
                "total_amount=1.00",
                "out%5Ftrade%5Fno=" + ORDER_NO)) {
            out.add(Arguments.of(extra, "after"));
            out.add(Arguments.of(extra, "before"));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} the body")
    @MethodSource("repeatedParameters")
    void aParameterGivenTwiceIs400(String extra, String where) {
        String body = aNotice().bodyText();
        assertBadRequest(Cause.UNPARSEABLE, ascii(where.equals("after") ? body + "&" + extra : extra + "&" + body));
    }

    @ParameterizedTest
    @ValueSource(strings = {"latin1", "ISO-8859-1", "utf-16", "big5", "gb18030", "UTF-8 ", "utf_8", "ascii", ""})
    void otherCharsetsAre400(String charset) {
        String body = aNotice().bodyText();
        assertTrue(body.contains("charset=utf-8"), body);
        assertBadRequest(
                Cause.UNPARSEABLE,
                ascii(body.replace("charset=utf-8", "charset=" + URLEncoder.encode(charset, StandardCharsets.UTF_8))));
    }

    @Test
    void aCharsetWithoutAValueIs400() {
        assertBadRequest(Cause.UNPARSEABLE, ascii(aNotice().bodyText().replace("charset=utf-8", "charset")));
    }

    @Test
    void aPercentEncodedCharsetNameIs400() {
        // %63harset is "charset" once decoded: the body would otherwise be read as GBK whatever it declares
        String body = aNotice().bodyText();
        assertBadRequest(Cause.UNPARSEABLE, ascii(body.replace("charset=utf-8", "%63harset=utf-8")));
        assertBadRequest(Cause.UNPARSEABLE, ascii(body.replace("charset=utf-8", "%63harset=gbk")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "memo=%zz",
                "memo=%4",
                "memo=%",
                "memo=%G1",
                "memo=%%41",
                "memo=%C0%AF",
                "memo=%FF",
                "memo=%E6%B5",
                "memo=%ED%A0%80",
                "memo=a%00b",
                "%ZZ=1",
                "=value"
            })
    void malformedEscapesAndInvalidBytesAre400(String part) {
        assertBadRequest(Cause.UNPARSEABLE, ascii(aNotice().bodyText() + "&" + part));
    }

    @Test
    void aGbkLeadByteWithoutItsTrailByteIs400() {
        assertBadRequest(Cause.UNPARSEABLE, ascii(aNotice().charset("gbk").bodyText() + "&memo=%B2"));
    }

    // ---- required fields and ids

    static Stream<Arguments> requiredFields() {
        var out = new ArrayList<Arguments>();
        for (String field : List.of("notify_id", "app_id", "out_trade_no", "trade_no", "trade_status")) {
            out.add(Arguments.of(field, null, Cause.MISSING_FIELD));
            out.add(Arguments.of(field, "", Cause.MISSING_FIELD));
        }
        // a payment without its amount cannot be compared with the order
        out.add(Arguments.of("total_amount", null, Cause.BAD_AMOUNT));
        out.add(Arguments.of("total_amount", "", Cause.BAD_AMOUNT));
        return out.stream();
    }

    @ParameterizedTest(name = "{0}=''{1}''")
    @MethodSource("requiredFields")
    void missingRequiredFieldsAre400(String field, String value, Cause cause) {
        // signed without the field (an empty value is not signed): refused for the field, not the signature
        assertBadRequest(cause, aNotice().set(field, value).body());
    }

    @ParameterizedTest
    @CsvSource({"TRADE_CLOSED, CLOSE", "WAIT_BUYER_PAY, INFO", "TRADE_PENDING, UNKNOWN"})
    void totalAmountIsRequiredForPaidOnly(String status, NotifyClass cls) {
        VerifiedNotification n = verify(aNotice().status(status).without("total_amount"));
        assertEquals(cls, n.notifyClass());
        assertNull(n.amountMinor());
    }

    @Test
    void aRefundNeedsNoTotalAmountAndRecordsItsRefundFee() {
        VerifiedNotification refund = verify(aNotice().without("total_amount").set("refund_fee", "1.00"));
        assertEquals(NotifyClass.REFUND, refund.notifyClass());
        // the recorded amount of a refund notice is the refund_fee it states (the trade's running total)
        assertEquals(100L, refund.amountMinor());
        assertEquals(100L, refund.refund().amount());
        assertTrue(refund.refund().cumulative());
    }

    static Stream<Arguments> malformedIds() {
        return Stream.of(
                Arguments.of("out_trade_no", "A".repeat(65)),
                Arguments.of("out_trade_no", "ORD 1"),
                Arguments.of("out_trade_no", "订单"),
                Arguments.of("out_trade_no", "ORD.1"),
                Arguments.of("trade_no", "T".repeat(65)),
                Arguments.of("trade_no", "T 1"),
                Arguments.of("trade_no", "T\u00e91"),
                Arguments.of("trade_status", "TRADE SUCCESS"),
                Arguments.of("notify_id", "n".repeat(129)),
                Arguments.of("notify_id", "n 1"),
                Arguments.of("notify_id", "n\u00e91"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("malformedIds")
    void malformedIdsAre400(String field, String value) {
        assertBadRequest(Cause.MISSING_FIELD, aNotice().set(field, value).body());
    }

    @Test
    void idsAtTheirLongestAreAccepted() {
        // 64 characters is the Alipay maximum of out_trade_no, with every allowed character
        String no = "Ab0_-|*" + "x".repeat(57);
        VerifiedNotification n =
                verify(aNotice().orderNo(no).tradeNo("T".repeat(64)).set("notify_id", "n".repeat(128)));
        assertEquals(no, n.outTradeNo());
        assertEquals("T".repeat(64), n.transactionId());
        assertEquals("n".repeat(128), n.notifyId());
    }

    // ---- amounts

    @ParameterizedTest
    @CsvSource({"0.01, 1", "100000000.00, 10000000000", "100000000, 10000000000", "178.2, 17820", "5, 500"})
    void amountsAtTheBounds(String totalAmount, long fen) {
        VerifiedNotification n = verify(aNotice().amount(totalAmount));
        assertEquals(NotifyClass.PAID, n.notifyClass());
        assertEquals(fen, n.amountMinor());
    }

    static Stream<Arguments> malformedPaidAmounts() {
        var out = new ArrayList<Arguments>();
        for (String status : List.of("TRADE_SUCCESS", "TRADE_FINISHED")) {
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
                out.add(Arguments.of(status, amount));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} total_amount=''{1}''")
    @MethodSource("malformedPaidAmounts")
    void malformedTotalAmountOnAPaidNoticeIs400(String status, String amount) {
        assertBadRequest(
                Cause.BAD_AMOUNT, aNotice().status(status).amount(amount).body());
    }

    @ParameterizedTest
    @CsvSource({"TRADE_CLOSED, 1.0.0, CLOSE", "WAIT_BUYER_PAY, -1, INFO", "TRADE_PENDING, abc, UNKNOWN"})
    void malformedAmountsInOtherClassesAreNull(String status, String amount, NotifyClass cls) {
        VerifiedNotification n = verify(aNotice().status(status).amount(amount));
        assertEquals(cls, n.notifyClass());
        assertNull(n.amountMinor());
    }

    // ---- times

    @Test
    void paidAtIsGmtPaymentInBeijingTime() {
        assertEquals(
                Instant.parse("2025-12-31T16:00:00Z"),
                verify(aNotice().set("gmt_payment", "2026-01-01 00:00:00")).paidAt());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "2026-02-30 11:04:05", "2026-01-02T11:04:05", "20260102110405", "2026-01-02 11:04"})
    void absentOrMalformedGmtPaymentIsNoPaidAtButNoRefusal(String gmtPayment) {
        // the intake then takes the arrival time (intake/NotificationRulesTest)
        VerifiedNotification n = verify(aNotice().set("gmt_payment", gmtPayment));
        assertEquals(NotifyClass.PAID, n.notifyClass());
        assertNull(n.paidAt());
        assertEquals(RECEIVED_AT, n.receivedAt());
    }
}
