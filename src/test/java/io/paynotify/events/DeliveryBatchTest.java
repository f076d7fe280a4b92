package io.paynotify.events;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Transactions;
import io.paynotify.testing.Db;
import io.paynotify.testing.HookEvents;
import io.paynotify.testing.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deliveries claimed, sent and recorded in batches (docs/api.md "Webhooks"): one statement claims many due
 * deliveries under one lease, one statement records many attempts, each only while its own lease holds (a lapsed
 * lease in the middle of a batch records nothing for that delivery), counted in PostgreSQL; and end to end over real
 * HTTP to the test receiver on 127.0.0.1, many deliveries take far fewer claim and record statements than
 * deliveries, each delivered once. The tests' lease is 3 s (TestChannels).
 */
@QuarkusTest
class DeliveryBatchTest {

    static final Duration PATIENCE = Duration.ofSeconds(30);

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

    WebhookReceiver receiver;
    final List<DeliveryWorker> replicas = new ArrayList<>();
    final List<String> events = new ArrayList<>();

    @BeforeEach
    void receiver() {
        receiver = WebhookReceiver.get();
        receiver.reset();
    }

    @AfterEach
    void restore() {
        replicas.forEach(DeliveryWorker::stop);
        // nothing of this class stays leased or due for the next test
        for (String id : events) {
            Db.update(
                    "UPDATE deliveries SET state = 'FAILED', lease_until = NULL, lease_token = NULL"
                            + " WHERE state = 'PENDING' AND event_id = (SELECT id FROM events WHERE event_id = ?)",
                    id);
        }
        receiver.reset();
        worker.start();
    }

    @Test
    void oneStatementClaimsManyAndOneRecordsManyEachUnderItsOwnLease() {
        worker.stop();
        for (int i = 0; i < 20; i++) {
            events.add(HookEvents.paidOnHookChannel());
        }
        List<Long> mine = Db.rows(
                        "SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id"
                                + " WHERE e.event_id = ANY (?) ORDER BY d.id",
                        (Object) events.toArray(new String[0]))
                .stream()
                .map(r -> ((Number) r.get("id")).longValue())
                .toList();
        assertEquals(40, mine.size(), "two clients on the hook channel: two deliveries per event");

        UUID lease = UUID.randomUUID();
        List<Deliveries.Claimed> claimed = transactions.inTransaction(
                Transactions.Retry.NONE, c -> Deliveries.claim(c, Deliveries.BATCH, 60, lease, List.of()));
        Set<Long> claimedIds = new HashSet<>();
        claimed.forEach(d -> claimedIds.add(d.deliveryId()));
        giveBackOthers(claimed, lease);
        assertTrue(claimedIds.containsAll(mine), "one claim statement took every due delivery of the 20 events");
        assertEquals(1, Db.count("SELECT count(DISTINCT lease_token) FROM deliveries WHERE id = ANY (?)", (Object)
                mine.toArray(new Long[0])));

        // the lease of one delivery in the middle lapses and another replica claims it: its lease is not ours
        long lapsed = mine.get(mine.size() / 2);
        Db.update(
                "UPDATE deliveries SET lease_token = ?, lease_until = now() + interval '1 minute' WHERE id = ?",
                UUID.randomUUID(),
                lapsed);

        Instant at = clock.instant().truncatedTo(ChronoUnit.MICROS);
        var outcomes = new ArrayList<Deliveries.Outcome>();
        for (int i = 0; i < mine.size(); i++) {
            long id = mine.get(i);
            outcomes.add(
                    switch (i % 3) {
                        case 0 -> new Deliveries.Outcome(id, lease, Deliveries.Next.SUCCEEDED, at, 204, null, 7, 0);
                        case 1 -> new Deliveries.Outcome(id, lease, Deliveries.Next.PENDING, at, 500, null, 8, 60_000);
                        default -> new Deliveries.Outcome(id, lease, Deliveries.Next.FAILED, at, null, "timeout", 9, 0);
                    });
        }
        Set<Long> recorded = transactions.inTransaction(Transactions.Retry.NONE, c -> Deliveries.record(c, outcomes));

        var expected = new HashSet<>(mine);
        expected.remove(lapsed);
        assertEquals(expected, recorded, "every delivery whose lease held, and only those");
        Object[] ids = mine.toArray(new Long[0]);
        assertEquals(
                39,
                Db.count("SELECT count(*) FROM delivery_attempts WHERE delivery_id = ANY (?)", (Object) ids),
                "one attempt row per recorded delivery, none for the lapsed one");
        assertEquals(0, Db.count("SELECT count(*) FROM delivery_attempts WHERE delivery_id = ?", lapsed), "lapsed");
        Map<String, Object> l = Db.row("SELECT state, attempts, last_attempt_at FROM deliveries WHERE id = ?", lapsed);
        assertEquals("PENDING", l.get("state"));
        assertEquals(0, ((Number) l.get("attempts")).intValue());
        assertEquals(null, l.get("last_attempt_at"));

        for (int i = 0; i < mine.size(); i++) {
            long id = mine.get(i);
            if (id == lapsed) {
                continue;
            }
            Map<String, Object> d = Db.row(
                    "SELECT state, attempts, last_status, last_error, last_attempt_at, lease_token,"
                            + " extract(epoch FROM next_attempt_at - now()) AS due_in FROM deliveries WHERE id = ?",
                    id);
            Map<String, Object> a =
                    Db.row("SELECT at, status, error, duration_ms FROM delivery_attempts WHERE delivery_id = ?", id);
            assertEquals(1, ((Number) d.get("attempts")).intValue());
            assertEquals(null, d.get("lease_token"), "the lease is dropped with the record");
            assertEquals(at, d.get("last_attempt_at"));
            assertEquals(at, a.get("at"));
            switch (i % 3) {
                case 0 -> {
                    assertEquals("SUCCEEDED", d.get("state"));
                    assertEquals(204, ((Number) a.get("status")).intValue());
                    assertEquals(7, ((Number) a.get("duration_ms")).intValue());
                }
                case 1 -> {
                    assertEquals("PENDING", d.get("state"));
                    assertEquals(500, ((Number) d.get("last_status")).intValue());
                    double dueIn = ((Number) d.get("due_in")).doubleValue();
                    assertTrue(dueIn > 50 && dueIn <= 60, "the retry is due in " + dueIn + " s");
                }
                default -> {
                    assertEquals("FAILED", d.get("state"));
                    assertEquals("timeout", d.get("last_error"));
                    assertEquals("timeout", a.get("error"));
                    assertEquals(null, a.get("status"));
                }
            }
        }
    }

