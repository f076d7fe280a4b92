package io.paynotify.events;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.standardwebhooks.Webhook;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.Transactions;
import io.paynotify.testing.ArmedIntakeFaults;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WebhookReceiver;
import io.paynotify.testing.WebhookReceiver.Answer;
import io.paynotify.testing.WebhookReceiver.Received;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Merchant webhooks over real HTTP to a receiver on localhost (docs/api.md "Webhooks"): Standard Webhooks signatures checked
 * by the reference library, retries with the same id and body, Retry-After, 410 and re-enable, ordering within one
 * order, isolation from provider acks, several replicas, and a replica killed in the middle of a delivery. The
 * tests' schedule is 1 s, 2 s (three attempts) and the lease 3 s (TestChannels).
 */
@QuarkusTest
class WebhookDeliveryTest {

    static final Duration PATIENCE = Duration.ofSeconds(20);

    @Inject
    DeliveryWorker worker;

    @Inject
    Transactions transactions;

    @Inject
    ChannelRegistry registry;

    @Inject
    Clock clock;

    @Inject
    Meters metrics;

    @Inject
    PaynotifyConfig config;

    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    WebhookReceiver receiver;
    final List<DeliveryWorker> replicas = new ArrayList<>();

    @BeforeEach
    void receiver() {
        receiver = WebhookReceiver.get();
        receiver.reset();
    }

