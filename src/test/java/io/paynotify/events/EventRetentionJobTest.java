package io.paynotify.events;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Events;
import io.paynotify.testing.Db;
import io.paynotify.testing.OrderBuilder;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Retention of events, deliveries and attempts (docs/api.md "Merchant events"). The job runs with an explicit cutoff five days ago
 * on rows inserted ten days old (the scheduled run, thirty days back, never touches them); statement-level
 * triggers record how many rows each DELETE statement removed from each table, the database's own account.
 */
@QuarkusTest
class EventRetentionJobTest {

    static final Duration OLD = Duration.ofDays(10);
    static final Duration RECENT = Duration.ofDays(1);

    @Inject
    EventRetentionJob job;

    @Inject
    ChannelRegistry registry;

    String hookAUrl() {
        return url(TestChannels.HOOK_A);
    }

    /** The client's configured webhook URL, as the delivery rows spell it. */
    String url(String client) {
        return registry.client(client).orElseThrow().webhook().url().toString();
    }

    static Instant cutoff() {
        return Instant.now().minus(Duration.ofDays(5));
    }

    static String age(Duration d) {
        return d.toSeconds() + " seconds";
    }

    /** {@code n} events of that order, that old, each with one SUCCEEDED delivery to hook-a and one attempt. */
    void seedFinished(OrderBuilder.Order order, int n, Duration old) {
        Db.update(
                "WITH ev AS (INSERT INTO events (event_id, type, channel, out_trade_no, order_id, body, created_at)"
                        + " SELECT 'evt_' || substr(md5(random()::text || g::text), 1, 26), 'order.paid', ?, ?, ?,"
                        + " convert_to('{}', 'UTF8'), now() - ?::interval FROM generate_series(1, ?) g RETURNING id),"
                        + " dl AS (INSERT INTO deliveries (event_id, client_id, webhook_url, order_id, state, attempts,"
                        + " next_attempt_at, created_at) SELECT id, ?, ?, ?, 'SUCCEEDED', 1, now() - ?::interval,"
                        + " now() - ?::interval FROM ev RETURNING id)"
                        + " INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)"
                        + " SELECT id, now() - ?::interval, 204, NULL, 5 FROM dl",
                order.channel(),
                order.outTradeNo(),
                order.id(),
                age(old),
                n,
                TestChannels.HOOK_A,
                hookAUrl(),
                order.id(),
                age(old),
                age(old),
                age(old));
    }

    static long event(OrderBuilder.Order order, Duration old) {
        return ((Number) Db.row(
                                "INSERT INTO events (event_id, type, channel, out_trade_no, order_id, body, created_at)"
                                        + " VALUES ('evt_' || substr(md5(random()::text), 1, 26), 'order.paid', ?, ?, ?,"
                                        + " convert_to('{}', 'UTF8'), now() - ?::interval) RETURNING id",
                                order.channel(),
                                order.outTradeNo(),
                                order.id(),
                                age(old))
                        .get("id"))
                .longValue();
    }

    /** A delivery of that event, as old as given; PENDING ones are due only tomorrow, so the worker leaves them. */
    static long delivery(
            long event, long order, String client, String url, String state, Duration old, boolean inFlight) {
        long id = ((Number) Db.row(
                                "INSERT INTO deliveries (event_id, client_id, webhook_url, order_id, state,"
                                        + " next_attempt_at, lease_until, created_at) VALUES (?, ?, ?, ?, ?,"
                                        + " now() + interval '1 day', CASE WHEN ? THEN now() + interval '10 minutes' END,"
                                        + " now() - ?::interval) RETURNING id",
                                event,
                                client,
                                url,
                                order,
                                state,
                                inFlight,
                                age(old))
                        .get("id"))
                .longValue();
        Db.update(
                "INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)"
                        + " VALUES (?, now() - ?::interval, NULL, 'timeout', 10000)",
                id,
                age(old));
        return id;
    }

