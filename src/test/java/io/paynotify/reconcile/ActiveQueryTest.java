package io.paynotify.reconcile;

import static io.paynotify.testing.SimulatorResource.ALI;
import static io.paynotify.testing.SimulatorResource.WX;
import static io.paynotify.testing.SimulatorResource.WX3;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.intake.NotificationIntake;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.Transactions;
import io.paynotify.provider.OrderQuery;
import io.paynotify.testing.Db;
import io.paynotify.testing.Management;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.Sim;
import io.paynotify.testing.SimulatorProfile;
import io.paynotify.testing.SimulatorResource;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The active query (docs/api.md "Active query") end to end: the service queries the simulator's gateway on localhost (real HTTP,
 * real signatures both ways: the gateway checks the service's request signatures like the provider, the service
 * checks the gateway's answers like a provider's), and a verified answer goes through the notification intake. The
 * schedule is 2 s, 30 min, 1 h: each order here is due 2 s after its creation, and then not again during the run.
 */
@QuarkusTest
@TestProfile(SimulatorProfile.class)
class ActiveQueryTest {

    private static final MerchantClient MERCHANT =
            new MerchantClient(SimulatorResource.CLIENT, SimulatorResource.CLIENT_SECRET);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    ChannelRegistry registry;

    @Inject
    Transactions transactions;

    @Inject
    NotificationIntake intake;

    @Inject
    Meters metrics;

    @Inject
    Instance<OrderQuery> queries;

    @Inject
    ActiveQuery activeQuery;

    // ---- each provider's answers

    @ParameterizedTest
    @ValueSource(strings = {WX, WX3, ALI})
    void aPaidAnswerAppliesThePaymentAsANotificationWouldWithSourceQuery(String channel) {
        String no = create(channel, 1234);
        Sim.trade(no, "PAID", 1234);

        await(() -> "SUCCESS".equals(order(channel, no).get("state")), "the order becomes SUCCESS by active query");

        List<Map<String, Object>> recorded = notifications(channel, no);
        assertEquals(1, recorded.size(), "one answer recorded");
        assertEquals("APPLIED", recorded.get(0).get("outcome"));
        assertEquals("QUERY", recorded.get(0).get("source"));
        Map<String, Object> o = order(channel, no);
        assertEquals(1, ((Number) o.get("query_count")).intValue());
        assertNotNull(o.get("last_queried_at"));
        assertNotNull(o.get("transaction_id"));
        List<Sim.Request> sent = Sim.requests(no);
        assertEquals(1, sent.size(), "one query sent");
        assertTrue(
                sent.get(0).accepted(),
                "the gateway accepted the request signature: " + sent.get(0).rejection());

        admin().get("/admin/orders/" + channel + "/" + no)
                .then()
                .statusCode(200)
                .body("state", equalTo("SUCCESS"))
                .body("queryCount", equalTo(1))
                .body("lastQueriedAt", org.hamcrest.Matchers.notNullValue());
        admin().get("/admin/notifications?source=QUERY&channel=" + channel)
                .then()
                .statusCode(200)
                .body("items.find { it.outTradeNo == '" + no + "' }.source", equalTo("QUERY"))
                .body("items.find { it.outTradeNo == '" + no + "' }.rawBody", org.hamcrest.Matchers.notNullValue());
    }

    @ParameterizedTest
    @CsvSource({
        WX + ",NOTPAY",
        WX3 + ",USERPAYING",
        ALI + ",NOTPAY",
        WX + ",NOT_FOUND",
        WX3 + ",NOT_FOUND",
        ALI + ",NOT_FOUND"
    })
    void aNotFinalOrNotFoundAnswerRecordsOnlyTheQueryAndTheNextStepApplies(String channel, String state) {
        String no = create(channel, 500);
        if (!"NOT_FOUND".equals(state)) {
            Sim.trade(no, state, 500);
        }

        await(() -> queryCount(channel, no) == 1 && Sim.requests(no).size() == 1, "one query sent");
        awaitMetricDelta(channel, state.equals("NOT_FOUND") ? "NOT_FOUND" : "NOT_FINAL");

        Map<String, Object> o = order(channel, no);
        assertEquals("PENDING", o.get("state"));
        assertTrue(notifications(channel, no).isEmpty(), "nothing recorded");
        assertTrue(Sim.requests(no).get(0).accepted());
        Instant created = ((Instant) o.get("created_at"));
        Instant next = ((Instant) o.get("next_query_at"));
        assertEquals(created.plus(Duration.ofMinutes(30)), next, "the next future step: 30 min after creation");
    }

