package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Unit.RECEIVED_AT;
import static io.paynotify.provider.wechatv2.WechatV2Unit.accepted;
import static io.paynotify.provider.wechatv2.WechatV2Unit.assertRefused;
import static io.paynotify.provider.wechatv2.WechatV2Unit.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Unit.newTxn;
import static io.paynotify.provider.wechatv2.WechatV2Unit.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.AckResponse;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.provider.SafeXmlTest;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV2Fixtures.Notice;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WeChat Pay v2 deliveries that must be refused (400 or 401, never stored), and the ones that must pass although
 * they look odd: signatures and their vectors, sign types and downgrades, key rotation, XML attacks, required fields,
 * amounts at and past the bounds, payment times, and refund notices that do not decrypt. The adapter is called
 * directly; {@code WechatV2TransportTest} keeps what only the HTTP route decides (404, 413, the answers' bytes).
 */
@Tag("unit")
class WechatV2AdapterTest {

    static Notice payment(String no, String txn) {
        return WechatV2Fixtures.payment(no, txn, 100);
    }

    static Notice payment() {
        return payment(newOrderNo(), newTxn());
    }

    /** A payment notice of the HMAC-only channel {@link TestChannels#WX_HMAC}. */
    static Notice hmacChannelPayment() {
        return payment().with("appid", TestChannels.WX_HMAC_APPID).with("mch_id", TestChannels.WX_HMAC_MCH);
    }

    static void assertPaid(Notice n, VerifiedNotification v) {
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(n.get("out_trade_no"), v.outTradeNo());
        assertEquals(n.get("transaction_id"), v.transactionId());
        assertEquals(Long.parseLong(n.get("total_fee")), v.amountMinor());
        assertFalse(v.accountMismatch());
    }

    // ---- signatures

    @ParameterizedTest
    @ValueSource(strings = {"MD5", "HMAC-SHA256"})
    void declaredSignTypesAreAccepted(String type) {
        Notice n = payment().with("sign_type", type);
        assertPaid(n, accepted(n.signedWith(TestChannels.WX_KEY, type)));
    }

    @Test
    void hmacOnlyChannelAcceptsHmac() {
        Notice n = hmacChannelPayment().with("sign_type", "HMAC-SHA256");
        VerifiedNotification v = accepted(TestChannels.WX_HMAC, n.signedWith(TestChannels.WX_HMAC_KEY, "HMAC-SHA256"));
        assertPaid(n, v);
        assertEquals(TestChannels.WX_HMAC, v.channel());
    }

    @Test
    void absentSignTypeWithA64HexSignIsHmac() {
        // WeChat Pay v2 known pitfall: notices for HMAC orders may come without sign_type
        Notice n = payment();
        assertNull(n.get("sign_type"));
        byte[] body = n.hmac();
        assertTrue(new String(body, StandardCharsets.UTF_8).matches(".*<sign><!\\[CDATA\\[[0-9A-F]{64}]]></sign>.*"));
        assertPaid(n, accepted(body));

        Notice h = hmacChannelPayment();
        assertPaid(h, accepted(TestChannels.WX_HMAC, h.signedWith(TestChannels.WX_HMAC_KEY, "HMAC-SHA256")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"MD5", "HMAC-SHA256"})
    void lowercaseHexSignIsAccepted(String type) {
        Notice n = payment();
        Notice lower = n.with(
                "sign",
                WechatV2Fixtures.sign(n.fields(), TestChannels.WX_KEY, type).toLowerCase());
        assertPaid(n, accepted(lower.unsigned()));
    }

    static Stream<Arguments> changesAfterSigning() {
        return Stream.of(
                Arguments.of("total_fee", "1"),
                Arguments.of("out_trade_no", newOrderNo()),
                Arguments.of("attach", "x"),
                Arguments.of("sign_type", "MD5"),
                Arguments.of("nonce_str", "5d2b6c2a8db53831f7eda20af46e531d"),
                Arguments.of("transaction_id", newTxn()),
                // a field dropped after signing
                Arguments.of("openid", null));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("changesAfterSigning")
    void aFieldChangedAfterSigningIs401(String field, String value) {
        var f = payment().signedFields(TestChannels.WX_KEY, "MD5");
        if (value == null) {
            f.remove(field);
        } else {
            f.put(field, value);
        }
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, WechatV2Fixtures.body(f));
    }

    @Test
    void missingOrEmptySignIs401NeverAnything400() {
        Notice n = payment();
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, n.unsigned());
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, n.with("sign", "").unsigned());
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, utf8(n.xml().replace("</xml>", "<sign></sign></xml>")));
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, utf8(n.xml().replace("</xml>", "<sign/></xml>")));
    }

    @Test
    void returnCodeFailIsAlways401() {
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                utf8(
                        "<xml><return_code><![CDATA[FAIL]]></return_code><return_msg><![CDATA[签名失败]]></return_msg></xml>"));
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, utf8("<xml><return_code>FAIL</return_code></xml>"));
        // even with every field present and a valid signature
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                payment().with("return_code", "FAIL").md5());
        // and any other return_code value
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                payment().with("return_code", "success").md5());
    }

    @Test
    void every401CauseIsTheSameKind() {
        // the answer depends on the kind alone (see failureAcksDependOnTheStatusAlone): never say which check failed
        Notice n = payment();
        var tampered = n.signedFields(TestChannels.WX_KEY, "MD5");
        tampered.put("total_fee", "1");
        for (byte[] body : List.of(
                n.unsigned(),
                WechatV2Fixtures.body(tampered),
                n.with("return_code", "FAIL").md5(),
                n.with("sign_type", "junk").md5(),
                n.signedWith("strangerstrangerstrangerstranger", "HMAC-SHA256"),
                WechatV2Fixtures.body(WechatV2Fixtures.refundNotice("AAAAAAAAAAAAAAAAAAAAAA==")))) {
            assertRefused(Kind.UNAUTHENTICATED, body);
        }
    }

    @Test
    void failureAcksDependOnTheStatusAlone() {
        var adapter = new WechatV2Adapter();
        for (int status : new int[] {400, 401, 404, 413, 422, 503}) {
            AckResponse ack = adapter.failure(status);
            assertEquals(status, ack.status());
            assertEquals("application/xml", ack.contentType());
            assertEquals(
                    WechatV2Http.fail(io.paynotify.provider.NotifyAdapter.reasonText(status)),
                    new String(ack.body(), StandardCharsets.US_ASCII));
        }
        assertEquals(WechatV2Http.FAIL_401, new String(adapter.failure(401).body(), StandardCharsets.US_ASCII));
        AckResponse ok = adapter.success();
        assertEquals(200, ok.status());
        assertEquals("application/xml", ok.contentType());
        assertEquals(WechatV2Http.OK, new String(ok.body(), StandardCharsets.US_ASCII));
    }

    @Test
    void md5IsADowngradeOnAnHmacOnlyChannel() {
        Notice declared = hmacChannelPayment().with("sign_type", "MD5");
        assertRefused(Kind.UNAUTHENTICATED, TestChannels.WX_HMAC, declared.signedWith(TestChannels.WX_HMAC_KEY, "MD5"));
        // inferred from a 32-hex sign: still MD5, still refused
        assertRefused(
                Kind.UNAUTHENTICATED,
                TestChannels.WX_HMAC,
                hmacChannelPayment().signedWith(TestChannels.WX_HMAC_KEY, "MD5"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hmac-sha256", "HMAC-SHA-256", "SHA256", "md5", "junk", "HMAC-SHA256 ", "RSA"})
    void unknownSignTypesAre401(String type) {
        Notice n = payment().with("sign_type", type);
        // signed "correctly" with either algorithm: the type itself is refused
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, n.hmac());
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, n.md5());
    }

    @Test
    void aDeclaredTypeThatDoesNotMatchTheSignsLengthIs401() {
        Notice n = payment().with("sign_type", "MD5");
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                n.with("sign", WechatV2Fixtures.sign(n.fields(), TestChannels.WX_KEY, "HMAC-SHA256"))
                        .unsigned());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ABC",
                "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
                "９A0A8659F005D6984697E2CA0A9CF3B7",
                "000000000000000000000000000000000000000000000000"
            })
    void aSignOfNeitherLengthOrNotHexIs401(String sign) {
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                payment().with("sign", sign).unsigned());
    }

    @ParameterizedTest
    @ValueSource(strings = {"MD5", "HMAC-SHA256"})
    void apiKeyRotationAcceptsBothKeysAndNoOther(String type) {
        Notice n = payment();
        assertPaid(n, accepted(n.signedWith(TestChannels.WX_KEY_NEXT, type)));
        assertPaid(n, accepted(n.signedWith(TestChannels.WX_KEY, type)));
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, n.signedWith("strangerstrangerstrangerstranger", type));
        // another channel's key is a stranger here too
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, n.signedWith(TestChannels.WX_HMAC_KEY, type));
    }

    @Test
    void specialCharactersChineseAndEmojiAreSignedAsSentAndTheBodyIsKeptAsReceived() {
        Notice n = payment()
                .with("attach", "a+b & c=d %20 %zz 100% 空格 中文 😀 <tag> \"q\" 'q'")
                .with("body", "腾讯充值中心-QQ会员充值");
        byte[] body = n.md5();
        VerifiedNotification v = accepted(body);
        assertPaid(n, v);
        assertArrayEquals(body, v.rawBody());
    }

    @Test
    void couponFieldsAreCoveredByTheSignature() {
        Notice n = payment()
                .with("cash_fee", "60")
                .with("coupon_fee", "40")
                .with("coupon_count", "2")
                .with("coupon_type_0", "CASH")
                .with("coupon_id_0", "10000")
                .with("coupon_fee_0", "30")
                .with("coupon_type_1", "NO_CASH")
                .with("coupon_id_1", "10001")
                .with("coupon_fee_1", "10");
        var s = n.signedFields(TestChannels.WX_KEY, "MD5");
        for (String field : List.of("coupon_fee_0", "coupon_id_1", "coupon_type_0", "coupon_count")) {
            var t = new LinkedHashMap<>(s);
            t.put(field, t.get(field) + "9");
            assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, WechatV2Fixtures.body(t));
            var d = new LinkedHashMap<>(s);
            d.remove(field);
            assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, WechatV2Fixtures.body(d));
        }
        // the amount compared is total_fee, never cash_fee
        assertEquals(100L, accepted(WechatV2Fixtures.body(s)).amountMinor());
    }

    @Test
    void unindexedCouponFieldsAreCoveredToo() {
        Notice n = payment()
                .with("coupon_fee", "10")
                .with("coupon_count", "1")
                .with("coupon_type", "CASH")
                .with("coupon_id", "10000");
        var s = n.signedFields(TestChannels.WX_KEY, "HMAC-SHA256");
        var t = new LinkedHashMap<>(s);
        t.put("coupon_id", "10001");
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, WechatV2Fixtures.body(t));
        assertPaid(n, accepted(WechatV2Fixtures.body(s)));
    }

    @Test
    void unknownFieldsAreSignedAndKept() {
        Notice n = payment()
                .with("promotion_detail", "[{\"promotion_id\":\"1\",\"amount\":0}]")
                .with("zz_new_field_2030", "v");
        byte[] body = n.md5();
        VerifiedNotification v = accepted(body);
        assertPaid(n, v);
        assertArrayEquals(body, v.rawBody());
        // and they are signed: changing one after signing is refused
        var t = n.signedFields(TestChannels.WX_KEY, "MD5");
        t.put("zz_new_field_2030", "w");
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, WechatV2Fixtures.body(t));
    }

    // ---- XML

    @Test
    void externalEntityToAFileIs400AndNothingLeaks() throws Exception {
        Path secret = Files.createTempFile("pn-secret", ".txt");
        try {
            Files.writeString(secret, "TOP-SECRET-VALUE");
            String xml = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>"
                    + WechatV2Fixtures.xml(payment().signedFields(TestChannels.WX_KEY, "MD5"))
                            .replace("<![CDATA[JSAPI]]>", "&xxe;");
            NotifyRejection r = assertRefused(Kind.BAD_REQUEST, utf8(xml));
            assertEquals(Cause.UNPARSEABLE, r.rejectionCause());
            // the answer is failure(400), fixed bytes; the rejection itself carries nothing of the file either
            assertFalse(r.getMessage().contains("TOP-SECRET"));
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    @Test
    void parameterEntitiesExternalDtdsAndXIncludeAre400AndFetchNothing() throws Exception {
        try (var listener = new SafeXmlTest.Listener()) {
            String signedXml = WechatV2Fixtures.xml(payment().signedFields(TestChannels.WX_KEY, "MD5"));
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
                assertRefused(Kind.BAD_REQUEST, Cause.UNPARSEABLE, utf8(xml));
            }
            assertEquals(0, listener.connections(), "the parser must never fetch anything");
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
        assertRefused(Kind.BAD_REQUEST, Cause.UNPARSEABLE, utf8(sb.toString()));
    }

    /** The genuine signed document every malformed shape below is made from. */
    static final String SIGNED_XML = WechatV2Fixtures.xml(payment().signedFields(TestChannels.WX_KEY, "MD5"));

    static Stream<Arguments> malformedShapes() {
        String xml = SIGNED_XML;
        byte[] utf8 = utf8(xml);
        byte[] bom = new byte[utf8.length + 3];
        bom[0] = (byte) 0xEF;
        bom[1] = (byte) 0xBB;
        bom[2] = (byte) 0xBF;
        System.arraycopy(utf8, 0, bom, 3, utf8.length);
        // invalid UTF-8 inside a value
        byte[] badUtf8 = utf8(xml.replace("CFT", "C\u0001T"));
        for (int i = 0; i < badUtf8.length; i++) {
            if (badUtf8[i] == 1) {
                badUtf8[i] = (byte) 0xC0;
            }
        }
        return Stream.of(
                Arguments.of("byte order mark", bom),
                Arguments.of("declared UTF-16, sent UTF-8", utf8("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + xml)),
                Arguments.of(
                        "UTF-16",
                        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + xml).getBytes(StandardCharsets.UTF_16)),
                Arguments.of("two documents", utf8(xml + xml)),
                Arguments.of("trailing text", utf8(xml + "junk")),
                Arguments.of("trailing element", utf8(xml + "<x/>")),
                Arguments.of("nested element", utf8(xml.replace("<![CDATA[CFT]]>", "<b>CFT</b>"))),
                Arguments.of("a field twice", utf8(xml.replace("</xml>", "<total_fee>100</total_fee></xml>"))),
                Arguments.of(
                        "an unchanged field twice",
                        utf8(xml.replace(
                                "</xml>",
                                "<nonce_str><![CDATA[5d2b6c2a8db53831f7eda20af46e531c]]></nonce_str></xml>"))),
                Arguments.of("another root", utf8(xml.replace("<xml>", "<root>").replace("</xml>", "</root>"))),
                Arguments.of("truncated", utf8(xml.substring(0, xml.length() - 3))),
                Arguments.of("empty", new byte[0]),
                Arguments.of("JSON", utf8("{\"return_code\":\"SUCCESS\"}")),
                Arguments.of("invalid UTF-8", badUtf8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedShapes")
    void malformedXmlShapesAre400(String shape, byte[] body) {
        assertRefused(Kind.BAD_REQUEST, Cause.UNPARSEABLE, body);
    }

    @Test
    void theDocumentTheMalformedShapesAreMadeFromPasses() {
        assertEquals(NotifyClass.PAID, accepted(utf8(SIGNED_XML)).notifyClass());
    }

    // ---- required fields

    @ParameterizedTest
    @ValueSource(
            strings = {"return_code", "appid", "mch_id", "result_code", "out_trade_no", "transaction_id", "total_fee"})
    void missingOrEmptyRequiredFieldIs400(String field) {
        assertRefused(
                Kind.BAD_REQUEST, Cause.MISSING_FIELD, payment().without(field).md5());
        assertRefused(
                Kind.BAD_REQUEST, Cause.MISSING_FIELD, payment().with(field, "").md5());
    }

    @ParameterizedTest
    @ValueSource(strings = {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "ORD 1", " ORD1", "ORD#1", "ＯＲＤ１", "ORD\\1", "订单1"})
    void malformedOutTradeNoIs400(String no) {
        assertRefused(
                Kind.BAD_REQUEST, Cause.MISSING_FIELD, payment(no, newTxn()).md5());
    }

    @Test
    void outTradeNoOf32CharactersOfTheWholeAlphabetIsAccepted() {
        String no = "Ab0_-|*" + "x".repeat(25);
        assertEquals(32, no.length());
        assertEquals(no, accepted(payment(no, newTxn()).md5()).outTradeNo());
    }

    // ---- amounts

    @ParameterizedTest
    @ValueSource(longs = {1, 9_999_999_999L})
    void amountsAtTheBoundsAreRead(long fee) {
        VerifiedNotification v =
                accepted(WechatV2Fixtures.payment(newOrderNo(), newTxn(), fee).md5());
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(fee, v.amountMinor());
    }

    @Test
    void tenBillionFenCannotBeExpressedInTheWechatPattern() {
        // the contract's WeChat pattern is ^[0-9]{1,10}$: the largest order amount has 11 digits
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.BAD_AMOUNT,
                WechatV2Fixtures.payment(newOrderNo(), newTxn(), 10_000_000_000L)
                        .md5());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"１００", "1E+5000000", "-1", "+1", " 1", "1 ", "1.0", "100.00", "0x64", "1e2", "١٠٠", "99999999999"
            })
    void malformedTotalFeeOnAPaidNoticeIs400(String fee) {
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.BAD_AMOUNT,
                payment().with("total_fee", fee).md5());
    }

    @Test
    void malformedAmountsInOtherClassesAreNull() {
        String txn = newTxn();
        VerifiedNotification info = accepted(payment(newOrderNo(), txn)
                .with("result_code", "FAIL")
                .with("total_fee", "1.0")
                .md5());
        assertEquals(NotifyClass.INFO, info.notifyClass());
        assertEquals("FAIL", info.providerStatus());
        assertNull(info.amountMinor());
        assertEquals(txn, info.transactionId());

        // a refund notice's amounts bind the refund to the order (AES-ECB has no MAC): a total_fee or a
        // SUCCESS refund_fee that does not parse is refused, never read as null
        for (String field : new String[] {"total_fee", "refund_fee"}) {
            var refund = WechatV2Fixtures.refundInfo(newOrderNo(), txn, 100, "SUCCESS");
            refund.put(field, "１００");
            assertRefused(Kind.BAD_REQUEST, Cause.BAD_AMOUNT, WechatV2Fixtures.refundBody(refund, TestChannels.WX_KEY));
        }
        // in another refund status a malformed refund_fee is recorded as null
        var closed = WechatV2Fixtures.refundInfo(newOrderNo(), txn, 100, "REFUNDCLOSE");
        closed.put("refund_fee", "1.0");
        VerifiedNotification r = accepted(WechatV2Fixtures.refundBody(closed, TestChannels.WX_KEY));
        assertEquals(NotifyClass.REFUND, r.notifyClass());
        assertEquals("REFUNDCLOSE", r.providerStatus());
        assertNull(r.amountMinor());
        assertEquals(txn, r.transactionId());
    }

    // ---- times

    @ParameterizedTest
    @CsvSource({
        "20140903131540, 2014-09-03T05:15:40Z",
        // midnight in Beijing is the previous day in UTC
        "20260101000000, 2025-12-31T16:00:00Z"
    })
    void paidAtIsTimeEndInBeijingTime(String timeEnd, Instant paidAt) {
        VerifiedNotification v = accepted(payment().with("time_end", timeEnd).md5());
        assertEquals(paidAt, v.paidAt());
        assertEquals(RECEIVED_AT, v.receivedAt());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "20140231131540", "2014-09-03 13:15:40", "201409031315", "２０１４０９０３１３１５４０"})
    void malformedTimeEndIsNoPaidAt(String timeEnd) {
        // the intake then takes the arrival time (intake/NotificationRulesTest): a bad time never refuses a payment
        VerifiedNotification v = accepted(payment().with("time_end", timeEnd).md5());
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertNull(v.paidAt());
        assertEquals(RECEIVED_AT, v.receivedAt());
    }

    @Test
    void absentTimeEndIsNoPaidAt() {
        VerifiedNotification v = accepted(payment().without("time_end").md5());
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertNull(v.paidAt());
        assertEquals(RECEIVED_AT, v.receivedAt());
    }

    // ---- refund notices that must be refused

    static Stream<Arguments> undecryptableReqInfo() throws Exception {
        var info = WechatV2Fixtures.refundInfo(newOrderNo(), newTxn(), 100, "SUCCESS");
        return Stream.of(
                Arguments.of(
                        "a stranger's key", WechatV2Fixtures.encryptReqInfo(info, "strangerstrangerstrangerstranger")),
                Arguments.of("another channel's key", WechatV2Fixtures.encryptReqInfo(info, TestChannels.WX_HMAC_KEY)),
                Arguments.of("not base64", "!!!not base64!!!"),
                Arguments.of("not whole blocks", Base64.getEncoder().encodeToString(new byte[15])),
                Arguments.of("zeros", Base64.getEncoder().encodeToString(new byte[64])),
                Arguments.of(
                        "the right key but not a document",
                        WechatV2Fixtures.encryptReqInfo(utf8("hello"), TestChannels.WX_KEY)),
                Arguments.of("the raw key instead of its MD5", rawKeyEncrypt(info)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("undecryptableReqInfo")
    void refundThatDoesNotDecryptIs401(String why, String reqInfo) {
        assertRefused(
                Kind.UNAUTHENTICATED, Cause.DECRYPTION, WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(reqInfo)));
    }

    @Test
    void refundWithReturnCodeFailIsNotEvenDecrypted() {
        var fail = WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(newOrderNo(), newTxn(), 100, "SUCCESS"), TestChannels.WX_KEY));
        fail.put("return_code", "FAIL");
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, WechatV2Fixtures.body(fail));
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

    @ParameterizedTest
    @ValueSource(strings = {"appid", "mch_id", "return_code"})
    void refundMissingAnOuterFieldIs400(String field) {
        var f = WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(newOrderNo(), newTxn(), 100, "SUCCESS"), TestChannels.WX_KEY));
        f.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, WechatV2Fixtures.body(f));
    }

    @Test
    void refundWithAnEmptyReqInfoIs400() {
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, WechatV2Fixtures.body(WechatV2Fixtures.refundNotice("")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"out_trade_no", "refund_status"})
    void refundMissingAnEncryptedFieldIs400(String field) {
        var info = WechatV2Fixtures.refundInfo(newOrderNo(), newTxn(), 100, "SUCCESS");
        info.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, WechatV2Fixtures.refundBody(info, TestChannels.WX_KEY));
    }

    @Test
    void refundWithAMalformedOutTradeNoIs400() {
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.MISSING_FIELD,
                WechatV2Fixtures.refundBody("A".repeat(33), newTxn(), 100, "SUCCESS"));
    }

    @Test
    void refundEncryptedWithTheSecondKeyOfARotationIsAccepted() {
        String no = newOrderNo();
        String txn = newTxn();
        VerifiedNotification v = accepted(WechatV2Fixtures.refundBody(
                WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS"), TestChannels.WX_KEY_NEXT));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(no, v.outTradeNo());
        assertEquals("SUCCESS", v.providerStatus());
        assertEquals(100L, v.amountMinor());
        assertEquals(txn, v.transactionId());
    }

    @Test
    void refundForTheSecondKeyIsAcceptedEvenWhenTheFirstKeyHappensToUnpad() throws Exception {
        // About 1 in 256 ciphertexts for the second key also "decrypt" with the first one (the padding happens to
        // be valid); the garbage that comes out must not end the search.
        String no = newOrderNo();
        String txn = newTxn();
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
        assertNotNull(reqInfo, "no colliding ciphertext found");
        VerifiedNotification v = accepted(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(reqInfo)));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(no, v.outTradeNo());
        assertEquals("SUCCESS", v.providerStatus());
        assertEquals(100L, v.amountMinor());
        assertEquals(txn, v.transactionId());
    }
}