    /** Records, per DELETE statement, the rows it removed from each table, and every delivery deleted. */
    static void installProbe() {
        Db.update("CREATE TABLE IF NOT EXISTS retention_probe (id serial PRIMARY KEY, tbl text, deleted int)");
        Db.update("CREATE TABLE IF NOT EXISTS retention_gone (id bigint, state text, last_error text)");
        Db.update("TRUNCATE retention_probe, retention_gone");
        Db.update("CREATE OR REPLACE FUNCTION retention_probe_fn() RETURNS trigger LANGUAGE plpgsql AS $$"
                + " BEGIN INSERT INTO retention_probe (tbl, deleted) SELECT TG_TABLE_NAME, count(*) FROM gone;"
                + " IF TG_TABLE_NAME = 'deliveries' THEN"
                + " INSERT INTO retention_gone SELECT id, state, last_error FROM gone; END IF;"
                + " RETURN NULL; END $$");
        for (String table : List.of("events", "deliveries", "delivery_attempts")) {
            Db.update("CREATE TRIGGER retention_probe_trg AFTER DELETE ON " + table
                    + " REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION retention_probe_fn()");
        }
    }

    /** The rows each statement deleted from that table (statements that deleted nothing left out). */
    static List<Long> perStatement(String table) {
        var out = new ArrayList<Long>();
        Db.rows("SELECT deleted FROM retention_probe WHERE tbl = ? AND deleted > 0 ORDER BY id", table)
                .forEach(r -> out.add(((Number) r.get("deleted")).longValue()));
        return out;
    }

    static void removeProbe() {
        for (String table : List.of("events", "deliveries", "delivery_attempts")) {
            Db.update("DROP TRIGGER IF EXISTS retention_probe_trg ON " + table);
        }
        Db.update("DROP TABLE IF EXISTS retention_probe, retention_gone");
    }

    static long sum(List<? extends Number> counts) {
        return counts.stream().mapToLong(Number::longValue).sum();
    }

    static void assertBatches(EventRetentionJob.Run r) {
        r.failed().forEach(n -> assertTrue(n <= Deliveries.BATCH, "failed in one statement: " + n));
        r.attempts().forEach(n -> assertTrue(n <= Deliveries.DELETE_BATCH, "attempts in one statement: " + n));
        r.deliveries().forEach(n -> assertTrue(n <= Deliveries.DELETE_BATCH, "deliveries in one statement: " + n));
        r.events().forEach(n -> assertTrue(n <= Events.BATCH, "events in one statement: " + n));
        for (String table : List.of("events", "deliveries", "delivery_attempts")) {
            List<Long> counts = perStatement(table);
            assertTrue(counts.stream().allMatch(n -> n <= 1000), table + " rows per DELETE statement: " + counts);
        }
    }

    static long remaining(String sql, long order) {
        return Db.count(sql, order);
    }

