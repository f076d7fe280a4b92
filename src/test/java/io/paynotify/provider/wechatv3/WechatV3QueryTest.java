package io.paynotify.provider.wechatv3;

import static io.paynotify.testing.QueryAssertions.assertError;
import static io.paynotify.testing.QueryAssertions.assertPaid;
import static io.paynotify.testing.QueryAssertions.assertTimesOut;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.provider.QueryHttp;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV3Fixtures;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The WeChat Pay v3 order query (docs/api.md "Active query") against a local gateway: the signed request as wechatpay-java
 * builds it; answers signed in their {@code Wechatpay-*} headers with platform keys generated here; every class of
 * §9's table and every way an answer fails its checks.
 */
@Tag("unit")
class WechatV3QueryTest {

    static final long NOW = 1_800_000_000L;
    static final String NO = "Q3ORDER0001";
    static final String TXN = "4200000002202603010000000002";

    static final Pattern AUTHORIZATION =
            Pattern.compile("WECHATPAY2-SHA256-RSA2048 mchid=\"([^\"]*)\",nonce_str=\"([^\"]*)\","
                    + "signature=\"([^\"]*)\",timestamp=\"([^\"]*)\",serial_no=\"([^\"]*)\"");

    static FakeGateway gateway;
    static Channel channel;
    static WechatV3Query query;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        channel = QueryChannels.channel(QueryChannels.v3(gateway.url() + "/api/"), QueryChannels.V3);
        query = new WechatV3Query(
                Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC), new QueryHttp(Duration.ofSeconds(1), 8192));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** The transaction JSON WeChat answers for this order in that state. */
    static Map<String, Object> transaction(String state) {
        Map<String, Object> t = WechatV3Fixtures.transaction(NO, TXN, 1250);
        t.put("appid", QueryChannels.V3_APPID);
        t.put("mchid", QueryChannels.V3_MCH);
        t.put("trade_state", state);
        return t;
    }

    /** A 200 answer signed at that time by that platform key, under that serial. */
    static Reply signed(String body, String keyName, String serial, long timestamp) {
        WechatV3Fixtures.Delivery d =
                WechatV3Fixtures.signed(body.getBytes(StandardCharsets.UTF_8), keyName, serial, timestamp);
        Reply reply = Reply.of(200, "application/json", d.body());
        for (Map.Entry<String, String> h : d.headers().entrySet()) {
            if (h.getKey().startsWith("Wechatpay-")) {
                reply = reply.withHeader(h.getKey(), h.getValue());
            }
        }
        return reply.withHeader("Request-ID", "08F78BB5AF0610D302A2F6C3");
    }

    /** Signed as WeChat signs answers to a query that named the public key. */
    static Reply signed(String body) {
        return signed(body, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_PUBKEY_ID, NOW);
    }

    static Reply signed(Map<String, Object> transaction) {
        return signed(WechatV3Fixtures.json(transaction));
    }

    static QueryAnswer ask(Reply reply) {
        gateway.answer(r -> reply);
        return query.query(channel, NO);
    }

    // ------------------------------------------------------------------ the request

    @Test
    void theRequestIsSignedOverTheTargetAsSent() throws Exception {
        ask(signed(transaction("NOTPAY")));
        FakeGateway.Request r = gateway.last();
        assertEquals("GET", r.method());
        assertEquals("/api/v3/pay/transactions/out-trade-no/" + NO + "?mchid=" + QueryChannels.V3_MCH, r.target());
        assertEquals("application/json", r.header("Accept"));
        assertTrue(r.header("User-Agent").startsWith("paynotify/"));
        assertEquals(QueryChannels.V3_PUBKEY_ID, r.header("Wechatpay-Serial"), "WeChat is asked to sign with it");
        assertSignedRequest(r);
    }

    @Test
    void anOrderNumberIsUrlEncodedInThePathAndSignedAsSent() throws Exception {
        gateway.answer(r -> signed(transaction("NOTPAY")));
        QueryAnswer a = query.query(channel, "Q3|ORDER*0002");
        FakeGateway.Request r = gateway.last();
        assertEquals("/api/v3/pay/transactions/out-trade-no/Q3%7CORDER*0002?mchid=" + QueryChannels.V3_MCH, r.target());
        assertSignedRequest(r);
        // the answer names Q3ORDER0001, not the order asked about
        assertError(QueryError.VERIFICATION, a);
    }

    static void assertSignedRequest(FakeGateway.Request r) throws Exception {
        Matcher m = AUTHORIZATION.matcher(r.header("Authorization"));
        assertTrue(m.matches(), r.header("Authorization"));
        assertEquals(QueryChannels.V3_MCH, m.group(1));
        assertTrue(m.group(2).matches("[A-Za-z0-9]{32}"));
        assertEquals(Long.toString(NOW), m.group(4));
        assertEquals(QueryChannels.V3_MERCHANT_SERIAL, m.group(5));
        String message = "GET\n" + r.target() + "\n" + m.group(4) + "\n" + m.group(2) + "\n\n";
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initVerify(TestKeys.pair(TestKeys.WECHAT_V3_MERCHANT).getPublic());
        s.update(message.getBytes(StandardCharsets.UTF_8));
        assertTrue(s.verify(Base64.getDecoder().decode(m.group(3))), "the merchant key's signature over the request");
    }

    @Test
    void theSignedMessageIsWechatpayJavasCanonicalForm() {
        // wechatpay-java WechatPay2CredentialTest: GET of .../id/{id}?mchid=…, nonce and timestamp fixed there
        URI uri = URI.create(
                "https://api.mch.weixin.qq.com/v3/pay/transactions/id/1217752501201407033233368018?mchid=1230000109");
        assertEquals(
                "GET\n/v3/pay/transactions/id/1217752501201407033233368018?mchid=1230000109\n1652750623\n"
                        + "eBYqCOxa0QudMnPvVilkTzOg3gHh5Z3u\n\n",
                WechatV3Query.message(WechatV3Query.target(uri), 1652750623, "eBYqCOxa0QudMnPvVilkTzOg3gHh5Z3u"));
        // WeChat Pay's signature guide: GET /v3/certificates
        assertEquals(
                "GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n",
                WechatV3Query.message(
                        WechatV3Query.target(URI.create("https://api.mch.weixin.qq.com/v3/certificates")),
                        1554208460,
                        "593BEC0C930BF1AFEB40B4A08C8FB242"));
    }

    // ------------------------------------------------------------------ §9's table

    @Test
    void successIsPaid() {
        Reply reply = signed(transaction("SUCCESS"));
        QueryAnswer a = ask(reply);
        assertEquals(QueryResult.PAID, a.result());
        VerifiedNotification n = a.notification();
        assertPaid(n, Provider.WECHATPAY_V3, QueryChannels.V3, NO, "SUCCESS", TXN, 1250L);
        assertEquals("CNY", n.currency());
        assertEquals(Instant.parse("2018-06-08T02:34:56Z"), n.paidAt());
        assertFalse(n.accountMismatch());
        assertArrayEquals(reply.body(), n.rawBody());
        assertNull(n.decoded());
        assertEquals(Instant.ofEpochSecond(NOW), n.receivedAt());
    }

    @Test
    void anAnswerSignedWithThePlatformCertificateVerifiesToo() {
        // during WeChat's move from certificates to the public key, either may sign
        Reply reply = signed(
                WechatV3Fixtures.json(transaction("SUCCESS")),
                TestKeys.WECHAT_V3_CERT,
                QueryChannels.V3_CERT_SERIAL,
                NOW);
        assertEquals(QueryResult.PAID, ask(reply).result());
    }

    @Test
    void refundIsPaidWithItsIdsAndUnknownWithout() {
        QueryAnswer paid = ask(signed(transaction("REFUND")));
        assertEquals(QueryResult.PAID, paid.result());
        assertEquals("REFUND", paid.notification().providerStatus());

        Map<String, Object> bare = new LinkedHashMap<>();
        bare.put("mchid", QueryChannels.V3_MCH);
        bare.put("appid", QueryChannels.V3_APPID);
        bare.put("out_trade_no", NO);
        bare.put("trade_state", "REFUND");
        QueryAnswer unknown = ask(signed(bare));
        assertEquals(QueryResult.UNKNOWN, unknown.result());
        assertEquals(NotifyClass.UNKNOWN, unknown.notification().notifyClass());
    }

    @ParameterizedTest
    @ValueSource(strings = {"CLOSED", "REVOKED"})
    void closedAndRevokedAreAClose(String state) {
        Map<String, Object> t = transaction(state);
        t.remove("transaction_id");
        t.remove("success_time");
        QueryAnswer a = ask(signed(t));
        assertEquals(QueryResult.CLOSE, a.result());
        assertEquals(NotifyClass.CLOSE, a.notification().notifyClass());
        assertEquals(state, a.notification().providerStatus());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR"})
    void unfinishedStatesAreNotFinal(String state) {
        QueryAnswer a = ask(signed(transaction(state)));
        assertEquals(QueryResult.NOT_FINAL, a.result());
        assertEquals(state, a.providerStatus());
    }

    @Test
    void anyOtherStateIsUnknown() {
        QueryAnswer a = ask(signed(transaction("FROZEN")));
        assertEquals(QueryResult.UNKNOWN, a.result());
        assertEquals("FROZEN", a.notification().providerStatus());
    }

    @Test
    void orderNotExistIsNotFoundSignedOrNot() {
        String body = "{\"code\":\"ORDER_NOT_EXIST\",\"message\":\"订单不存在\"}";
        assertEquals(
                QueryResult.NOT_FOUND,
                ask(Reply.of(404, "application/json", body)).result());
        Reply signed = signed(body);
        assertEquals(
                QueryResult.NOT_FOUND,
                ask(new Reply(404, signed.headers(), signed.body(), 0, false)).result());
    }

    @Test
    void otherAccountIdsAreRecordedAsAMismatch() {
        Map<String, Object> t = transaction("SUCCESS");
        t.put("mchid", "1900000999");
        assertTrue(ask(signed(t)).notification().accountMismatch());
        t = transaction("SUCCESS");
        t.put("appid", "wxsomeoneelse0001");
        assertTrue(ask(signed(t)).notification().accountMismatch());
        t = transaction("CLOSED");
        t.remove("mchid");
        assertTrue(ask(signed(t)).notification().accountMismatch());
        // the answer's appid is optional: without it, the mchid alone binds it to the channel
        t = transaction("CLOSED");
        t.remove("appid");
        assertFalse(ask(signed(t)).notification().accountMismatch());
    }

    // ------------------------------------------------------------------ failures

    @Test
    void aPaidAnswerWithoutItsIdsIsMalformed() {
        Map<String, Object> t = transaction("SUCCESS");
        t.remove("transaction_id");
        assertError(QueryError.MALFORMED, ask(signed(t)));
        t = transaction("SUCCESS");
        t.put("amount", Map.of("total", "1250"));
        assertError(QueryError.MALFORMED, ask(signed(t)));
        t = transaction("SUCCESS");
        t.remove("amount");
        assertError(QueryError.MALFORMED, ask(signed(t)));
        t = transaction("SUCCESS");
        t.remove("trade_state");
        assertError(QueryError.MALFORMED, ask(signed(t)));
    }

    @Test
    void aBadSignatureIsAVerificationError() {
        Reply good = signed(transaction("SUCCESS"));
        byte[] tampered = new String(good.body(), StandardCharsets.UTF_8)
                .replace("1250", "1")
                .getBytes(StandardCharsets.UTF_8);
        assertError(QueryError.VERIFICATION, ask(new Reply(200, good.headers(), tampered, 0, false)));
        assertError(
                QueryError.VERIFICATION,
                ask(good.withHeader("Wechatpay-Signature", "WECHATPAY/SIGNTEST/" + "A".repeat(300))));
        // signed by a key the channel does not have
        assertError(
                QueryError.VERIFICATION,
                ask(signed(
                        WechatV3Fixtures.json(transaction("SUCCESS")),
                        TestKeys.STRANGER,
                        QueryChannels.V3_PUBKEY_ID,
                        NOW)));
    }

    @Test
    void anUnknownOrWrongSerialIsAVerificationError() {
        String body = WechatV3Fixtures.json(transaction("SUCCESS"));
        assertError(QueryError.VERIFICATION, ask(signed(body, TestKeys.WECHAT_V3_PUBKEY, "PUB_KEY_ID_UNKNOWN", NOW)));
        // the public key's signature under the certificate's serial
        assertError(
                QueryError.VERIFICATION,
                ask(signed(body, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_CERT_SERIAL, NOW)));
    }

    @Test
    void aStaleOrFutureTimestampIsAVerificationError() {
        String body = WechatV3Fixtures.json(transaction("SUCCESS"));
        assertError(
                QueryError.VERIFICATION,
                ask(signed(body, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_PUBKEY_ID, NOW - 301)));
        assertError(
                QueryError.VERIFICATION,
                ask(signed(body, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_PUBKEY_ID, NOW + 301)));
        assertEquals(
                QueryResult.PAID,
                ask(signed(body, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_PUBKEY_ID, NOW - 300))
                        .result());
        assertEquals(
                QueryResult.PAID,
                ask(signed(body, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_PUBKEY_ID, NOW + 300))
                        .result());
    }

    @Test
    void anUnsignedAnswerIsAVerificationError() {
        assertError(
                QueryError.VERIFICATION,
                ask(Reply.of(200, "application/json", WechatV3Fixtures.json(transaction("SUCCESS")))));
    }

    @Test
    void aSignedAnswerThatIsNotOneJsonObjectIsMalformed() {
        assertError(QueryError.MALFORMED, ask(signed("not json")));
        assertError(QueryError.MALFORMED, ask(signed("{\"trade_state\":\"NOTPAY\",\"trade_state\":\"SUCCESS\"}")));
    }

    @Test
    void errorStatusesAreErrors() {
        assertError(
                QueryError.PROVIDER_ERROR,
                ask(Reply.of(401, "application/json", "{\"code\":\"SIGN_ERROR\",\"message\":\"签名错误\"}")));
        assertError(
                QueryError.PROVIDER_ERROR,
                ask(Reply.of(404, "application/json", "{\"code\":\"RESOURCE_NOT_EXISTS\",\"message\":\"x\"}")));
        assertError(QueryError.HTTP_STATUS, ask(Reply.of(404, "text/html", "<html>not found</html>")));
        assertError(
                QueryError.HTTP_STATUS,
                ask(Reply.of(500, "application/json", "{\"code\":\"SYSTEM_ERROR\",\"message\":\"系统错误\"}")));
        assertError(QueryError.HTTP_STATUS, ask(Reply.of(502, "text/html", "<html>bad gateway</html>")));
    }

    @Test
    void aGatewayThatNeverAnswersIsATimeout() {
        assertTimesOut(gateway, () -> query.query(channel, NO));
    }
}