    @AfterEach
    void restore() {
        replicas.forEach(DeliveryWorker::stop);
        worker.start();
        Db.update("UPDATE webhook_endpoints SET disabled_at = NULL");
        // leave nothing in flight or about to be due for the next test. Deliveries other test classes
        // left due far in the future (an hour's backoff) cannot reach a receiver during this class.
        receiver.reset();
        worker.wake();
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Db.count("SELECT count(*) FROM deliveries WHERE lease_until > now()"
                                + " OR (state = 'PENDING' AND next_attempt_at < now() + interval '10 seconds')")
                        == 0);
    }

    @Test
    void aPaymentIsDeliveredSignedToEveryClientAndVerifiesWithTheReferenceLibrary() throws Exception {
        String no = order(100);
        long sent = System.nanoTime();
        assertEquals(200, pay(no, 100).statusCode());
        String id = eventId(no, "order.paid");

        Received a = awaitOne("/a", id);
        Received b = awaitOne("/b", id);
        java.time.Instant committed = (java.time.Instant)
                Db.row("SELECT created_at FROM events WHERE event_id = ?", id).get("created_at");
        long lag = Duration.between(committed, a.at()).toMillis();
        System.out.println("[measure] webhook delivered " + lag + " ms after the event was written, "
                + (System.nanoTime() - sent) / 1_000_000 + " ms after the notification was sent");
        assertTrue(lag < 1_000, "the first attempt starts within 1 s of the commit: " + lag + " ms");
        assertEquals("application/json", a.header("content-type"));
        assertEquals(id, a.header("webhook-id"));
        long timestamp = Long.parseLong(a.header("webhook-timestamp"));
        assertTrue(Math.abs(timestamp - clock.instant().getEpochSecond()) < 30);
        // one signature per secret during a rotation; each verifies with the reference verifier
        assertEquals(2, a.header("webhook-signature").split(" ").length);
        for (String secret : List.of(TestChannels.HOOK_A_WHSEC_1, TestChannels.HOOK_A_WHSEC_2)) {
            assertDoesNotThrow(() -> new Webhook(secret).verify(a.bodyText(), headers(a)));
        }
        assertDoesNotThrow(() -> new Webhook(TestChannels.HOOK_B_WHSEC).verify(b.bodyText(), headers(b)));
        // and a wrong secret does not
        org.junit.jupiter.api.Assertions.assertThrows(
                Exception.class, () -> new Webhook(TestChannels.HOOK_B_WHSEC).verify(a.bodyText(), headers(a)));

        JsonPath event = new JsonPath(a.bodyText());
        assertEquals(id, event.getString("id"));
        assertEquals("order.paid", event.getString("type"));
        assertEquals(no, event.getString("data.order.outTradeNo"));
        assertEquals("SUCCESS", event.getString("data.order.state"));
        assertEquals(a.bodyText(), b.bodyText(), "every client gets the same bytes");
        await().atMost(PATIENCE).until(() -> deliveryStates(id).equals(List.of("SUCCEEDED", "SUCCEEDED")));
    }

    @Test
    void aFailedAttemptIsRetriedWithTheSameIdAndBodyThenSucceeds() throws Exception {
        receiver.script("/a", Answer.status(500));
        String no = order(100);
        pay(no, 100);
        String id = eventId(no, "order.paid");
        List<Received> tries = awaitCount("/a", id, 2);
        assertEquals(tries.get(0).bodyText(), tries.get(1).bodyText());
        assertEquals(tries.get(0).header("webhook-id"), tries.get(1).header("webhook-id"));
        long gap = Duration.between(tries.get(0).at(), tries.get(1).at()).toMillis();
        assertTrue(gap >= 700, "the first retry waits the first step (1 s ±20 %), waited " + gap + " ms");
        await().atMost(PATIENCE)
                .until(() -> delivery(id, TestChannels.HOOK_A).get("state").equals("SUCCEEDED"));
        assertEquals(2, ((Number) delivery(id, TestChannels.HOOK_A).get("attempts")).intValue());
        assertEquals(
                2,
                Db.count(
                        "SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id"
                                + " JOIN events e ON e.id = d.event_id WHERE e.event_id = ? AND d.client_id = ?",
                        id,
                        TestChannels.HOOK_A));
    }

    @Test
    void retryAfterIsHonouredAndTheLastFailureIsFinal() throws Exception {
        receiver.script(
                "/b",
                new Answer(503, Duration.ZERO, Map.of("Retry-After", "2")),
                Answer.status(500),
                Answer.status(500));
        String no = order(100);
        pay(no, 100);
        String id = eventId(no, "order.paid");
        List<Received> tries = awaitCount("/b", id, 3);
        long gap = Duration.between(tries.get(0).at(), tries.get(1).at()).toMillis();
        assertTrue(gap >= 1_900, "Retry-After: 2 is longer than the 1 s step (±20 %): waited " + gap + " ms");
        // the schedule has two steps: the third attempt is the last
        await().atMost(PATIENCE)
                .until(() -> delivery(id, TestChannels.HOOK_B).get("state").equals("FAILED"));
        Map<String, Object> d = delivery(id, TestChannels.HOOK_B);
        assertEquals(3, ((Number) d.get("attempts")).intValue());
        assertEquals(500, d.get("last_status"));
    }

    @Test
    void aGoneWebhookIsDisabledUntilEnabledAndItsOtherDeliveriesWait() throws Exception {
        receiver.script("/b", Answer.status(410));
        String first = order(100);
        pay(first, 100);
        String gone = eventId(first, "order.paid");
        awaitOne("/b", gone);
        await().atMost(PATIENCE)
                .until(() -> delivery(gone, TestChannels.HOOK_B).get("state").equals("FAILED"));
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM webhook_endpoints WHERE client_id = ? AND disabled_at IS NOT NULL",
                        TestChannels.HOOK_B));

        String second = order(100);
        pay(second, 100);
        String waiting = eventId(second, "order.paid");
        // client a still gets it; client b's delivery waits, PENDING, without spending attempts
        awaitOne("/a", waiting);
        assertEquals(0, receiver.of("/b", waiting).size());
        Map<String, Object> d = delivery(waiting, TestChannels.HOOK_B);
        assertEquals("PENDING", d.get("state"));
        assertEquals(0, ((Number) d.get("attempts")).intValue());

        Db.update("UPDATE webhook_endpoints SET disabled_at = NULL WHERE client_id = ?", TestChannels.HOOK_B);
        worker.wake();
        awaitOne("/b", waiting);
        // the one that got the 410 stays FAILED
        assertEquals("FAILED", delivery(gone, TestChannels.HOOK_B).get("state"));
    }

    @Test
    void withinOneOrderADeliveryWaitsForTheEarlierOneWhileAnotherOrderPasses() throws Exception {
        receiver.script("/b", Answer.status(500));
        String no = order(100);
        pay(no, 100);
        String paid = eventId(no, "order.paid");
        // another payment with another transaction id: DUPLICATE_PAYMENT, an order.attention event
        assertEquals(200, pay(no, 100, "4299" + no).statusCode());
        String attention = eventId(no, "order.attention");
        String other = order(100);
        pay(other, 100);
        String otherPaid = eventId(other, "order.paid");

        Received otherArrived = awaitOne("/b", otherPaid);
        List<Received> paidTries = awaitCount("/b", paid, 2);
        Received attentionArrived = awaitOne("/b", attention);
        assertTrue(
                !attentionArrived.at().isBefore(paidTries.get(1).at()),
                "the order's second event waits until its first succeeded");
        assertTrue(otherArrived.at().isBefore(paidTries.get(1).at()), "another order's event does not wait for it");
    }

    @Test
    void atMostFourAttemptsPerClientAreInFlightInOneReplica() throws Exception {
        worker.stop();
        DeliveryWorker w = replica();
        Duration hang = Duration.ofMillis(2500);
        // more hanging answers than this test's 8 attempts: a leftover delivery of another test may take some
        for (int i = 0; i < 12; i++) {
            receiver.script("/a", new Answer(204, hang, Map.of()));
        }
        w.start();
        // three attempts of client A hang at the receiver
        var ids = new ArrayList<String>();
        for (int i = 0; i < 3; i++) {
            String no = order(100);
            pay(no, 100);
            ids.add(eventId(no, "order.paid"));
            awaitOne("/a", ids.get(i));
        }
        // five more become due at once while the three hang: one claim must not give A more than one of them
        w.stop();
        for (int i = 0; i < 5; i++) {
            String no = order(100);
            pay(no, 100);
            ids.add(eventId(no, "order.paid"));
        }
        w.start();
        List<Instant> arrivals = new ArrayList<>();
        for (String id : ids) {
            arrivals.add(awaitOne("/a", id).at());
        }

        // each of these attempts hangs exactly `hang` at the receiver: count the attempts open at each arrival
        for (Instant t : arrivals) {
            long open = arrivals.stream()
                    .filter(a -> !a.isAfter(t) && a.plus(hang).isAfter(t))
                    .count();
            assertTrue(open <= DeliveryWorker.PER_CLIENT, open + " attempts of one client in flight at " + t);
        }
    }

    @Test
    void aHangingReceiverDoesNotDelayProviderAcks() throws Exception {
        for (int i = 0; i < 6; i++) {
            receiver.script("/a", new Answer(204, Duration.ofSeconds(6), Map.of()));
        }
        for (int i = 0; i < 6; i++) {
            String no = order(100);
            long started = System.nanoTime();
            assertEquals(200, pay(no, 100).statusCode());
            long ms = (System.nanoTime() - started) / 1_000_000;
            assertTrue(ms < 1_000, "the ack took " + ms + " ms while the merchant hangs");
        }
    }

    @Test
    void theEventExistsOnlyIfItsChangeCommitted() throws Exception {
        String no = order(100);
        ArmedIntakeFaults.arm(no);
        try {
            assertEquals(503, pay(no, 100).statusCode());
        } finally {
            ArmedIntakeFaults.disarm(no);
        }
        assertEquals(0, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ?", no));
        assertEquals(200, pay(no, 100).statusCode());
        assertEquals(1, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ?", no));
    }

    @Test
    void twoReplicasDeliverEachEventOnce() throws Exception {
        worker.stop();
        DeliveryWorker one = replica();
        DeliveryWorker two = replica();
        one.start();
        two.start();
        var ids = new ArrayList<String>();
        for (int i = 0; i < 8; i++) {
            String no = order(100);
            pay(no, 100);
            ids.add(eventId(no, "order.paid"));
        }
        for (String id : ids) {
            awaitOne("/a", id);
            awaitOne("/b", id);
        }
        await().atMost(PATIENCE)
                .until(() -> ids.stream().allMatch(id -> deliveryStates(id).equals(List.of("SUCCEEDED", "SUCCEEDED"))));
        for (String id : ids) {
            assertEquals(1, receiver.of("/a", id).size(), "one delivery of " + id);
            assertEquals(1, receiver.of("/b", id).size(), "one delivery of " + id);
        }
    }

    @Test
    void aReplicaKilledInTheMiddleOfADeliveryLosesNothing() throws Exception {
        worker.stop();
        DeliveryWorker doomed = replica();
        doomed.start();
        receiver.script("/a", new Answer(204, Duration.ofSeconds(2), Map.of()));
        String no = order(100);
        pay(no, 100);
        String id = eventId(no, "order.paid");
        awaitOne("/a", id);
        // kill -9: the attempt is in flight and its result is never recorded
        doomed.crash();
        await().atMost(PATIENCE).until(() -> delivery(id, TestChannels.HOOK_A).get("lease_until") != null);
        assertEquals("PENDING", delivery(id, TestChannels.HOOK_A).get("state"));

        DeliveryWorker survivor = replica();
        survivor.start();
        // after the lease (3 s) the survivor delivers it again, with the same webhook-id: at least once
        await().atMost(PATIENCE)
                .until(() -> delivery(id, TestChannels.HOOK_A).get("state").equals("SUCCEEDED"));
        assertEquals(2, receiver.of("/a", id).size());
        assertEquals(
                receiver.of("/a", id).get(0).bodyText(),
                receiver.of("/a", id).get(1).bodyText());
    }

    // ---- helpers ----

    DeliveryWorker replica() {
        DeliveryWorker w = new DeliveryWorker(transactions, registry, clock, metrics, config);
        replicas.add(w);
        return w;
    }

    static String order(long amount) {
        String no = "WH" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder().channel(TestChannels.WX_HOOK).outTradeNo(no).amount(amount).insert();
        return no;
    }

    HttpResponse<String> pay(String no, long amount) throws Exception {
        return pay(no, amount, "4200" + no);
    }

    HttpResponse<String> pay(String no, long amount, String txn) throws Exception {
        var fields = WechatV2Fixtures.paid(no, txn, amount);
        fields.put("appid", TestChannels.WX_HOOK_APPID);
        fields.put("mch_id", TestChannels.WX_HOOK_MCH);
        byte[] body = WechatV2Fixtures.body(WechatV2Fixtures.signed(fields, TestChannels.WX_HOOK_KEY, "MD5"));
        return http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://localhost:" + RestAssured.port + "/notify/wechatpay/" + TestChannels.WX_HOOK))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String eventId(String no, String type) {
        return (String)
                Db.row("SELECT event_id FROM events WHERE out_trade_no = ? AND type = ? ORDER BY id LIMIT 1", no, type)
                        .get("event_id");
    }

    static Map<String, Object> delivery(String eventId, String client) {
        return Db.row(
                "SELECT d.state, d.attempts, d.last_status, d.last_error, d.lease_until FROM deliveries d"
                        + " JOIN events e ON e.id = d.event_id WHERE e.event_id = ? AND d.client_id = ?",
                eventId,
                client);
    }

    static List<String> deliveryStates(String eventId) {
        return Db.rows(
                        "SELECT d.state FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.event_id = ?"
                                + " ORDER BY d.client_id",
                        eventId)
                .stream()
                .map(r -> (String) r.get("state"))
                .toList();
    }

    Received awaitOne(String path, String eventId) {
        return awaitCount(path, eventId, 1).get(0);
    }

    List<Received> awaitCount(String path, String eventId, int n) {
        return await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> receiver.of(path, eventId), l -> l.size() >= n);
    }

    static Map<String, List<String>> headers(Received r) {
        return Map.of(
                "webhook-id", List.of(r.header("webhook-id")),
                "webhook-timestamp", List.of(r.header("webhook-timestamp")),
                "webhook-signature", List.of(r.header("webhook-signature")));
    }
}
