package io.paynotify.provider.wechatv3;

import static io.paynotify.provider.wechatv3.WechatV3Unit.NOW;
import static io.paynotify.provider.wechatv3.WechatV3Unit.RECEIVED_AT;
import static io.paynotify.provider.wechatv3.WechatV3Unit.accepted;
import static io.paynotify.provider.wechatv3.WechatV3Unit.assertRefused;
import static io.paynotify.provider.wechatv3.WechatV3Unit.newOrderNo;
import static io.paynotify.provider.wechatv3.WechatV3Unit.paid;
import static io.paynotify.provider.wechatv3.WechatV3Unit.signed;
import static io.paynotify.provider.wechatv3.WechatV3Unit.signedEnvelope;
import static io.paynotify.provider.wechatv3.WechatV3Unit.signedResource;
import static io.paynotify.provider.wechatv3.WechatV3Unit.txnId;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.AckResponse;
import io.paynotify.provider.NotifyAdapter;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WeChat Pay v3 deliveries checked by the adapter in the order of docs/api.md "How a notification is handled", with a fixed clock: the headers
 * and signature over the raw bytes, freshness (401), the envelope (400), decryption (401), the resource (400).
 * Whether a refused delivery is stored or how it is answered over HTTP is {@code WechatV3NotifyTest}'s; which class
 * an accepted one is, {@code WechatV3ClassificationTest}'s.
 */
@Tag("unit")
class WechatV3AdapterTest {

    static byte[] bodyOf(String eventType, Map<String, Object> resourceFields) {
        return WechatV3Fixtures.body(eventType, resourceFields).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] paidBody(String no, long total) {
        return bodyOf("TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(no, txnId(no), total));
    }

    static Delivery signedBy(byte[] body, String keyName, String serial) {
        return WechatV3Fixtures.signed(body, keyName, serial, NOW);
    }

    // --- accepted as sent ------------------------------------------------------------------------------------------

    @Test
    void chineseSummaryAndFieldsAreVerifiedOnTheRawBytesAndKeptIntact() {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 2);
        r.put("attach", "订单附言：深圳市腾讯科技 ½ ✓");
        String nonce = WechatV3Fixtures.random(12);
        String ct = WechatV3Fixtures.encrypt(nonce, "transaction", WechatV3Fixtures.json(r));
        var envelope = WechatV3Fixtures.envelope(
                "TRANSACTION.SUCCESS", "支付成功（测试）", WechatV3Fixtures.resource(ct, nonce, "transaction"));
        // written as WeChat does: UTF-8, no escapes, no trailing newline
        Delivery d = signed(WechatV3Fixtures.json(envelope));
        assertTrue(d.bodyText().contains("支付成功（测试）"));

        VerifiedNotification v = accepted(d);
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertArrayEquals(d.body(), v.rawBody());
        assertTrue(v.decoded().contains("订单附言：深圳市腾讯科技 ½ ✓"), v.decoded());
    }

