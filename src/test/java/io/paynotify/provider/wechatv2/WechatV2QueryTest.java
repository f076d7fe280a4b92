package io.paynotify.provider.wechatv2;

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
import io.paynotify.provider.SafeXml;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.WechatV2Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The WeChat Pay v2 order query (docs/api.md "Active query") against a local gateway: the request as WeChat expects it, signed
 * like a notification; every class of §9's table; every way an answer fails its checks.
 */
@Tag("unit")
class WechatV2QueryTest {

    static final Instant NOW = Instant.parse("2026-03-01T02:03:04Z");
    static final String KEY = QueryChannels.V2_KEY;
    static final String NO = "Q2ORDER0001";
    static final String TXN = "4200000001202603010000000001";

    static FakeGateway gateway;
    static Channel channel;
    static WechatV2Query query;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        channel = QueryChannels.channel(QueryChannels.v2(gateway.url() + "/wx/", "MD5,HMAC-SHA256"), QueryChannels.V2);
        query = new WechatV2Query(Clock.fixed(NOW, ZoneOffset.UTC), new QueryHttp(Duration.ofSeconds(1), 4096));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** The fields WeChat answers for a found trade in that state (the provider's query API). */
    static Map<String, String> found(String tradeState) {
        var f = new LinkedHashMap<String, String>();
        f.put("return_code", "SUCCESS");
        f.put("return_msg", "OK");
        f.put("appid", QueryChannels.V2_APPID);
        f.put("mch_id", QueryChannels.V2_MCH);
        f.put("nonce_str", "IITRi8Iabbblz1Jc");
        f.put("result_code", "SUCCESS");
        f.put("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o");
        f.put("trade_type", "JSAPI");
        f.put("trade_state", tradeState);
        f.put("bank_type", "CMC");
        f.put("total_fee", "1250");
        f.put("fee_type", "CNY");
        f.put("cash_fee", "1250");
        f.put("transaction_id", TXN);
        f.put("out_trade_no", NO);
        f.put("time_end", "20260301100203");
        f.put("trade_state_desc", "desc");
        return f;
    }

    static WechatV2Fixtures.Notice answer(String tradeState) {
        return WechatV2Fixtures.notice(found(tradeState));
    }

    static QueryAnswer ask(byte[] body) {
        gateway.answer(r -> Reply.of(200, "text/plain", body));
        return query.query(channel, NO);
    }

    static QueryAnswer ask(WechatV2Fixtures.Notice answer) {
        return ask(answer.signedWith(KEY, "HMAC-SHA256"));
    }

    // ------------------------------------------------------------------ the request

    @Test
    void theRequestIsSignedLikeANotificationWithTheFirstKeyAndTheStrongestType() throws Exception {
        ask(answer("NOTPAY"));
        FakeGateway.Request r = gateway.last();
        assertEquals("POST", r.method());
        assertEquals("/wx/pay/orderquery", r.target(), "the path of api-base-url is kept, its trailing / dropped");
        Map<String, String> f = SafeXml.readFlat(r.body(), "xml");
        assertEquals(
                java.util.List.of("appid", "mch_id", "out_trade_no", "nonce_str", "sign_type", "sign"),
                java.util.List.copyOf(f.keySet()));
        assertEquals(QueryChannels.V2_APPID, f.get("appid"), "the channel's first app id");
        assertEquals(QueryChannels.V2_MCH, f.get("mch_id"));
        assertEquals(NO, f.get("out_trade_no"));
        assertTrue(f.get("nonce_str").matches("[A-Za-z0-9]{32}"));
        assertEquals("HMAC-SHA256", f.get("sign_type"));
        assertEquals(WechatV2Fixtures.sign(f, KEY, "HMAC-SHA256"), f.get("sign"));
    }

    @Test
    void aChannelWithoutHmacSignsItsQueriesWithMd5() throws Exception {
        Channel md5 = QueryChannels.channel(QueryChannels.v2(gateway.url(), "MD5"), QueryChannels.V2);
        gateway.answer(r -> Reply.of(200, "text/xml", answer("NOTPAY").signedWith(KEY, "MD5")));
        assertEquals(QueryResult.NOT_FINAL, query.query(md5, NO).result());
        Map<String, String> f = SafeXml.readFlat(gateway.last().body(), "xml");
        assertEquals("MD5", f.get("sign_type"));
        assertEquals(WechatV2Fixtures.sign(f, KEY, "MD5"), f.get("sign"));
        assertEquals("/pay/orderquery", gateway.last().target());
    }

    @Test
    void theSignerReproducesThePublishedVectors() {
        // WeChat's own worked example of the v2 signature
        var f = new LinkedHashMap<String, String>();
        f.put("appid", "wxd930ea5d5a258f4f");
        f.put("mch_id", "10000100");
        f.put("device_info", "1000");
        f.put("body", "test");
        f.put("nonce_str", "ibuaiVcKdpRxkhJA");
        byte[] key = "192006250b4c09247ec02edce69f6a2d".getBytes(StandardCharsets.UTF_8);
        assertEquals("9A0A8659F005D6984697E2CA0A9CF3B7", WechatV2Query.sign(f, "MD5", key));
        assertEquals(
                "6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6",
                WechatV2Query.sign(f, "HMAC-SHA256", key));
    }

    // ------------------------------------------------------------------ §9's table

    @Test
    void successIsPaid() {
        byte[] body = answer("SUCCESS").signedWith(KEY, "HMAC-SHA256");
        QueryAnswer a = ask(body);
        assertEquals(QueryResult.PAID, a.result());
        assertEquals("SUCCESS", a.providerStatus());
        VerifiedNotification n = a.notification();
        assertPaid(n, Provider.WECHATPAY_V2, QueryChannels.V2, NO, "SUCCESS", TXN, 1250L);
        assertEquals("CNY", n.currency());
        assertEquals(Instant.parse("2026-03-01T02:02:03Z"), n.paidAt(), "time_end is Beijing time");
        assertFalse(n.accountMismatch());
        assertArrayEquals(body, n.rawBody(), "the answer is recorded as received");
        assertNull(n.decoded());
        assertEquals(NOW, n.receivedAt());
    }

    @Test
    void refundWithThePaymentsIdsIsPaid() {
        QueryAnswer a = ask(answer("REFUND"));
        assertEquals(QueryResult.PAID, a.result());
        assertEquals(NotifyClass.PAID, a.notification().notifyClass());
        assertEquals("REFUND", a.notification().providerStatus());
        assertEquals(TXN, a.notification().transactionId());
    }

    @Test
    void refundWithoutThePaymentsIdsIsUnknown() {
        QueryAnswer a = ask(answer("REFUND").without("transaction_id").without("total_fee"));
        assertEquals(QueryResult.UNKNOWN, a.result());
        assertEquals(NotifyClass.UNKNOWN, a.notification().notifyClass());
        assertEquals(
                QueryResult.UNKNOWN, ask(answer("REFUND").without("total_fee")).result());
    }

    @ParameterizedTest
    @ValueSource(strings = {"CLOSED", "REVOKED"})
    void closedAndRevokedAreACloseEvenWithoutIds(String state) {
        QueryAnswer a =
                ask(answer(state).without("transaction_id").without("total_fee").without("time_end"));
        assertEquals(QueryResult.CLOSE, a.result());
        assertEquals(NotifyClass.CLOSE, a.notification().notifyClass());
        assertEquals(state, a.notification().providerStatus());
        assertNull(a.notification().transactionId());
        assertNull(a.notification().amountMinor());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR"})
    void unfinishedStatesAreNotFinal(String state) {
        QueryAnswer a = ask(answer(state).without("transaction_id").without("time_end"));
        assertEquals(QueryResult.NOT_FINAL, a.result());
        assertEquals(state, a.providerStatus());
        assertNull(a.notification());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PAYING", "success", "REFUNDING"})
    void anyOtherStateIsUnknown(String state) {
        QueryAnswer a = ask(answer(state));
        assertEquals(QueryResult.UNKNOWN, a.result());
        assertEquals(state, a.notification().providerStatus());
    }

    @Test
    void orderNotExistIsNotFound() {
        var f = new LinkedHashMap<String, String>();
        f.put("return_code", "SUCCESS");
        f.put("return_msg", "OK");
        f.put("appid", QueryChannels.V2_APPID);
        f.put("mch_id", QueryChannels.V2_MCH);
        f.put("nonce_str", "nrYq0fuAcvGUzfjV");
        f.put("result_code", "FAIL");
        f.put("err_code", "ORDERNOTEXIST");
        f.put("err_code_des", "订单不存在");
        QueryAnswer a = ask(WechatV2Fixtures.notice(f).signedWith(KEY, "HMAC-SHA256"));
        assertEquals(QueryResult.NOT_FOUND, a.result());

        // unsigned, it proves nothing
        assertError(QueryError.VERIFICATION, ask(WechatV2Fixtures.notice(f).unsigned()));
        // another business error is an error
        assertError(
                QueryError.PROVIDER_ERROR,
                ask(WechatV2Fixtures.notice(f).with("err_code", "SYSTEMERROR").signedWith(KEY, "HMAC-SHA256")));
    }

    @Test
    void theSecondKeyOfARotationVerifies() {
        assertEquals(
                QueryResult.PAID,
                ask(answer("SUCCESS").signedWith(QueryChannels.V2_KEY_NEXT, "HMAC-SHA256"))
                        .result());
        assertEquals(
                QueryResult.PAID, ask(answer("SUCCESS").signedWith(KEY, "MD5")).result());
    }

    @Test
    void otherAccountIdsAreRecordedAsAMismatch() {
        assertTrue(ask(answer("SUCCESS").with("appid", "wxsomeoneelse0001"))
                .notification()
                .accountMismatch());
        assertTrue(ask(answer("SUCCESS").with("mch_id", "1999999999"))
                .notification()
                .accountMismatch());
        assertTrue(ask(answer("CLOSED").with("sub_mch_id", "1999999999"))
                .notification()
                .accountMismatch());
        assertFalse(ask(answer("SUCCESS").with("appid", QueryChannels.V2_APPID_2))
                .notification()
                .accountMismatch());
    }

    // ------------------------------------------------------------------ failures

    @Test
    void aPaidAnswerWithoutItsIdsIsMalformed() {
        assertError(QueryError.MALFORMED, ask(answer("SUCCESS").without("transaction_id")));
        assertError(QueryError.MALFORMED, ask(answer("SUCCESS").without("total_fee")));
        assertError(QueryError.MALFORMED, ask(answer("SUCCESS").with("total_fee", "12.50")));
        assertError(QueryError.MALFORMED, ask(answer("SUCCESS").without("trade_state")));
        assertError(QueryError.MALFORMED, ask(answer("SUCCESS").without("result_code")));
    }

    @Test
    void aBadOrMissingSignatureIsAVerificationError() {
        Map<String, String> signed = answer("SUCCESS").signedFields(KEY, "HMAC-SHA256");
        signed.put("total_fee", "1");
        assertError(QueryError.VERIFICATION, ask(WechatV2Fixtures.body(signed)));
        assertError(QueryError.VERIFICATION, ask(answer("SUCCESS").unsigned()));
        assertError(QueryError.VERIFICATION, ask(answer("SUCCESS").signedWith("x".repeat(32), "HMAC-SHA256")));
    }

    @Test
    void anMd5AnswerOnAnHmacOnlyChannelIsADowngrade() {
        Channel hmac = QueryChannels.channel(QueryChannels.v2(gateway.url(), "HMAC-SHA256"), QueryChannels.V2);
        gateway.answer(r -> Reply.of(200, "text/xml", answer("SUCCESS").signedWith(KEY, "MD5")));
        assertError(QueryError.VERIFICATION, query.query(hmac, NO));
    }

    @Test
    void anAnswerAboutAnotherOrderIsAVerificationError() {
        assertError(QueryError.VERIFICATION, ask(answer("SUCCESS").with("out_trade_no", "Q2ORDER0002")));
    }

    @Test
    void aCommunicationFailureIsAProviderError() {
        var f = new LinkedHashMap<String, String>();
        f.put("return_code", "FAIL");
        f.put("return_msg", "签名错误");
        assertError(QueryError.PROVIDER_ERROR, ask(WechatV2Fixtures.body(f)));
    }

    @Test
    void whatIsNotAFlatXmlAnswerIsMalformed() {
        assertError(QueryError.MALFORMED, ask("{\"code\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
        assertError(
                QueryError.MALFORMED,
                ask(("<!DOCTYPE xml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><xml><return_code>&x;</return_code>"
                                + "</xml>")
                        .getBytes(StandardCharsets.UTF_8)));
        assertError(
                QueryError.MALFORMED, ask("<xml><return_msg>OK</return_msg></xml>".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anHttpErrorIsAnHttpStatusError() {
        gateway.answer(r -> Reply.of(500, "text/html", "<html>busy</html>"));
        assertError(QueryError.HTTP_STATUS, query.query(channel, NO));
        gateway.answer(r -> Reply.of(302, "text/html", "").withHeader("Location", "http://127.0.0.1:1/"));
        assertError(QueryError.HTTP_STATUS, query.query(channel, NO));
    }

    @Test
    void anAnswerOverTheLimitIsATransportError() {
        gateway.answer(r -> Reply.of(
                200,
                "text/xml",
                answer("SUCCESS").with("attach", "x".repeat(5000)).hmac()));
        assertError(QueryError.TRANSPORT, query.query(channel, NO));
    }

    @Test
    void aGatewayThatNeverAnswersIsATimeout() {
        assertTimesOut(gateway, () -> query.query(channel, NO));
    }
}
