package io.paynotify.provider.alipay;

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
import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestKeys;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Alipay's {@code alipay.trade.query} (docs/api.md "Active query") against a local gateway: the signed form as the SDK builds
 * it; answers signed over the response object's exact text with an Alipay key generated here; every class of §9's
 * table and every way an answer fails its checks.
 */
@Tag("unit")
class AlipayQueryTest {

    static final Instant NOW = Instant.parse("2026-03-01T02:03:04Z");
    static final String NO = "QAORDER0001";
    static final String TRADE_NO = "2026030122001400000000000001";

    static FakeGateway gateway;
    static Channel channel;
    static AlipayQuery query;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        channel = QueryChannels.channel(QueryChannels.alipay(gateway.url() + "/gateway.do"), QueryChannels.ALI);
        query = new AlipayQuery(Clock.fixed(NOW, ZoneOffset.UTC), new QueryHttp(Duration.ofSeconds(1), 8192));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** The response object Alipay sends for a found trade in that state, as JSON text. */
    static String response(String status, String... extra) {
        var sb = new StringBuilder("{\"code\":\"10000\",\"msg\":\"Success\",\"buyer_logon_id\":\"159****5620\","
                + "\"buyer_pay_amount\":\"12.50\",\"buyer_user_id\":\"2088101117955611\",\"invoice_amount\":\"12.50\","
                + "\"out_trade_no\":\"" + NO + "\",\"point_amount\":\"0.00\",\"receipt_amount\":\"12.50\","
                + "\"total_amount\":\"12.50\",\"trade_no\":\"" + TRADE_NO + "\",\"trade_status\":\"" + status + "\"");
        for (int i = 0; i < extra.length; i += 2) {
            sb.append(",\"")
                    .append(extra[i])
                    .append("\":\"")
                    .append(extra[i + 1])
                    .append('"');
        }
        return sb.append('}').toString();
    }

    /** An answer's sign: RSA2 over the response object's text in that charset, by the named key. */
    static String sign(String content, String keyName, Charset charset) {
        return AlipaySigner.sign(content, charset, TestKeys.pair(keyName).getPrivate(), AlipaySigner.RSA2);
    }

    /** The answer body: the response object as given, then its signature by the Alipay key. */
    static String signed(String response) {
        return body(response, sign(response, TestKeys.ALIPAY, StandardCharsets.UTF_8));
    }

    static String body(String response, String sign) {
        return "{\"" + AlipayQuery.RESPONSE + "\":" + response + ",\"sign\":\"" + sign + "\"}";
    }

    static QueryAnswer ask(String body) {
        gateway.answer(r -> Reply.of(200, "text/html;charset=utf-8", body));
        return query.query(channel, NO);
    }