    @Test
    void expiresFailsAndDeletesInStatementsOfAtMostAThousandRows() {
        OrderBuilder.Order order = anOrder().channel(TestChannels.WX_HOOK).insert();
        seedFinished(order, 1200, OLD);
        String url = hookAUrl();
        // old, PENDING, not in flight: FAILED expired, then deleted with its event
        long expiredEvent = event(order, OLD);
        long expired = delivery(expiredEvent, order.id(), TestChannels.HOOK_A, url, "PENDING", OLD, false);
        // recent, PENDING to a URL the client no longer has: FAILED unsubscribed; the recent event stays
        long unsubscribedEvent = event(order, RECENT);
        long unsubscribed = delivery(
                unsubscribedEvent,
                order.id(),
                TestChannels.HOOK_A,
                "http://unsubscribed.invalid/hook",
                "PENDING",
                RECENT,
                false);
        // old, PENDING with an attempt in flight: left alone, and its event kept
        long inFlightEvent = event(order, OLD);
        long inFlight = delivery(inFlightEvent, order.id(), TestChannels.HOOK_A, url, "PENDING", OLD, true);
        // old, one delivery SUCCEEDED and one PENDING in flight: the whole event kept, attempts included
        long mixedEvent = event(order, OLD);
        long mixedDone = delivery(mixedEvent, order.id(), TestChannels.HOOK_A, url, "SUCCEEDED", OLD, false);
        delivery(mixedEvent, order.id(), TestChannels.HOOK_B, url(TestChannels.HOOK_B), "PENDING", OLD, true);

        installProbe();
        EventRetentionJob.Run r;
        try {
            r = job.run(cutoff());
            assertBatches(r);
            assertEquals(1201, sum(perStatement("events")), "the 1200 finished events and the expired one");
            assertEquals(1201, sum(perStatement("deliveries")));
            assertEquals(1201, sum(perStatement("delivery_attempts")));
            Map<String, Object> gone = Db.row("SELECT state, last_error FROM retention_gone WHERE id = ?", expired);
            assertEquals("FAILED", gone.get("state"), "an expired delivery is failed before it goes");
            assertEquals("expired", gone.get("last_error"));
        } finally {
            removeProbe();
        }
        assertEquals(1201, sum(r.events()));
        assertTrue(r.events().size() >= 3, "more than one batch, then an empty statement: " + r.events());
        assertEquals(0, r.events().get(r.events().size() - 1));
        assertTrue(sum(r.failed()) >= 1, "this run failed the expired delivery: " + r.failed());

        Map<String, Object> u = Db.row("SELECT state, last_error FROM deliveries WHERE id = ?", unsubscribed);
        assertEquals("FAILED", u.get("state"));
        assertEquals("unsubscribed", u.get("last_error"));
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM deliveries WHERE id = ?", inFlight).get("state"));
        assertEquals(1, Db.count("SELECT count(*) FROM delivery_attempts WHERE delivery_id = ?", mixedDone));
        assertEquals(
                List.of(unsubscribedEvent, inFlightEvent, mixedEvent),
                Db.rows("SELECT id FROM events WHERE order_id = ? ORDER BY id", order.id()).stream()
                        .map(row -> ((Number) row.get("id")).longValue())
                        .toList(),
                "only the recent event and the events with a PENDING delivery are left");
        assertEquals(
                4, remaining("SELECT count(*) FROM deliveries WHERE order_id = ?", order.id()), "their deliveries");
        assertEquals(0, Db.count("SELECT count(*) FROM events WHERE id = ?", expiredEvent));

        // a second run finds nothing more to do
        EventRetentionJob.Run again = job.run(cutoff());
        assertEquals(0, sum(again.events()) + sum(again.deliveries()) + sum(again.attempts()));

        Db.update("DELETE FROM events WHERE order_id = ?", order.id());
    }

    @Test
    void twoReplicasRunningAtTheSameMomentDeleteEveryRowOnceAndNeverWait() throws Exception {
        OrderBuilder.Order order = anOrder().channel(TestChannels.WX_HOOK).insert();
        seedFinished(order, 2500, OLD);
        installProbe();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long total = 0;
        try {
            CountDownLatch go = new CountDownLatch(1);
            var futures = new ArrayList<Future<EventRetentionJob.Run>>();
            for (int i = 0; i < 2; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return job.run(cutoff());
                }));
            }
            go.countDown();
            for (Future<EventRetentionJob.Run> f : futures) {
                EventRetentionJob.Run r = f.get(120, TimeUnit.SECONDS);
                assertBatches(r);
                total += sum(r.events());
            }
            assertEquals(2500, sum(perStatement("events")), "every event deleted exactly once");
            assertEquals(2500, sum(perStatement("deliveries")));
            assertEquals(2500, sum(perStatement("delivery_attempts")));
        } finally {
            pool.shutdownNow();
            removeProbe();
        }
        assertEquals(2500, total, "no event counted twice");
        assertEquals(0, Db.count("SELECT count(*) FROM events WHERE order_id = ?", order.id()));
        assertEquals(0, Db.count("SELECT count(*) FROM deliveries WHERE order_id = ?", order.id()));
    }
}