    @ParameterizedTest
    @CsvSource({WX + ",CLOSED", WX3 + ",REVOKED", ALI + ",CLOSED"})
    void aClosedAnswerClosesTheOrder(String channel, String state) {
        String no = create(channel, 700);
        Sim.trade(no, state, 700);

        await(() -> "CLOSED".equals(order(channel, no).get("state")), "the order becomes CLOSED by active query");
        List<Map<String, Object>> recorded = notifications(channel, no);
        assertEquals(1, recorded.size());
        assertEquals("APPLIED", recorded.get(0).get("outcome"));
        assertEquals("QUERY", recorded.get(0).get("source"));
    }

    @ParameterizedTest
    @ValueSource(strings = {WX, WX3, ALI})
    void aPaidThenRefundedTradeIsAPayment(String channel) {
        // WeChat trade_state REFUND; Alipay TRADE_CLOSED with send_pay_date
        String no = create(channel, 800);
        Sim.trade(no, "REFUND", 800);

        await(() -> "SUCCESS".equals(order(channel, no).get("state")), "the refunded trade proves the payment");
        assertEquals("QUERY", notifications(channel, no).get(0).get("source"));
    }

    @Test
    void aWechatRefundAnswerWithoutTheTransactionIsUnknownAndFlagged() {
        String no = create(WX3, 810);
        Sim.trade(no, "REFUND", 810, "OMIT_PAYMENT", 0);

        await(() -> notifications(WX3, no).size() == 1, "the UNKNOWN answer is recorded");
        Map<String, Object> n = notifications(WX3, no).get(0);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("QUERY", n.get("source"));
        assertEquals("PENDING", order(WX3, no).get("state"), "an unknown answer never pays the order");
    }

    @ParameterizedTest
    @ValueSource(strings = {WX, WX3, ALI})
    void anAmountThatDiffersIsAnAnomalyAndPaysNothing(String channel) {
        String no = create(channel, 1000);
        Sim.trade(no, "PAID", 999);

        await(() -> notifications(channel, no).size() == 1, "the answer is recorded");
        Map<String, Object> n = notifications(channel, no).get(0);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("AMOUNT_MISMATCH", n.get("reason"));
        assertEquals("PENDING", order(channel, no).get("state"));
    }

    // ---- answers that must never be applied

    @ParameterizedTest
    @CsvSource({
        WX + ",BAD_SIGNATURE",
        WX3 + ",BAD_SIGNATURE",
        ALI + ",BAD_SIGNATURE",
        WX3 + ",UNSIGNED",
        ALI + ",UNSIGNED"
    })
    void anAnswerThatFailsItsCheckIsCountedAndNeverApplied(String channel, String fault) {
        double before = counter("paynotify_query_answers_unverified_total", Map.of("channel", channel));
        String no = create(channel, 900);
        Sim.trade(no, "PAID", 900, fault, 0);

        await(
                () -> counter("paynotify_query_answers_unverified_total", Map.of("channel", channel)) > before,
                "the unverified answer is counted");
        assertEquals("PENDING", order(channel, no).get("state"));
        assertTrue(notifications(channel, no).isEmpty(), "an unverified answer is never stored");
        assertEquals(1, queryCount(channel, no));
    }

