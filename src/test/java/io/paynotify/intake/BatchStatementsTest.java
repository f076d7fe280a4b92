package io.paynotify.intake;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Reason;
import io.paynotify.persistence.Orders;
import io.paynotify.testing.ArmedIntakeFaults;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The statements of a batch (issue 24): a batch whose members name no refund is decided in memory and written with
 * one statement per table — its notification rows, its orders, its events — and must come out exactly as if its
 * members had been written one after the other: the per-order cap counting the batch's own members, a body stored
 * once per order and day (an older row's, else the batch's first), the rows and events in arrival order, the version
 * of each order counting its changes. Counted in PostgreSQL. {@link BatchCommitTest} holds the failure rules.
 */
@QuarkusTest
class BatchStatementsTest {

    @Inject
    NotificationIntake intake;

    private final Map<String, AtomicInteger> inserted = new ConcurrentHashMap<>();

    @AfterEach
    void release() {
        ArmedIntakeFaults.releaseBatches();
        for (String no : inserted.keySet()) {
            ArmedIntakeFaults.disarm(no);
        }
    }

    @Test
    void paymentsDuplicatesAndUnknownOrdersOfOneBatchAreWrittenInOneRun() throws Exception {
        int writer = 0;
        List<String> nos = BatchCommitTest.pendingOrdersOn(writer, 3);
        String unknown = BatchCommitTest.ordersOn(writer, 1).get(0);
        for (String no : nos) {
            count(no);
        }
        count(unknown);
        List<VerifiedNotification> notices = List.of(
                paid(nos.get(0), "T" + nos.get(0), 100, "a"),
                paid(nos.get(1), "T" + nos.get(1), 100, "b"),
                paid(nos.get(0), "T" + nos.get(0), 100, "a"), // a duplicate of the first, same bytes
                paid(unknown, "T" + unknown, 100, "u"),
                paid(nos.get(2), "T" + nos.get(2), 999, "c"), // amount mismatch: flagged, not paid
                paid(nos.get(1), "T" + nos.get(1), 100, "b2"), // a duplicate with other bytes
                close(nos.get(2))); // closes the flagged order

        List<IntakeOutcome> outcomes = inOneBatch(writer, notices);

        for (var e : inserted.entrySet()) {
            long members = notices.stream()
                    .filter(n -> n.outTradeNo().equals(e.getKey()))
                    .count();
            assertEquals(members, e.getValue().get(), "no rerun with savepoints: the batch ran once, " + e.getKey());
        }
        assertEquals(
                List.of(
                        "APPLIED",
                        "APPLIED",
                        "DUPLICATE",
                        "ANOMALY " + Reason.UNKNOWN_ORDER,
                        "ANOMALY " + Reason.AMOUNT_MISMATCH,
                        "DUPLICATE",
                        "APPLIED"),
                outcomes.stream().map(BatchStatementsTest::decided).toList());
        List<Long> ids = new ArrayList<>();
        for (IntakeOutcome o : outcomes) {
            assertTrue(o.recorded());
            ids.add(o.notificationId());
        }
        assertEquals(ids.stream().sorted().toList(), ids, "ids in arrival order");
        for (int i = 0; i < notices.size(); i++) {
            var row = Db.row(
                    "SELECT out_trade_no, outcome, raw_body IS NOT NULL AS holds, body_id FROM notifications"
                            + " WHERE id = ?",
                    ids.get(i));
            assertEquals(notices.get(i).outTradeNo(), row.get("out_trade_no"));
            assertEquals(i == 2 ? ids.get(0) : null, row.get("body_id"), "member " + i);
            assertEquals(row.get("body_id") == null, row.get("holds"));
        }

        var first = Db.row("SELECT state, transaction_id, version FROM orders WHERE out_trade_no = ?", nos.get(0));
        assertEquals("SUCCESS", first.get("state"));
        assertEquals("T" + nos.get(0), first.get("transaction_id"));
        assertEquals(1L, first.get("version"));
        var third = Db.row("SELECT state, attention, version FROM orders WHERE out_trade_no = ?", nos.get(2));
        assertEquals("CLOSED", third.get("state"));
        assertEquals(List.of("AMOUNT_MISMATCH"), third.get("attention"));
        assertEquals(2L, third.get("version"), "flagged, then closed: two changes");
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", unknown));

        List<Map<String, Object>> events = Db.rows(
                "SELECT out_trade_no, type, body FROM events WHERE out_trade_no IN (?, ?, ?) ORDER BY id",
                nos.get(0),
                nos.get(1),
                nos.get(2));
        assertEquals(
                List.of(
                        nos.get(0) + " order.paid",
                        nos.get(1) + " order.paid",
                        nos.get(2) + " order.attention",
                        nos.get(2) + " order.closed"),
                events.stream()
                        .map(e -> e.get("out_trade_no") + " " + e.get("type"))
                        .toList(),
                "one event per change, in arrival order");
        assertEquals(
                List.of(1, 1, 1, 1),
                List.of(
                        outcomes.get(0).events(),
                        outcomes.get(1).events(),
                        outcomes.get(4).events(),
                        outcomes.get(6).events()));
        String paidBody = new String((byte[]) events.get(0).get("body"), StandardCharsets.UTF_8);
        assertTrue(paidBody.contains("\"state\":\"SUCCESS\""), paidBody);
        assertTrue(paidBody.contains("\"transactionId\":\"T" + nos.get(0) + "\""), paidBody);
        String closedBody = new String((byte[]) events.get(3).get("body"), StandardCharsets.UTF_8);
        assertTrue(closedBody.contains("\"state\":\"CLOSED\""), closedBody);
        assertTrue(closedBody.contains("AMOUNT_MISMATCH"), closedBody);
    }

