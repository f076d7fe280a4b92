package io.paynotify.provider.alipay;

import static io.paynotify.testing.QueryAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.Channel;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;
import io.paynotify.provider.QueryHttp;
import io.paynotify.simulator.sign.AlipayPki;
import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestKeys;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An Alipay ISV's {@code app_auth_token} confirmation (docs/api.md "Account modes") against a local gateway with real
 * signatures: {@code alipay.open.auth.token.app.query} signed like every gateway call, its answer verified like every
 * query answer; a merchant's orders are queried with its token only once the answer said {@code valid} for its
 * {@code auth_app_id}, and nothing at all is sent for a merchant whose token did not pass.
 */
@Tag("unit")
class AlipayTokensTest {

    static final String GOOD = "2021000000000201";
    static final String MISFILED = "2021000000000202";
    static final String INVALID = "2021000000000203";
    static final String UNVERIFIABLE = "2021000000000204";
    static final String NO_TOKEN = "2021000000000205";

    static final Map<String, String> TOKENS = Map.of(
            GOOD, "202603BBgood0000000000000000000201",
            MISFILED, "202603BBmisfiled000000000000000202",
            INVALID, "202603BBinvalid0000000000000000203",
            UNVERIFIABLE, "202603BBunverifiable0000000000204");

    static final String NO = "ISVORDER0001";