    static Map<String, String> form(String body) {
        var params = new LinkedHashMap<String, String>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            params.put(
                    URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    // ------------------------------------------------------------------ the request

    @Test
    void theRequestIsAUtf8FormSignedOverEveryOtherParameter() throws Exception {
        ask(signed(response("WAIT_BUYER_PAY")));
        FakeGateway.Request r = gateway.last();
        assertEquals("POST", r.method());
        assertEquals("/gateway.do", r.target(), "the gateway URL as configured, nothing in its query");
        assertTrue(r.header("Content-Type").startsWith("application/x-www-form-urlencoded"));
        Map<String, String> p = form(r.bodyText());
        assertEquals(
                List.of(
                        "app_id",
                        "method",
                        "format",
                        "charset",
                        "sign_type",
                        "timestamp",
                        "version",
                        "biz_content",
                        "sign"),
                List.copyOf(p.keySet()));
        assertEquals(QueryChannels.ALI_APPID, p.get("app_id"));
        assertEquals("alipay.trade.query", p.get("method"));
        assertEquals("JSON", p.get("format"));
        assertEquals("utf-8", p.get("charset"));
        assertEquals("RSA2", p.get("sign_type"));
        assertEquals("2026-03-01 10:03:04", p.get("timestamp"), "UTC+08:00");
        assertEquals("1.0", p.get("version"));
        assertEquals("{\"out_trade_no\":\"" + NO + "\"}", p.get("biz_content"));

        String content = "app_id=" + QueryChannels.ALI_APPID + "&biz_content={\"out_trade_no\":\"" + NO
                + "\"}&charset=utf-8&format=JSON&method=alipay.trade.query&sign_type=RSA2"
                + "&timestamp=2026-03-01 10:03:04&version=1.0";
        assertEquals(content, AlipaySignature.requestContent(p));
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initVerify(TestKeys.pair(TestKeys.ALIPAY_APP).getPublic());
        s.update(content.getBytes(StandardCharsets.UTF_8));
        assertTrue(s.verify(Base64.getDecoder().decode(p.get("sign"))), "RSA2 with the app private key");
    }

    @Test
    void theRequestContentIsAlipaysDocumentedExample() {
        // Alipay open platform, "自行实现签名": the request parameters and the string to be signed (sign_type kept)
        String biz = "{\"button\":[{\"actionParam\":\"ZFB_HFCZ\",\"actionType\":\"out\",\"name\":\"话费充值\"},"
                + "{\"name\":\"查询\",\"subButton\":[{\"actionParam\":\"ZFB_YECX\",\"actionType\":\"out\",\"name\":\"余额查询\"},"
                + "{\"actionParam\":\"ZFB_LLCX\",\"actionType\":\"out\",\"name\":\"流量查询\"},"
                + "{\"actionParam\":\"ZFB_HFCX\",\"actionType\":\"out\",\"name\":\"话费查询\"}]},"
                + "{\"actionParam\":\"http://m.alipay.com\",\"actionType\":\"link\",\"name\":\"最新优惠\"}]}";
        var p = new LinkedHashMap<String, String>();
        p.put("app_id", "2014072300007148");
        p.put("method", "alipay.mobile.public.menu.add");
        p.put("charset", "GBK");
        p.put("sign_type", "RSA2");
        p.put("timestamp", "2014-07-24 03:07:50");
        p.put("biz_content", biz);
        p.put(
                "sign",
                "e9zEAe4TTQ4LPLQvETPoLGXTiURcxiAKfMVQ6Hrrsx2hmyIEGvSfAQzbLxHrhyZ48wOJXTsD4FPnt+YGdK57+fP1BCbf9rIVycfjhYCq");
        p.put("version", "1.0");
        assertEquals(
                "app_id=2014072300007148&biz_content=" + biz
                        + "&charset=GBK&method=alipay.mobile.public.menu.add&sign_type=RSA2"
                        + "&timestamp=2014-07-24 03:07:50&version=1.0",
                AlipaySignature.requestContent(p));
    }

    // ------------------------------------------------------------------ §9's table

    @Test
    void tradeSuccessIsPaid() {
        String body = signed(response("TRADE_SUCCESS", "send_pay_date", "2026-03-01 10:02:03"));
        QueryAnswer a = ask(body);
        assertEquals(QueryResult.PAID, a.result());
        VerifiedNotification n = a.notification();
        assertPaid(n, Provider.ALIPAY, QueryChannels.ALI, NO, "TRADE_SUCCESS", TRADE_NO, 1250L);
        assertEquals(Instant.parse("2026-03-01T02:02:03Z"), n.paidAt(), "send_pay_date is Beijing time");
        assertFalse(n.finishedNotice());
        assertFalse(n.accountMismatch(), "the answer carries no app id to compare");
        assertArrayEquals(body.getBytes(StandardCharsets.UTF_8), n.rawBody());
        assertNull(n.decoded());
        assertEquals(NOW, n.receivedAt());
    }

    @Test
    void tradeFinishedIsPaidAndFinal() {
        QueryAnswer a = ask(signed(response("TRADE_FINISHED")));
        assertEquals(QueryResult.PAID, a.result());
        assertTrue(a.notification().finishedNotice());
        assertNull(a.notification().paidAt());
    }

    @Test
    void aClosedTradeThatWasPaidIsPaidAndOneThatWasNotIsAClose() {
        QueryAnswer refunded = ask(signed(response("TRADE_CLOSED", "send_pay_date", "2026-03-01 10:02:03")));
        assertEquals(QueryResult.PAID, refunded.result());
        assertEquals("TRADE_CLOSED", refunded.notification().providerStatus());

        QueryAnswer closed = ask(signed(response("TRADE_CLOSED")));
        assertEquals(QueryResult.CLOSE, closed.result());
        assertEquals(NotifyClass.CLOSE, closed.notification().notifyClass());
    }

    @Test
    void waitBuyerPayIsNotFinal() {
        QueryAnswer a = ask(signed(response("WAIT_BUYER_PAY")));
        assertEquals(QueryResult.NOT_FINAL, a.result());
        assertEquals("WAIT_BUYER_PAY", a.providerStatus());
    }

    @Test
    void anyOtherStatusIsUnknown() {
        QueryAnswer a = ask(signed(response("TRADE_PENDING")));
        assertEquals(QueryResult.UNKNOWN, a.result());
        assertEquals(NotifyClass.UNKNOWN, a.notification().notifyClass());
    }

    static final String NOT_EXIST =
            "{\"code\":\"40004\",\"msg\":\"Business Failed\",\"sub_code\":\"ACQ.TRADE_NOT_EXIST\","
                    + "\"sub_msg\":\"交易不存在\",\"buyer_pay_amount\":\"0.00\",\"invoice_amount\":\"0.00\",\"out_trade_no\":\""
                    + NO + "\",\"point_amount\":\"0.00\",\"receipt_amount\":\"0.00\"}";

    @Test
    void aSignedTradeNotExistIsNotFound() {
        assertEquals(QueryResult.NOT_FOUND, ask(signed(NOT_EXIST)).result());
        // about another order, it says nothing about this one
        assertError(QueryError.VERIFICATION, ask(signed(NOT_EXIST.replace(NO, "QAORDER0002"))));
    }

    @Test
    void anUnsignedTradeNotExistIsAnErrorNeverNotFound() {
        assertError(QueryError.PROVIDER_ERROR, ask("{\"" + AlipayQuery.RESPONSE + "\":" + NOT_EXIST + "}"));
        assertError(QueryError.PROVIDER_ERROR, ask(body(NOT_EXIST, "")));
    }

    // ------------------------------------------------------------------ the signature

    @Test
    void theSignatureCoversTheResponseTextExactlyAsItStands() {
        String spaced = "{ \"code\" : \"10000\",\n  \"msg\":\"Success\", \"trade_status\":\"TRADE_SUCCESS\","
                + " \"total_amount\":\"12.50\", \"trade_no\":\"" + TRADE_NO + "\", \"subject\":\"大乐透\\u0032\" }";
        assertEquals(QueryResult.PAID, ask(signed(spaced)).result());
        // the same object re-serialised is not what was signed
        String compact = spaced.replace(" ", "").replace("\n", "");
        assertError(QueryError.VERIFICATION, ask(body(compact, sign(spaced, TestKeys.ALIPAY, StandardCharsets.UTF_8))));
    }

    @Test
    void anEscapedSlashIsReadAsASlashWhenTheTextAsItStandsFails() {
        // Alipay signed "a/b", the body escapes it as a\/b (the SDK's checkResponseSign retry)
        String asSigned = response("TRADE_SUCCESS", "fund_channel", "a/b");
        String asSent = asSigned.replace("a/b", "a\\/b");
        assertEquals(
                QueryResult.PAID,
                ask(body(asSent, sign(asSigned, TestKeys.ALIPAY, StandardCharsets.UTF_8)))
                        .result());
        // and a signature over the escaped text verifies at once
        assertEquals(QueryResult.PAID, ask(signed(asSent)).result());
        // the retry only replaces \/: other changes still fail
        assertError(
                QueryError.VERIFICATION,
                ask(body(asSent.replace("12.50", "1.00"), sign(asSigned, TestKeys.ALIPAY, StandardCharsets.UTF_8))));
    }

    @Test
    void aBadSignatureIsAVerificationError() {
        String r = response("TRADE_SUCCESS");
        assertError(
                QueryError.VERIFICATION,
                ask(body(r.replace("12.50", "0.01"), sign(r, TestKeys.ALIPAY, StandardCharsets.UTF_8))));
        assertError(QueryError.VERIFICATION, ask(body(r, sign(r, TestKeys.STRANGER, StandardCharsets.UTF_8))));
        assertError(QueryError.VERIFICATION, ask(body(r, "not base64!")));
        // signed by the app key: the merchant's own key is not Alipay's
        assertError(QueryError.VERIFICATION, ask(body(r, sign(r, TestKeys.ALIPAY_APP, StandardCharsets.UTF_8))));
    }

    @Test
    void anUnsignedSuccessIsAVerificationError() {
        assertError(
                QueryError.VERIFICATION, ask("{\"" + AlipayQuery.RESPONSE + "\":" + response("TRADE_SUCCESS") + "}"));
    }

    @Test
    void aGbkAnswerIsVerifiedOverItsGbkBytes() {
        Charset gbk = Charset.forName("GBK");
        String r = response("TRADE_SUCCESS", "subject", "大乐透");
        byte[] body = body(r, sign(r, TestKeys.ALIPAY, gbk)).getBytes(gbk);
        gateway.answer(req -> Reply.of(200, "text/html;charset=GBK", body));
        assertEquals(QueryResult.PAID, query.query(channel, NO).result());
        // the same bytes read as UTF-8 are not a readable answer
        gateway.answer(req -> Reply.of(200, "text/html;charset=utf-8", body));
        assertError(QueryError.MALFORMED, query.query(channel, NO));
    }

    // ------------------------------------------------------------------ failures

    @Test
    void anErrorResponseIsAProviderError() {
        String error = "{\"code\":\"40002\",\"msg\":\"Invalid Arguments\",\"sub_code\":\"isv.invalid-signature\","
                + "\"sub_msg\":\"验签出错\"}";
        assertError(QueryError.PROVIDER_ERROR, ask("{\"error_response\":" + error + "}"));
        assertError(
                QueryError.PROVIDER_ERROR,
                ask("{\"error_response\":" + error + ",\"sign\":\""
                        + sign(error, TestKeys.ALIPAY, StandardCharsets.UTF_8) + "\"}"));
        // the same error inside the method's response object, signed or not
        assertError(QueryError.PROVIDER_ERROR, ask(signed(error)));
        assertError(QueryError.PROVIDER_ERROR, ask("{\"" + AlipayQuery.RESPONSE + "\":" + error + "}"));
    }

    @Test
    void aPaidAnswerWithoutItsIdsIsMalformed() {
        String r = response("TRADE_SUCCESS");
        assertError(QueryError.MALFORMED, ask(signed(r.replace("\"trade_no\":\"" + TRADE_NO + "\",", ""))));
        assertError(QueryError.MALFORMED, ask(signed(r.replace("\"total_amount\":\"12.50\",", ""))));
        assertError(
                QueryError.MALFORMED,
                ask(signed(r.replace("\"total_amount\":\"12.50\"", "\"total_amount\":\"1.2.3\""))));
        assertError(QueryError.MALFORMED, ask(signed(r.replace(",\"trade_status\":\"TRADE_SUCCESS\"", ""))));
        assertError(QueryError.MALFORMED, ask(signed(r.replace("\"code\":\"10000\",", ""))));
    }

    @Test
    void anAnswerAboutAnotherOrderIsAVerificationError() {
        assertError(
                QueryError.VERIFICATION, ask(signed(response("TRADE_SUCCESS").replace(NO, "QAORDER0002"))));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not json",
                "[1,2]",
                "{\"alipay_trade_query_response\":{\"code\":\"10000\"},\"alipay_trade_query_response\":{},\"sign\":\"x\"}",
                "{\"alipay_trade_query_response\":{\"code\":\"10000\",\"code\":\"40004\"},\"sign\":\"x\"}",
                "{\"alipay_trade_query_response\":{\"code\":\"10000\"},\"sign\":\"x\"} trailing",
                "{\"sign\":\"x\"}",
                "{\"alipay_trade_query_response\":\"text\",\"sign\":\"x\"}"
            })
    void whatIsNotOneAnswerObjectIsMalformed(String body) {
        assertError(QueryError.MALFORMED, ask(body));
    }

    @Test
    void anHttpErrorIsAnHttpStatusError() {
        gateway.answer(r -> Reply.of(502, "text/html", "<html>bad gateway</html>"));
        assertError(QueryError.HTTP_STATUS, query.query(channel, NO));
    }

    @Test
    void aGatewayThatNeverAnswersIsATimeout() {
        assertTimesOut(gateway, () -> query.query(channel, NO));
    }
}