    @ParameterizedTest
    @NullAndEmptySource
    void absentOrEmptyAssociatedDataIsEmpty(String aad) {
        String no = newOrderNo();
        String nonce = WechatV3Fixtures.random(12);
        String ct = WechatV3Fixtures.encrypt(
                nonce, aad, WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 5)));
        VerifiedNotification v = accepted(signedEnvelope(WechatV3Fixtures.resource(ct, nonce, aad)));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(no, v.outTradeNo());
    }

    @Test
    void absentSignatureTypeIsAccepted() {
        String no = newOrderNo();
        assertEquals(
                NotifyClass.PAID,
                accepted(paid(no, 8).withoutHeader("Wechatpay-Signature-Type")).notifyClass());
    }

    // --- keys: rotation and the certificate-to-public-key migration -----------------------------------------------

    @Test
    void bothLiveSerialsAreAccepted() {
        String byCert = newOrderNo();
        String byPubKey = newOrderNo();
        assertEquals(
                byCert,
                accepted(signedBy(paidBody(byCert, 10), TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL))
                        .outTradeNo());
        assertEquals(
                byPubKey,
                accepted(signedBy(paidBody(byPubKey, 11), TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_PUBKEY_ID))
                        .outTradeNo());
    }

    @Test
    void anUnconfiguredSerialOrALiveSerialOfAnotherKeyIsRefused() {
        byte[] body = paidBody(newOrderNo(), 12);
        // a certificate retired from the configuration (never configured here): its serial and key are refused
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                signedBy(body, TestKeys.STRANGER, "2C3B4A5968778695A4B3C2D1E0F1E2D3C4B5A697"));
        // a live serial does not lend its name to another key
        assertRefused(
                Kind.UNAUTHENTICATED, Cause.SIGNATURE, signedBy(body, TestKeys.STRANGER, TestChannels.WX3_PUBKEY_ID));
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                signedBy(body, TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_CERT_SERIAL));
    }

    @Test
    void unknownSerialIs401() {
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                paid(newOrderNo(), 25).withHeader("Wechatpay-Serial", "PUB_KEY_ID_0000000000000024101100397200000007"));
    }

    // --- 401: headers and signature --------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"Wechatpay-Timestamp", "Wechatpay-Nonce", "Wechatpay-Signature", "Wechatpay-Serial"})
    void missingOrEmptyHeaderIs401(String header) {
        Delivery d = paid(newOrderNo(), 20);
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, d.withoutHeader(header));
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, d.withHeader(header, ""));
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
        // the route hands every value of a header to the adapter (RawNotify.headers): the same value twice is still
        // ambiguous, whatever a proxy did to it
        Delivery d = paid(newOrderNo(), 21);
        assertEquals(NotifyClass.PAID, accepted(d).notifyClass());
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, d.rawWithRepeatedHeader(RECEIVED_AT, header));
    }

    @Test
    void otherSignatureTypeIs401() {
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                paid(newOrderNo(), 22).withHeader("Wechatpay-Signature-Type", "WECHATPAY2-SM2-WITH-SM3"));
    }

    @Test
    void probeSignatureIs401() {
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                paid(newOrderNo(), 23)
                        .withHeader(
                                "Wechatpay-Signature",
                                "WECHATPAY/SIGNTEST/" + Base64.getEncoder().encodeToString(new byte[256])));
    }

    @Test
    void badBase64SignatureIs401() {
        Delivery d = paid(newOrderNo(), 24);
        String signature = d.headers().get("Wechatpay-Signature");
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, d.withHeader("Wechatpay-Signature", "%%" + signature));
        assertRefused(
                Kind.UNAUTHENTICATED, Cause.SIGNATURE, d.withHeader("Wechatpay-Signature", signature.substring(1)));
    }

    @Test
    void bodyReserialisedWithOtherSpacingUnderTheOriginalSignatureIs401() {
        Delivery d = paid(newOrderNo(), 27);
        // what a framework that parses and re-emits the JSON would verify: the same content, other bytes
        String spaced = d.bodyText().replace("\":", "\": ").replace(",\"", ", \"");
        assertNotEquals(d.bodyText(), spaced);
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, d.withBody(spaced.getBytes(StandardCharsets.UTF_8)));
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.SIGNATURE,
                d.withBody((d.bodyText() + "\n").getBytes(StandardCharsets.UTF_8)));
        // the untouched body still verifies
        assertEquals(NotifyClass.PAID, accepted(d).notifyClass());
    }

    // --- 401: freshness, ±300 s of the adapter's clock ------------------------------------------------------------

    @ParameterizedTest(name = "signed {0} s from now")
    @ValueSource(longs = {-300, -299, -290, -1, 0, 1, 290, 299, 300})
    void aTimestampWithin300SecondsEitherWayIsAccepted(long offset) {
        String no = newOrderNo();
        Delivery d = WechatV3Fixtures.paidAt(no, txnId(no), 26, NOW + offset);
        VerifiedNotification v = accepted(d);
        assertEquals(NotifyClass.PAID, v.notifyClass());
        // the arrival time is the route's, whatever the timestamp says
        assertEquals(RECEIVED_AT, v.receivedAt());
    }

    @ParameterizedTest(name = "signed {0} s from now")
    @ValueSource(longs = {-301, 301, -86_400, 86_400, -NOW})
    void aTimestampMoreThan300SecondsOffEitherWayIs401Stale(long offset) {
        String no = newOrderNo();
        assertRefused(Kind.UNAUTHENTICATED, Cause.STALE, WechatV3Fixtures.paidAt(no, txnId(no), 26, NOW + offset));
    }

    @Test
    void freshnessIsCheckedOnlyAfterTheSignatureHeld() {
        // a stale delivery that is also forged is a forgery, not a clock problem
        String no = newOrderNo();
        Delivery stale = WechatV3Fixtures.paidAt(no, txnId(no), 26, NOW - 301);
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, stale.withBody(paidBody(no, 1)));
    }

    // --- 401: decryption -------------------------------------------------------------------------------------------

    static Stream<Arguments> tamperedResources() {
        String no = newOrderNo();
        String plain = WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 30));
        String nonce = "uluk4a9R25RW";
        String ct = WechatV3Fixtures.encrypt(nonce, "transaction", plain);
        byte[] sealed = Base64.getDecoder().decode(ct);
        byte[] body = sealed.clone();
        body[5] ^= 0x01;
        byte[] tag = sealed.clone();
        tag[sealed.length - 3] ^= 0x40;
        String otherKey = WechatV3Fixtures.encrypt(
                "b7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb".getBytes(StandardCharsets.UTF_8),
                nonce,
                "transaction",
                plain.getBytes(StandardCharsets.UTF_8));
        Map<String, Object> sm4 = WechatV3Fixtures.resource(ct, nonce, "transaction");
        sm4.put("algorithm", "AEAD_SM4_GCM");
        Map<String, Object> aes128 = WechatV3Fixtures.resource(ct, nonce, "transaction");
        aes128.put("algorithm", "AEAD_AES_128_GCM");
        // sealed without associated data, so only the refusal of a value that is no string can fail these
        String ctWithoutAad = WechatV3Fixtures.encrypt(nonce, null, plain);
        Map<String, Object> numericAad = WechatV3Fixtures.resource(ctWithoutAad, nonce, null);
        numericAad.put("associated_data", 7);
        Map<String, Object> objectAad = WechatV3Fixtures.resource(ctWithoutAad, nonce, null);
        objectAad.put("associated_data", Map.of("a", "transaction"));
        String b64 = Base64.getEncoder().encodeToString(body);
        String tagB64 = Base64.getEncoder().encodeToString(tag);
        return Stream.of(
                Arguments.of("ciphertext bit", WechatV3Fixtures.resource(b64, nonce, "transaction")),
                Arguments.of("tag bit", WechatV3Fixtures.resource(tagB64, nonce, "transaction")),
                Arguments.of("nonce", WechatV3Fixtures.resource(ct, "uluk4a9R25RX", "transaction")),
                Arguments.of("associated data", WechatV3Fixtures.resource(ct, nonce, "refund")),
                Arguments.of("associated data left out", WechatV3Fixtures.resource(ct, nonce, null)),
                Arguments.of("not base64", WechatV3Fixtures.resource("%%%" + ct, nonce, "transaction")),
                // sealed with another key than the channel's API v3 key
                Arguments.of("another key", WechatV3Fixtures.resource(otherKey, nonce, "transaction")),
                // only AEAD_AES_256_GCM
                Arguments.of("AEAD_SM4_GCM", sm4),
                Arguments.of("AEAD_AES_128_GCM", aes128),
                Arguments.of("numeric associated data", numericAad),
                Arguments.of("object associated data", objectAad));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tamperedResources")
    void aTamperedResourceIs401(String what, Map<String, Object> resource) {
        assertRefused(Kind.UNAUTHENTICATED, Cause.DECRYPTION, signedEnvelope(resource));
    }

    @Test
    void theResourceTheTamperedOnesAreMadeFromPasses() {
        String no = newOrderNo();
        String nonce = "uluk4a9R25RW";
        String ct = WechatV3Fixtures.encrypt(
                nonce, "transaction", WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 30)));
        VerifiedNotification v = accepted(signedEnvelope(WechatV3Fixtures.resource(ct, nonce, "transaction")));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(no, v.outTradeNo());
    }

    // --- 400: envelope and resource -------------------------------------------------------------------------------

    static Stream<Arguments> malformedEnvelopes() {
        String good = WechatV3Fixtures.body(
                "TRANSACTION.SUCCESS",
                WechatV3Fixtures.transaction("V3ENVELOPE", "4200000000000000000000000000001", 40));
        return Stream.of(
                Arguments.of("truncated", "{\"id\":\"EV-1\","),
                Arguments.of("an array", "[]"),
                Arguments.of("empty", ""),
                Arguments.of("two objects", "{\"id\":\"EV-1\"} {}"),
                // a key given twice: which one counts is not guessed
                Arguments.of("a key twice", good.replaceFirst("\\{", "{\"event_type\":\"REFUND.SUCCESS\",")),
                // nesting far deeper than any real notice
                Arguments.of(
                        "deep nesting", good.replaceFirst("\\{", "{\"x\":" + "[".repeat(40) + "]".repeat(40) + ",")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedEnvelopes")
    void aMalformedEnvelopeIs400(String what, String body) {
        assertRefused(Kind.BAD_REQUEST, Cause.UNPARSEABLE, signed(body));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"id", "event_type", "resource", "resource.algorithm", "resource.ciphertext", "resource.nonce"})
    void missingEnvelopeFieldIs400(String field) {
        String no = newOrderNo();
        Map<String, Object> resource = WechatV3Fixtures.sealed(WechatV3Fixtures.transaction(no, txnId(no), 41));
        Map<String, Object> envelope = WechatV3Fixtures.envelope("TRANSACTION.SUCCESS", "支付成功", resource);
        if (field.startsWith("resource.")) {
            resource.remove(field.substring("resource.".length()));
        } else {
            envelope.remove(field);
        }
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signed(WechatV3Fixtures.json(envelope)));
        // present but empty or not a string (an object for resource) is no better
        if (field.startsWith("resource.")) {
            resource.put(field.substring("resource.".length()), "");
        } else {
            envelope.put(field, field.equals("resource") ? "resource" : 12);
        }
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signed(WechatV3Fixtures.json(envelope)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EV 1", "事件1", "EV-\t1"})
    void anEventIdThatIsNoTokenIs400(String id) {
        String no = newOrderNo();
        Map<String, Object> envelope = WechatV3Fixtures.envelope(
                "TRANSACTION.SUCCESS",
                "支付成功",
                WechatV3Fixtures.sealed(WechatV3Fixtures.transaction(no, txnId(no), 41)));
        envelope.put("id", id);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signed(WechatV3Fixtures.json(envelope)));
        envelope.put("id", "X".repeat(129));
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signed(WechatV3Fixtures.json(envelope)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "[1,2]", "\"text\"", "{\"out_trade_no\":\"V3\"", "{\"a\":1,\"a\":2}"})
    void aResourceThatDecryptsButIsNoJsonObjectIs400(String plain) {
        String nonce = WechatV3Fixtures.random(12);
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.UNPARSEABLE,
                signedEnvelope(WechatV3Fixtures.resource(
                        WechatV3Fixtures.encrypt(nonce, "transaction", plain), nonce, "transaction")));
    }

    @Test
    void aRepeatedAmountInTheResourceIs400() {
        String no = newOrderNo();
        String plain = WechatV3Fixtures.json(WechatV3Fixtures.transaction(no, txnId(no), 43))
                .replace("\"amount\":{", "\"amount\":{\"total\":1},\"amount\":{");
        String nonce = WechatV3Fixtures.random(12);
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.UNPARSEABLE,
                signedEnvelope(WechatV3Fixtures.resource(
                        WechatV3Fixtures.encrypt(nonce, "transaction", plain), nonce, "transaction")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"out_trade_no", "mchid", "appid", "trade_state", "transaction_id", "amount", "amount.total"})
    void missingResourceFieldIs400(String field) {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 44);
        if (field.equals("amount.total")) {
            r.put("amount", Map.of("currency", "CNY"));
        } else {
            r.remove(field);
        }
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signedResource("TRANSACTION.SUCCESS", r));
    }

    static Stream<Object> malformedTotals() {
        return Stream.of("44", 44.0, -44, 4.4e1, 12_345_678_901L, "４４", true);
    }

    @ParameterizedTest
    @MethodSource("malformedTotals")
    void aMalformedAmountOnAPaidNoticeIs400(Object total) {
        String no = newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.transaction(no, txnId(no), 44);
        r.put("amount", Map.of("total", total, "currency", "CNY"));
        assertRefused(Kind.BAD_REQUEST, Cause.BAD_AMOUNT, signedResource("TRANSACTION.SUCCESS", r));
    }

    @ParameterizedTest
    @ValueSource(strings = {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "ORD 1", "ＯＲＤ１"})
    void anOutTradeNoLongerThan32OrOutsideTheAlphabetIs400(String no) {
        Map<String, Object> r = WechatV3Fixtures.transaction(no, "4200000000000000000000000000001", 1);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signedResource("TRANSACTION.SUCCESS", r));
    }

    // --- the answers -----------------------------------------------------------------------------------------------

    @Test
    void theSuccessAckIs204WithoutBodyAndEveryFailureAckIsFixedJson() {
        var adapter = new WechatV3Adapter(WechatV3Unit.CLOCK);
        AckResponse ok = adapter.success();
        assertEquals(204, ok.status());
        assertNull(ok.contentType());
        assertEquals(0, ok.body().length);
        for (int status : new int[] {400, 401, 404, 413, 422, 503}) {
            AckResponse ack = adapter.failure(status);
            assertEquals(status, ack.status());
            assertEquals("application/json", ack.contentType());
            assertEquals(
                    "{\"code\":\"FAIL\",\"message\":\"" + NotifyAdapter.reasonText(status) + "\"}",
                    new String(ack.body(), StandardCharsets.US_ASCII));
        }
        assertEquals(
                "{\"code\":\"FAIL\",\"message\":\"verification failed\"}",
                new String(adapter.failure(401).body(), StandardCharsets.US_ASCII));
    }
}