    /** A clock the test moves. */
    static final class MovingClock extends Clock {
        volatile Instant now = Instant.parse("2026-03-01T02:03:04Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    FakeGateway gateway;
    MovingClock clock;
    Channel channel;
    AlipayTokens tokens;
    AlipayQuery query;
    final ConcurrentLinkedQueue<Map<String, String>> sent = new ConcurrentLinkedQueue<>();
    /** What the gateway answers to a token check, by the token asked about. */
    final Map<String, Function<String, String>> tokenAnswers = new HashMap<>();

    @BeforeEach
    void start() {
        gateway = new FakeGateway();
        clock = new MovingClock();
        channel = QueryChannels.channel(
                QueryChannels.alipayIsv(gateway.url() + "/gateway.do", TOKENS), QueryChannels.ALI_ISV);
        QueryHttp http = new QueryHttp(Duration.ofSeconds(2), 8192);
        AlipayCertStore store = new AlipayCertStore();
        tokens = new AlipayTokens(clock, http, store);
        query = new AlipayQuery(clock, http, store, tokens);
        tokenAnswers.put(TOKENS.get(GOOD), t -> signed(AlipayTokens.METHOD, tokenResponse("valid", GOOD)));
        tokenAnswers.put(TOKENS.get(MISFILED), t -> signed(AlipayTokens.METHOD, tokenResponse("valid", GOOD)));
        tokenAnswers.put(TOKENS.get(INVALID), t -> signed(AlipayTokens.METHOD, tokenResponse("invalid", INVALID)));
        tokenAnswers.put(
                TOKENS.get(UNVERIFIABLE),
                t -> signed(AlipayTokens.METHOD, tokenResponse("valid", UNVERIFIABLE), TestKeys.STRANGER));
        gateway.answer(handlerOf());
    }

    /** Records each request and answers it: a token check from {@link #tokenAnswers}, a trade query paid. */
    Function<FakeGateway.Request, Reply> handlerOf() {
        return r -> {
            Map<String, String> p = form(r.bodyText());
            sent.add(p);
            if (AlipayTokens.METHOD.equals(p.get("method"))) {
                String token = p.get("biz_content").replaceAll(".*\"app_auth_token\":\"([^\"]*)\".*", "$1");
                return Reply.of(
                        200, "text/html;charset=utf-8", tokenAnswers.get(token).apply(token));
            }
            return Reply.of(200, "text/html;charset=utf-8", signed(AlipayQuery.METHOD, tradeResponse()));
        };
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    static String tokenResponse(String status, String authAppId) {
        return "{\"code\":\"10000\",\"msg\":\"Success\",\"user_id\":\"2088102150527498\",\"auth_app_id\":\""
                + authAppId + "\",\"expires_in\":31536000,\"auth_methods\":[\"alipay.trade.query\"],"
                + "\"auth_start\":\"2026-01-01 10:00:00\",\"auth_end\":\"2027-01-01 10:00:00\",\"status\":\""
                + status + "\"}";
    }

    static String tradeResponse() {
        return "{\"code\":\"10000\",\"msg\":\"Success\",\"out_trade_no\":\"" + NO + "\",\"total_amount\":\"8.00\","
                + "\"trade_no\":\"2026030122001400000000000201\",\"trade_status\":\"TRADE_SUCCESS\"}";
    }

    static String signed(String method, String response) {
        return signed(method, response, TestKeys.ALIPAY);
    }

    static String signed(String method, String response, String keyName) {
        return "{\"" + AlipayGateway.responseName(method) + "\":" + response + ",\"sign\":\""
                + AlipaySigner.signAnswer(response, TestKeys.pair(keyName).getPrivate()) + "\"}";
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

    QueryAnswer ask(String authAppId) {
        return query.query(channel, new QueryTarget(NO, authAppId, null));
    }

    List<Map<String, String>> sent(String method) {
        return sent.stream().filter(p -> method.equals(p.get("method"))).toList();
    }

    /** No request of any kind carried the token as its app_auth_token. */
    void assertNeverSentAsCredential(String authAppId) {
        String token = TOKENS.get(authAppId);
        assertTrue(
                sent.stream().noneMatch(p -> token.equals(p.get("app_auth_token"))),
                "the token of " + authAppId + " was never used");
        assertTrue(sent(AlipayQuery.METHOD).isEmpty(), "no trade query sent");
    }

    @Test
    void aConfirmedTokenIsCheckedFirstThenCarriedByTheSignedQuery() {
        QueryAnswer a = ask(GOOD);
        assertEquals(QueryResult.PAID, a.result());

        List<Map<String, String>> checks = sent(AlipayTokens.METHOD);
        assertEquals(1, checks.size(), "one check before first use");
        Map<String, String> check = checks.get(0);
        assertEquals(QueryChannels.ALI_ISV_APPID, check.get("app_id"), "the ISV's own app calls");
        assertEquals("{\"app_auth_token\":\"" + TOKENS.get(GOOD) + "\"}", check.get("biz_content"));
        assertFalse(check.containsKey("app_auth_token"), "the check is the ISV's own call");
        assertSignedByTheApp(check);

        List<Map<String, String>> queries = sent(AlipayQuery.METHOD);
        assertEquals(1, queries.size());
        Map<String, String> q = queries.get(0);
        assertEquals(TOKENS.get(GOOD), q.get("app_auth_token"));
        assertEquals("{\"out_trade_no\":\"" + NO + "\"}", q.get("biz_content"));
        assertSignedByTheApp(q);

        // used again without a new check for 24 h, then checked again before the next use
        assertEquals(QueryResult.PAID, ask(GOOD).result());
        clock.advance(Duration.ofHours(24).minusSeconds(1));
        assertEquals(QueryResult.PAID, ask(GOOD).result());
        assertEquals(1, sent(AlipayTokens.METHOD).size());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(QueryResult.PAID, ask(GOOD).result());
        assertEquals(2, sent(AlipayTokens.METHOD).size(), "re-confirmed every 24 h");
        assertEquals(0, query.failedCredentials(channel));
    }

    static void assertSignedByTheApp(Map<String, String> params) {
        var unsigned = new LinkedHashMap<>(params);
        String sign = unsigned.remove("sign");
        assertTrue(
                AlipaySigner.verify(
                        AlipaySigner.requestContent(unsigned),
                        StandardCharsets.UTF_8,
                        sign,
                        TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
                        AlipaySigner.RSA2),
                "RSA2 with the ISV app's private key over every other parameter");
    }

    @Test
    void aTokenOfAnotherMerchantIsNeverUsed() {
        assertError(QueryError.CREDENTIALS, ask(MISFILED));
        assertNeverSentAsCredential(MISFILED);
        assertEquals(
                AlipayTokenCheck.Status.REFUSED, tokens.state(channel, MISFILED).status());
        assertEquals(1, query.failedCredentials(channel));
        // a decided answer is not asked again at each use
        clock.advance(Duration.ofHours(1));
        assertError(QueryError.CREDENTIALS, ask(MISFILED));
        assertEquals(1, sent(AlipayTokens.METHOD).size());
        assertNeverSentAsCredential(MISFILED);
    }

    @Test
    void anInvalidTokenIsNeverUsedAndAskedAboutAgainAfterADay() {
        assertError(QueryError.CREDENTIALS, ask(INVALID));
        assertNeverSentAsCredential(INVALID);
        assertEquals(1, query.failedCredentials(channel));
        clock.advance(Duration.ofHours(24));
        // the merchant re-authorised meanwhile: the same token is valid now
        tokenAnswers.put(TOKENS.get(INVALID), t -> signed(AlipayTokens.METHOD, tokenResponse("valid", INVALID)));
        assertEquals(QueryResult.PAID, ask(INVALID).result());
        assertEquals(2, sent(AlipayTokens.METHOD).size());
        assertEquals(0, query.failedCredentials(channel));
    }

    @Test
    void anUnverifiableAnswerConfirmsNothingAndIsRetriedAtMostOnceAMinute() {
        assertError(QueryError.CREDENTIALS, ask(UNVERIFIABLE));
        assertNeverSentAsCredential(UNVERIFIABLE);
        assertEquals(
                AlipayTokenCheck.Status.UNANSWERED,
                tokens.state(channel, UNVERIFIABLE).status());
        assertEquals(1, query.failedCredentials(channel));

        clock.advance(Duration.ofSeconds(59));
        assertError(QueryError.CREDENTIALS, ask(UNVERIFIABLE));
        assertEquals(1, sent(AlipayTokens.METHOD).size(), "not retried within the minute");

        // an unsigned "valid" answer is no better
        tokenAnswers.put(
                TOKENS.get(UNVERIFIABLE),
                t -> "{\"" + AlipayGateway.responseName(AlipayTokens.METHOD) + "\":"
                        + tokenResponse("valid", UNVERIFIABLE) + "}");
        clock.advance(Duration.ofSeconds(1));
        assertError(QueryError.CREDENTIALS, ask(UNVERIFIABLE));
        assertEquals(2, sent(AlipayTokens.METHOD).size(), "retried before the next use once a minute passed");
        assertNeverSentAsCredential(UNVERIFIABLE);

        // the gateway is back with a signed answer: the next use after a minute confirms it
        tokenAnswers.put(
                TOKENS.get(UNVERIFIABLE), t -> signed(AlipayTokens.METHOD, tokenResponse("valid", UNVERIFIABLE)));
        clock.advance(Duration.ofMinutes(1));
        assertEquals(QueryResult.PAID, ask(UNVERIFIABLE).result());
        assertEquals(0, query.failedCredentials(channel));
    }

    @Test
    void aVerifiedGatewayRefusalFailsTheTokenAnUnavailableGatewayOnlyDefersIt() {
        String refusal = "{\"code\":\"20001\",\"msg\":\"Insufficient Token Permissions\","
                + "\"sub_code\":\"aop.invalid-app-auth-token\",\"sub_msg\":\"无效的应用授权令牌\"}";
        tokenAnswers.put(TOKENS.get(GOOD), t -> signed(AlipayTokens.METHOD, refusal));
        assertError(QueryError.CREDENTIALS, ask(GOOD));
        assertEquals(
                AlipayTokenCheck.Status.REFUSED, tokens.state(channel, GOOD).status());

        String unavailable = "{\"code\":\"20000\",\"msg\":\"Service Currently Unavailable\","
                + "\"sub_code\":\"isp.unknow-error\",\"sub_msg\":\"系统繁忙\"}";
        tokenAnswers.put(TOKENS.get(INVALID), t -> signed(AlipayTokens.METHOD, unavailable));
        assertError(QueryError.CREDENTIALS, ask(INVALID));
        assertEquals(
                AlipayTokenCheck.Status.UNANSWERED,
                tokens.state(channel, INVALID).status());
        assertEquals(2, query.failedCredentials(channel));
        assertTrue(sent(AlipayQuery.METHOD).isEmpty());
    }

    @Test
    void aMerchantWithoutAConfiguredTokenIsNotQueriedAndNothingIsSent() {
        assertError(QueryError.CREDENTIALS, ask(NO_TOKEN));
        assertError(QueryError.CREDENTIALS, ask(null));
        assertTrue(sent.isEmpty(), "nothing sent");
        assertNull(tokens.state(channel, NO_TOKEN));
        assertEquals(0, query.failedCredentials(channel), "only configured tokens count");
    }

    @Test
    void manyQueriesOfOneMerchantAtOnceSendOneCheck() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Function<String, String> valid = tokenAnswers.get(TOKENS.get(GOOD));
        tokenAnswers.put(TOKENS.get(GOOD), t -> {
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return valid.apply(t);
        });
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            var futures = new ArrayList<Future<QueryAnswer>>();
            for (int i = 0; i < 16; i++) {
                futures.add(pool.submit(() -> ask(GOOD)));
            }
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> !sent(AlipayTokens.METHOD).isEmpty());
            release.countDown();
            for (Future<QueryAnswer> f : futures) {
                assertEquals(QueryResult.PAID, f.get(10, TimeUnit.SECONDS).result());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, sent(AlipayTokens.METHOD).size(), "one check for sixteen concurrent first uses");
        assertEquals(16, sent(AlipayQuery.METHOD).size());
        assertTrue(
                sent(AlipayQuery.METHOD).stream().allMatch(p -> TOKENS.get(GOOD).equals(p.get("app_auth_token"))));
    }

    @Test
    void inCertificateModeTheCheckCarriesTheSnsAndItsAnswerIsVerifiedByItsCertificate() {
        AlipayPki pki = AlipayPki.issue(
                QueryChannels.ALI_ISV_APPID,
                TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
                TestKeys.pair(TestKeys.ALIPAY).getPublic(),
                clock.instant(),
                5);
        Map<String, String> props = QueryChannels.alipayIsv(gateway.url() + "/gateway.do", TOKENS);
        QueryChannels.put(props, QueryChannels.ALI_ISV, "alipay-public-key", pki.alipayPem());
        QueryChannels.put(props, QueryChannels.ALI_ISV, "alipay-root-cert", pki.rootPem());
        QueryChannels.put(props, QueryChannels.ALI_ISV, "app-cert", pki.appPem());
        Channel certChannel = QueryChannels.channel(props, QueryChannels.ALI_ISV);
        String sn = AlipayPki.sn(pki.alipay());
        PrivateKey alipay = TestKeys.pair(TestKeys.ALIPAY).getPrivate();
        Function<String, String> certSigned = response -> "{\""
                + AlipayGateway.responseName(AlipayTokens.METHOD) + "\":" + response + ",\"alipay_cert_sn\":\"" + sn
                + "\",\"sign\":\"" + AlipaySigner.signAnswer(response, alipay) + "\"}";
        tokenAnswers.put(TOKENS.get(GOOD), t -> certSigned.apply(tokenResponse("valid", GOOD)));
        // the same answer without its SN is not verified in certificate mode
        tokenAnswers.put(TOKENS.get(MISFILED), t -> signed(AlipayTokens.METHOD, tokenResponse("valid", MISFILED)));

        assertEquals(
                AlipayTokenCheck.Status.CONFIRMED, checkOnce(certChannel, GOOD).status());
        Map<String, String> check = sent(AlipayTokens.METHOD).get(0);
        assertEquals(AlipayPki.sn(pki.app()), check.get("app_cert_sn"));
        assertEquals(pki.rootSn(), check.get("alipay_root_cert_sn"));
        assertSignedByTheApp(check);
        assertEquals(
                AlipayTokenCheck.Status.UNANSWERED,
                checkOnce(certChannel, MISFILED).status());
    }

    @Test
    void theStartChecksEveryTokenInTheBackgroundWithoutWaitingForTheGateway() {
        var registry = QueryChannels.registry(QueryChannels.alipayIsv(gateway.url() + "/gateway.do", TOKENS));
        Channel swept = registry.channel(QueryChannels.ALI_ISV).orElseThrow();
        QueryHttp http = new QueryHttp(Duration.ofSeconds(2), 8192);
        var started = new AlipayTokens(clock, http, new AlipayCertStore(), registry);
        CountDownLatch release = new CountDownLatch(1);
        Function<FakeGateway.Request, Reply> answering = handlerOf();
        gateway.answer(r -> {
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answering.apply(r);
        });
        try {
            long t0 = System.nanoTime();
            started.start();
            assertTrue(
                    System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(3),
                    "the start does not wait for a gateway that holds its answers for 5 s");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> gateway.last() != null);
            assertEquals(0, started.failed(swept), "nothing decided while the first check waits");
            release.countDown();
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> sent(AlipayTokens.METHOD).size() == TOKENS.size()
                            && started.failed(swept) == 3
                            // a request sent is not yet an answer recorded: wait for the good token's as well
                            && started.state(swept, GOOD).status() == AlipayTokenCheck.Status.CONFIRMED);
            assertEquals(3, started.failed(swept), "the three bad tokens stay counted");
            assertTrue(sent(AlipayQuery.METHOD).isEmpty(), "the start only checks");
        } finally {
            release.countDown();
            started.stop();
        }
    }

    private AlipayTokenCheck checkOnce(Channel c, String authAppId) {
        tokens.confirmed(c, c.keys(AlipayKeys.class), authAppId);
        return tokens.state(c, authAppId);
    }
}
