package io.paynotify.intake;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Outcome;
import io.paynotify.core.order.Reason;
import io.paynotify.persistence.DatabaseUnavailable;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit (docs/architecture.md "Intake"): notifications lined up behind a held writer run as one batch in one
 * transaction, and each member still stands alone. A member that fails (an injected exception, a broken constraint)
 * is rolled back to its savepoint and the others commit; notices for one order inside one batch are decided in
 * arrival order, each on the order as the one before left it; a transaction id taken by another order meanwhile is
 * caught by the unique constraint and that member decides again.
 *
 * <p>These tests talk to the intake directly (verification is not what they are about); the HTTP answers of a batch
 * whose database hangs are in {@link HungBatchTest}.
 */
@QuarkusTest
class BatchCommitTest {

    private static final AtomicInteger SEQ = new AtomicInteger();

    @Inject
    NotificationIntake intake;

    @io.quarkus.test.common.http.TestHTTPResource("/notify/wechatpay/" + TestChannels.WX)
    java.net.URI notify;

    @AfterEach
    void release() {
        ArmedIntakeFaults.releaseBatches();
    }

    @Test
    void aFailingMemberIsRolledBackAloneAndTheOthersCommit() throws Exception {
        int writer = 1 % NotificationIntake.WRITERS;
        List<String> nos = pendingOrdersOn(writer, 4);
        String thrower = nos.get(1);
        String breaker = nos.get(2);
        ArmedIntakeFaults.arm(thrower);
        // a real constraint violation on the intake's own connection, inside that member's savepoint
        ArmedIntakeFaults.arm(breaker, (c, n) -> {
            try (var ps =
                    c.prepareStatement("UPDATE orders SET amount_minor = 0 WHERE channel = ? AND out_trade_no = ?")) {
                ps.setString(1, n.channel());
                ps.setString(2, n.outTradeNo());
                ps.executeUpdate();
            }
        });
        List<CompletableFuture<IntakeOutcome>> answers;
        try {
            answers = inOneBatch(
                    writer, nos.stream().map(no -> paid(no, "T" + no, 100)).toList());
        } finally {
            ArmedIntakeFaults.disarm(thrower);
            ArmedIntakeFaults.disarm(breaker);
        }

        assertEquals(Outcome.APPLIED, result(answers.get(0)).decision().outcome());
        assertInstanceOf(IllegalStateException.class, failure(answers.get(1)), "the injected exception");
        Throwable broken = failure(answers.get(2));
        assertInstanceOf(DatabaseUnavailable.class, broken);
        assertEquals("23514", ((DatabaseUnavailable) broken).sqlState(), "the check constraint on amount_minor");
        assertEquals(Outcome.APPLIED, result(answers.get(3)).decision().outcome());

        for (String no : List.of(nos.get(0), nos.get(3))) {
            assertEquals("SUCCESS", state(no));
            assertEquals(1, notifications(no, "APPLIED"));
            assertEquals(1, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ? AND type = 'order.paid'", no));
        }
        for (String no : List.of(thrower, breaker)) {
            assertEquals("PENDING", state(no), "rolled back to its savepoint: " + no);
            assertEquals(
                    100L,
                    Db.row("SELECT amount_minor FROM orders WHERE out_trade_no = ?", no)
                            .get("amount_minor"));
            assertEquals(0, notifications(no, null), "no notification row of a failed member");
            assertEquals(0, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ?", no));
        }
    }

    @Test
    void noticesForOneOrderInOneBatchAreDecidedInArrivalOrder() throws Exception {
        int writer = 2 % NotificationIntake.WRITERS;
        String no = ordersOn(writer, 1).get(0);
        anOrder()
                .channel(TestChannels.WX)
                .provider("WECHATPAY_V2")
                .outTradeNo(no)
                .amount(100)
                .insert();
        List<VerifiedNotification> notices = List.of(
                paid(no, "T1" + no, 999), // PENDING, amount differs: AMOUNT_MISMATCH, nothing paid
                paid(no, "T1" + no, 100), // pays
                paid(no, "T1" + no, 100), // the same payment again
                paid(no, "T2" + no, 100), // another payment of a paid order
                close(no)); // a close of a paid order

        List<CompletableFuture<IntakeOutcome>> answers = inOneBatch(writer, notices);

        List<String> decided = new ArrayList<>();
        for (var a : answers) {
            var d = result(a).decision();
            decided.add(d.outcome() + (d.reason() == null ? "" : " " + d.reason()));
        }
        assertEquals(
                List.of(
                        "ANOMALY " + Reason.AMOUNT_MISMATCH,
                        "APPLIED",
                        "DUPLICATE",
                        "ANOMALY " + Reason.DUPLICATE_PAYMENT,
                        "ANOMALY " + Reason.CLOSED_AFTER_PAID),
                decided);
        List<String> recorded =
                Db.rows("SELECT outcome, reason FROM notifications WHERE out_trade_no = ? ORDER BY id", no).stream()
                        .map(r -> r.get("outcome") + (r.get("reason") == null ? "" : " " + r.get("reason")))
                        .toList();
        assertEquals(decided, recorded, "rows in arrival order, each with its decision");
        // the five carry the same bytes: inside the batch's transaction the first row stores them, the others point
        // at it
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND raw_body IS NOT NULL", no));
        assertEquals(
                4,
                Db.count(
                        "SELECT count(*) FROM notifications n JOIN notifications b ON b.id = n.body_id"
                                + " WHERE n.out_trade_no = ? AND b.out_trade_no = n.out_trade_no",
                        no));
        var order = Db.row("SELECT state, transaction_id, attention FROM orders WHERE out_trade_no = ?", no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals("T1" + no, order.get("transaction_id"));
        assertEquals(
                List.of("AMOUNT_MISMATCH", "DUPLICATE_PAYMENT", "CLOSED_AFTER_PAID"),
                order.get("attention"),
                "each anomaly flagged once, in order");
        assertEquals(1, Db.count("SELECT count(*) FROM events WHERE out_trade_no = ? AND type = 'order.paid'", no));
    }

    @Test
    void aTransactionIdTakenMeanwhileMeetsTheConstraintAndThatMemberDecidesAgain() throws Exception {
        int writer = 3 % NotificationIntake.WRITERS;
        List<String> nos = pendingOrdersOn(writer, 3);
        String other = anOrder()
                .channel(TestChannels.WX)
                .provider("WECHATPAY_V2")
                .amount(100)
                .insert()
                .outTradeNo();
        String txn = "TX" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        // The third member throws, so the batch runs a second time with a savepoint per member. In that run, after
        // the first member's insert, another transaction pays another order with the transaction id the second
        // member carries, and commits: the batch had read the holders before that.
        AtomicInteger runs = new AtomicInteger();
        ArmedIntakeFaults.arm(nos.get(0), (c, n) -> {
            if (runs.incrementAndGet() == 2) {
                Db.update(
                        "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = now() WHERE out_trade_no = ?",
                        txn,
                        other);
            }
        });
        ArmedIntakeFaults.arm(nos.get(2));
        List<CompletableFuture<IntakeOutcome>> answers;
        try {
            answers = inOneBatch(
                    writer,
                    List.of(
                            paid(nos.get(0), "T" + nos.get(0), 100),
                            paid(nos.get(1), txn, 100),
                            paid(nos.get(2), "T" + nos.get(2), 100)));
        } finally {
            ArmedIntakeFaults.disarm(nos.get(0));
            ArmedIntakeFaults.disarm(nos.get(2));
        }

        assertEquals(2, runs.get(), "the batch ran twice: without savepoints, then with");
        assertEquals(Outcome.APPLIED, result(answers.get(0)).decision().outcome());
        var second = result(answers.get(1)).decision();
        assertEquals(Outcome.ANOMALY, second.outcome(), "decided again after the unique violation");
        assertEquals(Reason.TRANSACTION_ON_OTHER_ORDER, second.reason());
        assertInstanceOf(IllegalStateException.class, failure(answers.get(2)));
        assertEquals("PENDING", state(nos.get(1)));
        assertNull(Db.row("SELECT transaction_id FROM orders WHERE out_trade_no = ?", nos.get(1))
                .get("transaction_id"));
        assertEquals(1, notifications(nos.get(1), "ANOMALY"));
        assertEquals(1, notifications(nos.get(1), null), "one row: the rolled-back attempt left none");
        assertEquals("SUCCESS", state(nos.get(0)));
        assertEquals(0, notifications(nos.get(2), null));
    }

    @Test
    void identicalStormsOnSeveralOrdersShareBatchesAndEachOrderIsPaidOnce() throws Exception {
        int orders = 8;
        int copies = 10;
        List<String> nos = new ArrayList<>();
        for (int w = 0; w < NotificationIntake.WRITERS; w++) {
            nos.addAll(ordersOn(w, orders / NotificationIntake.WRITERS));
        }
        List<java.net.http.HttpRequest> requests = new ArrayList<>();
        for (String no : nos) {
            anOrder()
                    .channel(TestChannels.WX)
                    .provider("WECHATPAY_V2")
                    .outTradeNo(no)
                    .amount(100)
                    .insert();
            byte[] body = io.paynotify.testing.WechatV2Fixtures.body(io.paynotify.testing.WechatV2Fixtures.signed(
                    io.paynotify.testing.WechatV2Fixtures.paid(no, "4200" + no, 100), TestChannels.WX_KEY, "MD5"));
            requests.add(java.net.http.HttpRequest.newBuilder(notify)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body))
                    .build());
        }
        var http = java.net.http.HttpClient.newHttpClient();
        var admissionLabels = java.util.Map.of("cause", "ADMISSION", "channel", TestChannels.WX);
        double refusedBefore = io.paynotify.testing.Management.sum(
                io.paynotify.testing.Management.scrape(), "paynotify_notifications_rejected_total", admissionLabels);
        ArmedIntakeFaults.holdBatches();
        for (int w = 0; w < NotificationIntake.WRITERS; w++) {
            String plug = ordersOn(w, 1).get(0);
            intake.submit(paid(plug, "P" + plug, 100), Source.NOTIFY, deadline());
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ArmedIntakeFaults.batchSizes().size() == NotificationIntake.WRITERS);
        var answers = new ArrayList<CompletableFuture<java.net.http.HttpResponse<String>>>();
        for (int i = 0; i < copies; i++) {
            for (var r : requests) {
                answers.add(http.sendAsync(r, java.net.http.HttpResponse.BodyHandlers.ofString()));
            }
        }
        // five of each order are admitted (the rest are 503 at once) and wait behind the held writers
        int admitted = orders * NotificationIntake.MAX_PER_ORDER;
        await().atMost(Duration.ofSeconds(2)).until(() -> queuedInAll() == admitted);
        await().atMost(Duration.ofSeconds(2))
                .until(() -> answers.stream().filter(CompletableFuture::isDone).count() == answers.size() - admitted);
        ArmedIntakeFaults.releaseBatches();

        var statuses = new java.util.TreeMap<Integer, Integer>();
        for (var a : answers) {
            statuses.merge(a.get(10, TimeUnit.SECONDS).statusCode(), 1, Integer::sum);
        }
        assertEquals(
                java.util.Map.of(200, admitted, 503, orders * copies - admitted),
                statuses,
                "the admitted ones acked, the rest refused at once");
        assertEquals(
                orders * copies - admitted,
                io.paynotify.testing.Management.sum(
                                io.paynotify.testing.Management.scrape(),
                                "paynotify_notifications_rejected_total",
                                admissionLabels)
                        - refusedBefore,
                "each refusal is counted as ADMISSION (docs/api.md \"Admission\")");
        List<Integer> batches = ArmedIntakeFaults.batchSizes();
        assertEquals(
                admitted,
                batches.subList(NotificationIntake.WRITERS, batches.size()).stream()
                        .mapToInt(Integer::intValue)
                        .sum());
        assertTrue(
                batches.subList(NotificationIntake.WRITERS, batches.size()).stream()
                        .allMatch(b -> b > 1),
                "every batch after the plugs held several: " + batches);
        for (String no : nos) {
            assertEquals("SUCCESS", state(no));
            assertEquals(1, notifications(no, "APPLIED"), no);
            assertEquals(NotificationIntake.MAX_PER_ORDER - 1, notifications(no, "DUPLICATE"), no);
            assertEquals(
                    1L,
                    Db.row("SELECT version FROM orders WHERE out_trade_no = ?", no)
                            .get("version"));
        }
    }

    private int queuedInAll() {
        int sum = 0;
        for (int w = 0; w < NotificationIntake.WRITERS; w++) {
            sum += intake.queued(w);
        }
        return sum;
    }

    /**
     * Holds the writer with one notification of its own, lines {@code notices} up behind it in this order, then lets
     * it go: they run as one batch. Returns each notice's answer, completed.
     */
    private List<CompletableFuture<IntakeOutcome>> inOneBatch(int writer, List<VerifiedNotification> notices)
            throws Exception {
        for (VerifiedNotification n : notices) {
            assertEquals(writer, NotificationIntake.writerOf(Orders.key(n.channel(), n.outTradeNo())));
        }
        ArmedIntakeFaults.holdBatches();
        String plug = ordersOn(writer, 1).get(0);
        var plugged = intake.submit(paid(plug, "P" + plug, 100), Source.NOTIFY, deadline());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !ArmedIntakeFaults.batchSizes().isEmpty());
        var answers = new ArrayList<CompletableFuture<IntakeOutcome>>();
        for (VerifiedNotification n : notices) {
            answers.add(intake.submit(n, Source.NOTIFY, deadline()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> intake.queued(writer) == notices.size());
        ArmedIntakeFaults.releaseBatches();
        for (var a : answers) {
            // a failed member completes too, with its failure: the test looks at it
            a.get(10, TimeUnit.SECONDS);
        }
        failureOrNull(plugged); // no order: recorded as UNKNOWN_ORDER
        assertEquals(List.of(1, notices.size()), ArmedIntakeFaults.batchSizes(), "the plug, then one batch");
        return answers;
    }

    /** {@code count} PENDING orders of 1.00 on the v2 test channel whose notifications all go to {@code writer}. */
    static List<String> pendingOrdersOn(int writer, int count) {
        List<String> nos = ordersOn(writer, count);
        for (String no : nos) {
            anOrder()
                    .channel(TestChannels.WX)
                    .provider("WECHATPAY_V2")
                    .outTradeNo(no)
                    .amount(100)
                    .insert();
        }
        return nos;
    }

    /** {@code count} fresh outTradeNos whose notifications all go to {@code writer}. */
    static List<String> ordersOn(int writer, int count) {
        var out = new ArrayList<String>();
        while (out.size() < count) {
            String no =
                    "GC" + SEQ.incrementAndGet() + UUID.randomUUID().toString().substring(0, 8);
            if (NotificationIntake.writerOf(Orders.key(TestChannels.WX, no)) == writer) {
                out.add(no);
            }
        }
        return out;
    }

    private static VerifiedNotification paid(String no, String txn, long amount) {
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V2,
                        TestChannels.WX,
                        no,
                        NotifyClass.PAID,
                        "SUCCESS",
                        ("<xml>" + no + "</xml>").getBytes(StandardCharsets.UTF_8),
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
                        ("<xml>" + no + "</xml>").getBytes(StandardCharsets.UTF_8),
                        Instant.now())
                .build();
    }

    private static long deadline() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    }

    private static IntakeOutcome result(CompletableFuture<IntakeOutcome> f) throws Exception {
        IntakeOutcome o = f.get(10, TimeUnit.SECONDS);
        assertTrue(o.decided(), "the member was decided and committed: " + o);
        return o;
    }

    private static Throwable failure(CompletableFuture<IntakeOutcome> f) throws Exception {
        Throwable t = failureOrNull(f);
        assertTrue(t != null, "the member failed");
        return t;
    }

    /** What failed the member alone (its changes rolled back), or null when it was decided. */
    private static Throwable failureOrNull(CompletableFuture<IntakeOutcome> f) throws Exception {
        IntakeOutcome o = f.get(10, TimeUnit.SECONDS);
        return o.decided() ? null : o.cause();
    }

    private static String state(String no) {
        return (String)
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state");
    }

    private static long notifications(String no, String outcome) {
        return outcome == null
                ? Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", no)
                : Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = ?", no, outcome);
    }
}