    @ParameterizedTest
    @ValueSource(strings = {WX, WX3})
    void anAnswerForAnotherMerchantIsAnAccountMismatchAsANotificationWouldBe(String channel) {
        String no = create(channel, 910);
        Sim.trade(no, "PAID", 910, "WRONG_MCH", 0);

        await(() -> notifications(channel, no).size() == 1, "the answer is recorded");
        Map<String, Object> n = notifications(channel, no).get(0);
        assertEquals("ANOMALY", n.get("outcome"));
        assertEquals("ACCOUNT_MISMATCH", n.get("reason"));
        assertEquals("QUERY", n.get("source"));
        assertEquals("PENDING", order(channel, no).get("state"), "never applied");
    }

    @ParameterizedTest
    @ValueSource(strings = {WX, WX3, ALI})
    void aServerErrorIsAnErrorAndTheNextStepAsksAgain(String channel) {
        double before = counter("paynotify_queries_total", Map.of("channel", channel, "result", "ERROR"));
        String no = create(channel, 950);
        Sim.trade(no, "PAID", 950, "HTTP_500", 0);

        await(
                () -> counter("paynotify_queries_total", Map.of("channel", channel, "result", "ERROR")) > before,
                "the error is counted");
        Map<String, Object> o = order(channel, no);
        assertEquals("PENDING", o.get("state"));
        assertTrue(notifications(channel, no).isEmpty());
        assertNotNull(o.get("next_query_at"), "asked again at the next step");
    }

    @Test
    void anAlipayErrorResponseIsAnErrorNeverNotFound() {
        double before = counter("paynotify_queries_total", Map.of("channel", ALI, "result", "ERROR"));
        String no = create(ALI, 960);
        Sim.trade(no, "PAID", 960, "ERROR_RESPONSE", 0);

        await(
                () -> counter("paynotify_queries_total", Map.of("channel", ALI, "result", "ERROR")) > before,
                "the error response is counted as an error");
        assertEquals("PENDING", order(ALI, no).get("state"));
    }

    @Test
    void anAlipayAnswerWithEscapedSlashesIsVerifiedAsAlipaysSdkDoes() {
        String no = create(ALI, 970);
        Sim.trade(no, "PAID", 970, "ESCAPED_SLASHES", 0);

        await(() -> "SUCCESS".equals(order(ALI, no).get("state")), "the \\/ answer verifies once unescaped");
    }