    @Test
    void claimedDeliveriesAreGivenBackOnlyUnderTheirOwnLease() {
        worker.stop();
        for (int i = 0; i < 3; i++) {
            events.add(HookEvents.paidOnHookChannel());
        }
        UUID lease = UUID.randomUUID();
        List<Deliveries.Claimed> claimed = transactions.inTransaction(
                Transactions.Retry.NONE, c -> Deliveries.claim(c, Deliveries.BATCH, 60, lease, List.of()));
        giveBackOthers(claimed, lease);
        List<Long> mine = claimed.stream()
                .filter(d -> events.contains(d.eventId()))
                .map(Deliveries.Claimed::deliveryId)
                .toList();
        assertEquals(6, mine.size());
        UUID other = UUID.randomUUID();
        int released = transactions.inTransaction(
                Transactions.Retry.NONE,
                c -> Deliveries.release(c, mine, List.of(lease, lease, lease, lease, lease, other)));
        assertEquals(5, released, "the one given with another lease stays leased");
        assertEquals(1, Db.count("SELECT count(*) FROM deliveries WHERE id = ANY (?) AND lease_until > now()", (Object)
                mine.toArray(new Long[0])));
    }

    /** Deliveries other test classes left due, claimed along with this test's: due again at once. */
    void giveBackOthers(List<Deliveries.Claimed> claimed, UUID lease) {
        List<Long> others = claimed.stream()
                .filter(d -> !events.contains(d.eventId()))
                .map(Deliveries.Claimed::deliveryId)
                .toList();
        if (!others.isEmpty()) {
            transactions.inTransaction(
                    Transactions.Retry.NONE,
                    c -> Deliveries.release(
                            c, others, others.stream().map(id -> lease).toList()));
        }
    }

    @Test
    void manyDeliveriesOverHttpTakeFewClaimAndRecordStatements() {
        worker.stop();
        DeliveryWorker w = new DeliveryWorker(transactions, registry, clock, metrics, config);
        replicas.add(w);
        for (int i = 0; i < 30; i++) {
            events.add(HookEvents.paidOnHookChannel());
        }
        w.start();
        for (String id : events) {
            await().atMost(PATIENCE)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !receiver.of("/a", id).isEmpty());
            await().atMost(PATIENCE)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !receiver.of("/b", id).isEmpty());
        }
        Object ids = events.toArray(new String[0]);
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> Db.count(
                                "SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id"
                                        + " WHERE e.event_id = ANY (?) AND d.state = 'SUCCEEDED' AND d.attempts = 1",
                                ids)
                        == 60);
        assertEquals(
                60,
                Db.count(
                        "SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id"
                                + " JOIN events e ON e.id = d.event_id WHERE e.event_id = ANY (?)",
                        ids),
                "one attempt each");
        for (String id : events) {
            assertEquals(1, receiver.of("/a", id).size(), "delivered once: " + id);
            assertEquals(1, receiver.of("/b", id).size(), "delivered once: " + id);
        }
        // one claim took up to 32 per client, and one record statement many attempts (the old loop: one claim per
        // 4 deliveries of a client, one transaction per attempt)
        long claims = w.claimStatements();
        long records = w.recordStatements();
        System.out.println(
                "[measure] 60 deliveries: " + claims + " claim statements, " + records + " record statements");
        assertTrue(claims < 60 / DeliveryWorker.PER_CLIENT, claims + " claim statements for 60 deliveries");
        assertTrue(records < 60, records + " record statements for 60 deliveries");
    }
}