    @Test
    void aBatchOfDuplicatesAndFailuresCountsExactlyOnceInPostgres() throws Exception {
        int writer = 1 % NotificationIntake.WRITERS;
        List<String> nos = BatchCommitTest.pendingOrdersOn(writer, 3);
        String paidBefore = nos.get(0);
        String fresh = nos.get(1);
        String failing = nos.get(2);
        intake.handle(paid(paidBefore, "T" + paidBefore, 100, "p"), Source.NOTIFY, deadline());
        ArmedIntakeFaults.arm(failing);

        List<IntakeOutcome> outcomes = inOneBatch(
                writer,
                List.of(
                        paid(paidBefore, "T" + paidBefore, 100, "p"),
                        paid(fresh, "T" + fresh, 100, "f"),
                        paid(failing, "T" + failing, 100, "x"),
                        paid(paidBefore, "T" + paidBefore, 100, "p"),
                        paid(fresh, "T" + fresh, 100, "f")));

        assertEquals("DUPLICATE", decided(outcomes.get(0)));
        assertEquals("APPLIED", decided(outcomes.get(1)));
        assertFalse(outcomes.get(2).decided());
        assertInstanceOf(IllegalStateException.class, outcomes.get(2).cause());
        assertEquals("DUPLICATE", decided(outcomes.get(3)));
        assertEquals("DUPLICATE", decided(outcomes.get(4)));
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'",
                        paidBefore));
        assertEquals(
                2,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'DUPLICATE'",
                        paidBefore));
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE out_trade_no = ? AND raw_body IS NOT NULL",
                        paidBefore),
                "the duplicates point at the bytes the first delivery stored");
        assertEquals(
                1,
                Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", fresh));
        assertEquals(
                1,
                Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'DUPLICATE'", fresh));
        assertEquals(0, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", failing));
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", failing)
                        .get("state"));
        for (String no : List.of(paidBefore, fresh)) {
            assertEquals(1, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ?", no), no);
            assertEquals(
                    1L,
                    Db.row("SELECT version FROM orders WHERE out_trade_no = ?", no)
                            .get("version"),
                    no);
        }
        assertEquals(0, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ?", failing));
    }

    @Test
    void theCapCountsTheMembersOfTheBatchBeforeEach() throws Exception {
        int writer = 0;
        String no = BatchCommitTest.pendingOrdersOn(writer, 1).get(0);
        String other = BatchCommitTest.pendingOrdersOn(writer, 1).get(0);
        int before = NotificationIntake.MAX_RECORDED_PER_ORDER - 2;
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, outcome, reason, raw_body, received_at)"
                        + " SELECT ?, 'WECHATPAY_V2', ?, 'ANOMALY', 'AMOUNT_MISMATCH', '\\x00'::bytea, now()"
                        + " FROM generate_series(1, ?)",
                TestChannels.WX,
                no,
                before);
        count(no);

        List<IntakeOutcome> outcomes = inOneBatch(
                writer,
                List.of(
                        paid(no, "T" + no, 999, "1"),
                        paid(other, "T" + other, 100, "o"),
                        paid(no, "T" + no, 999, "2"),
                        paid(no, "T" + no, 100, "3"),
                        paid(no, "T" + no, 100, "4")));

        assertTrue(outcomes.get(0).recorded());
        assertTrue(outcomes.get(1).recorded(), "another order's count is its own");
        assertTrue(outcomes.get(2).recorded());
        for (int i : new int[] {3, 4}) {
            assertFalse(outcomes.get(i).recorded(), "past the cap: " + i);
            assertNull(outcomes.get(i).notificationId());
        }
        assertEquals("APPLIED", decided(outcomes.get(3)), "decided and applied though not recorded");
        assertEquals("DUPLICATE", decided(outcomes.get(4)));
        assertEquals(4, inserted.get(no).get(), "one run, without savepoints");
        assertEquals(
                NotificationIntake.MAX_RECORDED_PER_ORDER,
                Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", no));
        assertEquals(
                "SUCCESS",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));
        assertEquals(1, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ? AND type = 'order.paid'", no));
    }

    @Test
    void aBodyAnOlderRowOfTheDayHoldsIsNotStoredAgain() throws Exception {
        int writer = 1 % NotificationIntake.WRITERS;
        String no = BatchCommitTest.pendingOrdersOn(writer, 1).get(0);
        IntakeOutcome first = intake.handle(paid(no, "T" + no, 100, "same"), Source.NOTIFY, deadline());
        assertNotNull(first.notificationId());
        count(no);

        List<IntakeOutcome> outcomes = inOneBatch(
                writer,
                List.of(
                        paid(no, "T" + no, 100, "other"),
                        paid(no, "T" + no, 100, "same"),
                        paid(no, "T" + no, 100, "other")));

        assertEquals(3, inserted.get(no).get(), "one run, without savepoints");
        assertEquals(null, bodyOf(outcomes.get(0)), "new bytes are stored");
        assertEquals(first.notificationId(), bodyOf(outcomes.get(1)), "the older row's bytes");
        assertEquals(outcomes.get(0).notificationId(), bodyOf(outcomes.get(2)), "the batch's first row's bytes");
        assertEquals(
                2, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND raw_body IS NOT NULL", no));
    }

    private static Object bodyOf(IntakeOutcome o) {
        return Db.row("SELECT body_id FROM notifications WHERE id = ?", o.notificationId())
                .get("body_id");
    }

    /** Counts this order's passes through the seam after the notification insert (one per run of its batch). */
    private void count(String no) {
        var runs = new AtomicInteger();
        inserted.put(no, runs);
        ArmedIntakeFaults.arm(no, (c, n) -> runs.incrementAndGet());
    }

    /**
     * Holds the writer with a notification of its own, lines {@code notices} up behind it in this order, then lets
     * it go: they run as one batch. Each notice's outcome.
     */
    private List<IntakeOutcome> inOneBatch(int writer, List<VerifiedNotification> notices) throws Exception {
        for (VerifiedNotification n : notices) {
            assertEquals(writer, NotificationIntake.writerOf(Orders.key(n.channel(), n.outTradeNo())));
        }
        ArmedIntakeFaults.holdBatches();
        String plug = BatchCommitTest.ordersOn(writer, 1).get(0);
        var plugged = intake.submit(paid(plug, "P" + plug, 100, "plug"), Source.NOTIFY, deadline());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !ArmedIntakeFaults.batchSizes().isEmpty());
        var answers = new ArrayList<CompletableFuture<IntakeOutcome>>();
        for (VerifiedNotification n : notices) {
            answers.add(intake.submit(n, Source.NOTIFY, deadline()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> intake.queued(writer) == notices.size());
        ArmedIntakeFaults.releaseBatches();
        var out = new ArrayList<IntakeOutcome>();
        for (var a : answers) {
            out.add(a.get(10, TimeUnit.SECONDS));
        }
        plugged.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(1, notices.size()), ArmedIntakeFaults.batchSizes(), "the plug, then one batch");
        return out;
    }

    private static String decided(IntakeOutcome o) {
        assertTrue(o.decided(), "decided and committed: " + o);
        var d = o.decision();
        return d.outcome() + (d.reason() == null ? "" : " " + d.reason());
    }

    private static VerifiedNotification paid(String no, String txn, long amount, String body) {
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V2,
                        TestChannels.WX,
                        no,
                        NotifyClass.PAID,
                        "SUCCESS",
                        ("<xml>" + no + " " + body + "</xml>").getBytes(StandardCharsets.UTF_8),
                        Instant.now())
                .transactionId(txn)
                .amount(amount)
                .build();
    }

    private static VerifiedNotification close(String no) {
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V2,
                        TestChannels.WX,
                        no,
                        NotifyClass.CLOSE,
                        "CLOSED",
                        ("<xml>" + no + " close</xml>").getBytes(StandardCharsets.UTF_8),
                        Instant.now())
                .build();
    }

    private static long deadline() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    }
}