    @Test
    void slowProvidersHoldNoTransactionNorConnectionAndDelayNoNotification() throws Exception {
        double before = counter("paynotify_queries_total", Map.of("channel", WX3, "result", "ERROR"));
        var slow = new ArrayList<String>();
        for (int i = 0; i < 8; i++) {
            String no = create(WX3, 100 + i);
            Sim.trade(no, "PAID", 100 + i, "SLOW", 8_000);
            slow.add(no);
        }
        await(() -> slow.stream().allMatch(no -> !Sim.requests(no).isEmpty()), "all eight queries are at the gateway");
        Instant lastArrived = slow.stream()
                .map(no -> Instant.parse(Sim.requests(no).get(0).receivedAt()))
                .max(Instant::compareTo)
                .orElseThrow();
        // the calls hang for 8 s: let a second of them pass, so that a transaction held across one would show
        await(() -> Db.now().isAfter(lastArrived.plusMillis(1200)), "the calls have hung for a second");

        // while eight provider calls hang: no transaction is open, and a notification is answered at once
        assertEquals(
                0,
                // the claims' own short transactions come and go ten times a second; one held across a provider
                // call would have been idle in transaction since the calls began
                Db.count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND state LIKE 'idle in transaction%' AND state_change < now() - interval '1 second'"),
                "no transaction is held during a provider call");
        String other = create(WX, 321);
        long started = System.nanoTime();
        given().body(wxPaid(other, "4200000999" + other.substring(2, 12), 321))
                .post("/notify/wechatpay/" + WX)
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.containsString("SUCCESS"));
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms < 2_500, "the notification was answered in " + ms + " ms while queries hung");

        // each slow call ends after 5 s as a timeout: an error, nothing applied
        await(
                () -> counter("paynotify_queries_total", Map.of("channel", WX3, "result", "ERROR")) >= before + 8,
                "eight timeouts counted");
        for (String no : slow) {
            assertEquals("PENDING", order(WX3, no).get("state"));
            assertTrue(notifications(WX3, no).isEmpty());
        }
    }

    // ---- the notification and the query meet

    @Test
    void aNotificationAfterTheQueryAppliedThePaymentIsADuplicate() {
        String no = create(WX, 4321);
        Sim.trade(no, "PAID", 4321);
        await(() -> "SUCCESS".equals(order(WX, no).get("state")), "paid by active query");
        String transactionId = (String) order(WX, no).get("transaction_id");

        given().body(wxPaid(no, transactionId, 4321))
                .post("/notify/wechatpay/" + WX)
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.containsString("SUCCESS"));

        List<Map<String, Object>> recorded = notifications(WX, no);
        assertEquals(2, recorded.size());
        assertEquals("QUERY", recorded.get(0).get("source"));
        assertEquals("APPLIED", recorded.get(0).get("outcome"));
        assertEquals("NOTIFY", recorded.get(1).get("source"));
        assertEquals("DUPLICATE", recorded.get(1).get("outcome"));
        assertEquals(
                1,
                Db.count("SELECT count(*) FROM events WHERE type = 'order.paid' AND out_trade_no = ?", no),
                "one order.paid event, from the query");
    }

    @Test
    void anOrderPaidByNotificationBeforeItsStepIsNeverQueried() {
        String no = create(WX, 654);
        // its step falls after the notification however slow the machine is
        Db.update(
                "UPDATE orders SET next_query_at = now() + interval '1 second' WHERE channel = ? AND out_trade_no = ?",
                WX,
                no);
        Sim.trade(no, "PAID", 654);
        given().body(wxPaid(no, "4200000654" + no.substring(2, 12), 654))
                .post("/notify/wechatpay/" + WX)
                .then()
                .statusCode(200);
        Instant due = (Instant) order(WX, no).get("next_query_at");
        await(() -> Db.now().isAfter(due), "its step has passed");

        // a later order of the same channel passes its step after this one's: a claim ran since this one was due
        String later = create(WX, 655);
        await(() -> queryCount(WX, later) == 1, "the later order is queried");
        assertEquals(0, queryCount(WX, no), "only PENDING orders are queried");
        assertTrue(Sim.requests(no).isEmpty());
    }

    // ---- scheduling

    @Test
    void eachDueOrderIsQueriedOnceAcrossReplicas() throws Exception {
        var nos = new ArrayList<String>();
        for (int i = 0; i < 20; i++) {
            // inserted unscheduled: not due until every replica is ready to race for it
            String no = "AQ" + id();
            Db.insertOrder(WX3, "WECHATPAY_V3", no, 2000 + i);
            nos.add(no);
        }

        // two more replicas in this process race the running one for the same due rows
        var replicas = List.of(
                new ActiveQuery(registry, transactions, intake, metrics, queries),
                new ActiveQuery(registry, transactions, intake, metrics, queries));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch go = new CountDownLatch(1);
            var ticks = new ArrayList<Future<Integer>>();
            for (int t = 0; t < 4; t++) {
                ActiveQuery replica = replicas.get(t % 2);
                Callable<Integer> ticking = () -> {
                    go.await();
                    int started = 0;
                    for (int k = 0; k < 5; k++) {
                        started += replica.tick();
                    }
                    return started;
                };
                ticks.add(pool.submit(ticking));
            }
            Db.update(
                    "UPDATE orders SET created_at = now() - interval '1 second', next_query_at = now() -"
                            + " interval '700 milliseconds' WHERE channel = ? AND out_trade_no = ANY (?)",
                    WX3,
                    nos.toArray(new String[0]));
            go.countDown();
            for (Future<Integer> f : ticks) {
                f.get();
            }
            await(
                    () -> nos.stream().mapToLong(no -> Sim.requests(no).size()).sum() >= nos.size(),
                    "every order was queried");
            for (String no : nos) {
                assertEquals(1, queryCount(WX3, no), "claimed once: " + no);
                assertEquals(1, Sim.requests(no).size(), "asked once: " + no);
            }
        } finally {
            pool.shutdownNow();
            replicas.forEach(ActiveQuery::stop);
        }
    }

    @Test
    void atMostMaxRateQueriesStartInAnySecondPerChannel() {
        var nos = new ArrayList<String>();
        for (int i = 0; i < 25; i++) {
            nos.add(create(ALI, 3000 + i));
        }
        await(() -> nos.stream().allMatch(no -> Sim.requests(no).size() == 1), "all 25 queried");

        List<Instant> arrivals = nos.stream()
                .map(no -> Instant.parse(Sim.requests(no).get(0).receivedAt()))
                .sorted()
                .toList();
        // max-rate 10: the 11th query after any query starts at least a second after it (less a margin for the
        // time between a start and its arrival at the gateway)
        for (int i = 0; i + 10 < arrivals.size(); i++) {
            Duration gap = Duration.between(arrivals.get(i), arrivals.get(i + 10));
            assertTrue(gap.toMillis() >= 900, "11 queries within " + gap.toMillis() + " ms");
        }
    }

    @Test
    void stepsThatFellDueCollapseIntoOneQueryAndNoneFollowsTheLastStep() {
        // a 20-minute-old order whose 2 s step was missed, and a 2-hour-old one past every step
        String recent = "QC" + id();
        String old = "QO" + id();
        Db.insertOrder(WX, "WECHATPAY_V2", recent, 100);
        Db.insertOrder(WX, "WECHATPAY_V2", old, 100);
        Db.update(
                "UPDATE orders SET created_at = now() - interval '20 minutes', next_query_at = now() - interval"
                        + " '20 minutes' + interval '2 seconds' WHERE channel = ? AND out_trade_no = ?",
                WX,
                recent);
        Db.update(
                "UPDATE orders SET created_at = now() - interval '2 hours', next_query_at = now() - interval '2 hours'"
                        + " + interval '2 seconds' WHERE channel = ? AND out_trade_no = ?",
                WX,
                old);

        await(() -> queryCount(WX, recent) == 1 && queryCount(WX, old) == 1, "both queried");
        Map<String, Object> r = order(WX, recent);
        assertEquals(
                ((Instant) r.get("created_at")).plus(Duration.ofMinutes(30)),
                ((Instant) r.get("next_query_at")),
                "the missed step collapsed; the next future step (30 min) applies");
        assertNull(order(WX, old).get("next_query_at"), "no step left after the last one");
    }

    @Test
    void ordersCreatedBeforeTheChannelQueriedAreScheduledAtStart() {
        String fresh = "QB" + id();
        String tooOld = "QT" + id();
        Db.insertOrder(WX, "WECHATPAY_V2", fresh, 100);
        Db.insertOrder(WX, "WECHATPAY_V2", tooOld, 100);
        Db.update(
                "UPDATE orders SET created_at = now() - interval '2 hours' WHERE channel = ? AND out_trade_no = ?",
                WX,
                tooOld);
        assertNull(order(WX, fresh).get("next_query_at"));

        activeQuery.backfill();

        assertNotNull(order(WX, fresh).get("next_query_at"), "a PENDING order gets its first step");
        assertNull(order(WX, tooOld).get("next_query_at"), "an order past the last step is never queried");
        await(() -> queryCount(WX, fresh) == 1, "the backfilled order is queried");
    }

    @Test
    void ordersOfAChannelThatDoesNotQueryAreNeverScheduled() {
        String no = create(SimulatorResource.WX_OFF, 100);
        assertNull(order(SimulatorResource.WX_OFF, no).get("next_query_at"));
    }

    // ---- the operator's call

    @Test
    void anOperatorQueryRunsNowAndAnswersTheResultAndTheRecordedNotification() {
        String no = create(ALI, 2500);
        Sim.trade(no, "PAID", 2500);

        admin().post("/admin/orders/" + ALI + "/" + no + "/query")
                .then()
                .statusCode(200)
                .body("result", equalTo("PAID"))
                .body("notification.source", equalTo("QUERY"))
                .body("notification.outcome", equalTo("APPLIED"))
                .body("notification.outTradeNo", equalTo(no));
        assertEquals("SUCCESS", order(ALI, no).get("state"));
        assertEquals(1, queryCount(ALI, no));
    }

    @Test
    void anOperatorQueryOfANotFinalOrderAnswersNotFinalWithoutANotification() {
        String no = create(WX3, 2600);
        Sim.trade(no, "NOTPAY", 2600);
        admin().post("/admin/orders/" + WX3 + "/" + no + "/query")
                .then()
                .statusCode(200)
                .body("result", equalTo("NOT_FINAL"))
                .body("notification", nullValue());
        String missing = create(WX, 2601);
        admin().post("/admin/orders/" + WX + "/" + missing + "/query")
                .then()
                .statusCode(200)
                .body("result", equalTo("NOT_FOUND"));
    }

    @Test
    void anOperatorQueryAnswers404ThenChecks409() {
        admin().post("/admin/orders/" + WX + "/NOSUCHORDER0001/query").then().statusCode(404);
        admin().post("/admin/orders/no-such-channel/NOSUCHORDER0001/query")
                .then()
                .statusCode(404);
        String off = create(SimulatorResource.WX_OFF, 100);
        admin().post("/admin/orders/" + SimulatorResource.WX_OFF + "/" + off + "/query")
                .then()
                .statusCode(409);
        String closed = create(WX, 100);
        MERCHANT.close(WX, closed, "close-" + closed);
        admin().post("/admin/orders/" + WX + "/" + closed + "/query").then().statusCode(409);
        assertTrue(Sim.requests(closed).isEmpty(), "a closed order is never queried");
        given().post("/admin/orders/" + WX + "/" + closed + "/query").then().statusCode(401);
    }

    // ---- helpers

    private static io.restassured.specification.RequestSpecification admin() {
        return given().auth().oauth2(TestChannels.ADMIN_TOKEN);
    }

    /** A WeChat v2 payment notice of {@link SimulatorResource#WX}, signed with its key. */
    private static byte[] wxPaid(String no, String transactionId, long amount) {
        Map<String, String> fields = WechatV2Fixtures.paid(no, transactionId, amount);
        fields.put("appid", SimulatorResource.WX_APPID);
        fields.put("mch_id", SimulatorResource.WX_MCH);
        return WechatV2Fixtures.body(WechatV2Fixtures.signed(fields, SimulatorResource.WX_KEY, "MD5"));
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 20).toUpperCase();
    }

    /** Registers a new order through the merchant API; its number is new for each call. */
    private static String create(String channel, long amount) {
        String no = "AQ" + id();
        var answer = MERCHANT.create("k-" + no, MerchantClient.order(channel, no, amount));
        assertEquals(201, answer.status(), () -> new String(answer.body()));
        return no;
    }

    private static Map<String, Object> order(String channel, String no) {
        return Db.row("SELECT * FROM orders WHERE channel = ? AND out_trade_no = ?", channel, no);
    }

    private static int queryCount(String channel, String no) {
        return ((Number) order(channel, no).get("query_count")).intValue();
    }

    private static List<Map<String, Object>> notifications(String channel, String no) {
        return Db.rows(
                "SELECT outcome, reason, source, provider_status FROM notifications"
                        + " WHERE channel = ? AND out_trade_no = ? ORDER BY id",
                channel,
                no);
    }

    private static void await(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
    }

    /** Waits until the query counter of that result has been incremented for the channel at least once. */
    private static void awaitMetricDelta(String channel, String result) {
        await(
                () -> counter("paynotify_queries_total", Map.of("channel", channel, "result", result)) >= 1,
                "a " + result + " query counted on " + channel);
    }

    private static double counter(String name, Map<String, String> labels) {
        return Management.sum(Management.scrape(), name, labels);
    }
}
