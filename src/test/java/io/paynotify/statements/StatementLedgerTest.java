package io.paynotify.statements;

import static io.paynotify.statements.StatementsTest.AUTH;
import static io.paynotify.statements.StatementsTest.WX;
import static io.paynotify.statements.StatementsTest.no;
import static io.paynotify.statements.StatementsTest.noon;
import static io.paynotify.statements.StatementsTest.ok;
import static io.paynotify.statements.StatementsTest.txn;
import static io.paynotify.statements.StatementsTest.upload;
import static io.paynotify.statements.StatementsTest.wechat;
import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.MigrationSandbox;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ledger's totals next to a statement's (docs/api.md "Statements", {@code ledger}) and the V18 indexes that the
 * day reads by time use (docs/architecture.md "Indexes").
 */
@QuarkusTest
class StatementLedgerTest {

    static Instant beijing(LocalDate day, int hour, int minute, int second) {
        return day.atTime(LocalTime.of(hour, minute, second)).toInstant(ZoneOffset.ofHours(8));
    }

    static void refund(String outTradeNo, String outRefundNo, long amount, String status, Instant succeededAt) {
        long orderId = (Long) Db.row("SELECT id FROM orders WHERE channel = ? AND out_trade_no = ?", WX, outTradeNo)
                .get("id");
        Db.update(
                "INSERT INTO refunds (order_id, channel, out_trade_no, out_refund_no, amount_minor, status,"
                        + " succeeded_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, now(), now())",
                orderId,
                WX,
                outTradeNo,
                outRefundNo,
                amount,
                status,
                succeededAt == null ? null : java.sql.Timestamp.from(succeededAt));
    }

    @Test
    void theListAndTheDayShowTheLedgersTotalsOfTheBeijingDayNextToTheBills() {
        LocalDate d = StatementsTest.newDay();
        String a = no();
        String ta = txn();
        String b = no();
        String tb = txn();
        // paid in the day's first and last second (Beijing time), and one paid a second after it: not the day's
        anOrder()
                .channel(WX)
                .outTradeNo(a)
                .amount(4200)
                .paid(ta)
                .paidAt(beijing(d, 0, 0, 0))
                .insert();
        anOrder()
                .channel(WX)
                .outTradeNo(b)
                .amount(1234)
                .paid(tb)
                .paidAt(beijing(d, 23, 59, 59))
                .insert();
        String next = no();
        anOrder()
                .channel(WX)
                .outTradeNo(next)
                .amount(999)
                .paid(txn())
                .paidAt(beijing(d.plusDays(1), 0, 0, 0))
                .insert();
        // refunds: one SUCCESS in the day, one SUCCESS the next day, one still PROCESSING
        refund(a, "R1", 200, "SUCCESS", noon(d));
        refund(a, "R2", 300, "SUCCESS", beijing(d.plusDays(1), 0, 0, 1));
        refund(b, "R3", 400, "PROCESSING", null);
        byte[] bill = wechat(d).payment(a, ta, "42.00").gzip();

        JsonPath uploaded = ok(upload(WX, d, bill));
        // the bill's own totals unchanged, the ledger's beside them
        assertEquals(1, uploaded.getInt("payments.count"));
        assertEquals(4200, uploaded.getInt("payments.amount"));
        assertEquals(2, uploaded.getInt("ledger.payments.count"));
        assertEquals(5434, uploaded.getInt("ledger.payments.amount"));
        assertEquals(1, uploaded.getInt("ledger.refunds.count"));
        assertEquals(200, uploaded.getInt("ledger.refunds.amount"));

        JsonPath day = ok(given().header("Authorization", AUTH).get("/admin/statements/" + WX + "/" + d));
        assertEquals(Map.of("count", 2, "amount", 5434), day.getMap("ledger.payments"));
        assertEquals(Map.of("count", 1, "amount", 200), day.getMap("ledger.refunds"));

        // computed live: a refund that succeeds now shows at the next read
        refund(b, "R4", 34, "SUCCESS", beijing(d, 23, 0, 0));
        JsonPath page = ok(given().header("Authorization", AUTH)
                .queryParam("channel", WX)
                .queryParam("limit", "500")
                .get("/admin/statements"));
        List<Map<String, Object>> items = page.getList("items");
        Map<String, Object> row = items.stream()
                .filter(i -> d.toString().equals(i.get("billDate")))
                .findFirst()
                .orElseThrow();
        assertEquals(
                Map.of("payments", Map.of("count", 2, "amount", 5434), "refunds", Map.of("count", 2, "amount", 234)),
                row.get("ledger"));
        // every day of the page has its own ledger
        assertTrue(items.stream().allMatch(i -> i.get("ledger") instanceof Map), items.toString());
    }

    /**
     * When the ledger's totals cannot be read in time (here: another session holds {@code orders} locked, so the
     * read gives up after the 1 s lock timeout), the statement is still answered, with {@code "ledger":null}; the
     * next read, once the lock is gone, has the totals again.
     */
    @Test
    void aLedgerThatCannotBeReadInTimeIsNullAndTheStatementIsStillAnswered() throws Exception {
        LocalDate d = StatementsTest.newDay();
        String a = no();
        String ta = txn();
        anOrder().channel(WX).outTradeNo(a).amount(700).paid(ta).paidAt(noon(d)).insert();
        ok(upload(WX, d, wechat(d).payment(a, ta, "7.00").gzip()));

        try (Connection locker = Db.connect()) {
            locker.setAutoCommit(false);
            try (Statement s = locker.createStatement()) {
                s.execute("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
            }
            try {
                var r = given().header("Authorization", AUTH).get("/admin/statements/" + WX + "/" + d);
                r.then().statusCode(200);
                JsonPath day = r.jsonPath();
                assertEquals(d.toString(), day.getString("billDate"));
                assertEquals(1, day.getInt("payments.count"), "the bill's own totals are answered");
                assertTrue(day.getMap("").containsKey("ledger"), "ledger is present: " + r.asString());
                assertEquals(null, (Object) day.get("ledger"), r.asString());
            } finally {
                locker.rollback();
            }
        }
        JsonPath again = ok(given().header("Authorization", AUTH).get("/admin/statements/" + WX + "/" + d));
        assertEquals(Map.of("count", 1, "amount", 700), again.getMap("ledger.payments"));
    }

    /** The plan of a query with sequential scans off: which index (if any) can serve it. */
    static String plan(String sql) throws Exception {
        try (Connection c = Db.connect();
                Statement s = c.createStatement()) {
            s.execute("SET enable_seqscan = off");
            var out = new StringBuilder();
            try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
                while (rs.next()) {
                    out.append(rs.getString(1)).append('\n');
                }
            }
            return out.toString();
        }
    }

    @Test
    void theDayReadsByTimeUseTheV18Indexes() throws Exception {
        String range = "'2025-01-01T16:00:00Z' AND paid_at < '2025-01-02T16:00:00Z'";
        // Orders.activeBetween (Orders.paidBetween's ORDER BY id LIMIT may walk orders_channel_id_idx on a table this
        // small; on a day of many orders the range is the cheaper way), StatementLedger.totals
        String paid = plan("SELECT EXISTS (SELECT 1 FROM orders WHERE channel = 'x' AND paid_at >= " + range + ")");
        assertTrue(paid.contains("orders_channel_paid_at_idx"), paid);
        String sum = plan("SELECT count(*), coalesce(sum(amount_minor), 0) FROM orders WHERE channel = 'x'"
                + " AND paid_at >= " + range);
        assertTrue(sum.contains("Index Only Scan using orders_channel_paid_at_idx"), sum);
        // Refunds.succeededBetween, StatementLedger.totals
        String refunds = "'2025-01-01T16:00:00Z' AND succeeded_at < '2025-01-02T16:00:00Z'";
        String succeeded = plan("SELECT id FROM refunds WHERE channel = 'x' AND status = 'SUCCESS'"
                + " AND succeeded_at >= " + refunds + " AND id > 0 ORDER BY id LIMIT 100");
        assertTrue(succeeded.contains("refunds_channel_succeeded_at_idx"), succeeded);
        String refundSum = plan("SELECT count(*), coalesce(sum(amount_minor), 0) FROM refunds WHERE channel = 'x'"
                + " AND status = 'SUCCESS' AND succeeded_at >= " + refunds);
        assertTrue(refundSum.contains("Index Only Scan using refunds_channel_succeeded_at_idx"), refundSum);
    }

    /** Until V18's index build runs (waiting for the open transaction), within 60 s. */
    static void waitForIndexBuild(java.util.concurrent.CompletableFuture<Void> migrated) throws Exception {
        await("V18's index build started")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    if (migrated.isDone()) {
                        migrated.get();
                        throw new AssertionError("the migration ended while a transaction it must wait for was open");
                    }
                    return Db.count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                    + " AND query ILIKE 'CREATE INDEX%' AND state = 'active'")
                            > 0;
                });
    }

    @Test
    void v18BuildsItsIndexesConcurrentlyOnADatabaseHoldingData() throws Exception {
        try (MigrationSandbox db = MigrationSandbox.create().migrateTo("15")) {
            db.execute(
                    "INSERT INTO orders (channel, out_trade_no, provider, amount_minor, currency, state, transaction_id,"
                            + " paid_at, created_at, updated_at) SELECT 'wx', 'T' || g, 'WECHATPAY_V2', 100, 'CNY',"
                            + " 'SUCCESS', '42' || g, now(), now(), now() FROM generate_series(1, 2000) g",
                    "INSERT INTO refunds (order_id, channel, out_trade_no, out_refund_no, amount_minor, status,"
                            + " succeeded_at, created_at, updated_at) SELECT id, channel, out_trade_no, 'R', 10,"
                            + " 'SUCCESS', now(), now(), now() FROM orders WHERE id % 2 = 0");
            // an intake transaction open on orders while the migration waits for it: a plain CREATE INDEX would
            // need its SHARE lock; CONCURRENTLY builds after it ends, and the session lock never deadlocks with it
            try (Connection open = db.connect()) {
                open.setAutoCommit(false);
                try (Statement s = open.createStatement()) {
                    s.executeUpdate("UPDATE orders SET updated_at = now() WHERE out_trade_no = 'T1'");
                }
                var migrated = new java.util.concurrent.CompletableFuture<Void>();
                Thread t = new Thread(() -> {
                    try {
                        db.migrateAll();
                        migrated.complete(null);
                    } catch (Throwable e) {
                        migrated.completeExceptionally(e);
                    }
                });
                t.start();
                waitForIndexBuild(migrated);
                // meanwhile, more writes to orders go through (they would wait behind a SHARE lock)
                try (Connection other = db.connect();
                        Statement s = other.createStatement()) {
                    s.execute("SET lock_timeout = '2s'");
                    for (int i = 0; i < 20; i++) {
                        s.executeUpdate("UPDATE orders SET updated_at = now() WHERE out_trade_no = 'T" + (i + 2) + "'");
                    }
                }
                open.commit();
                migrated.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            try (Connection c = db.connect();
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c"
                            + " ON c.oid = i.indexrelid WHERE c.relname IN ('orders_channel_paid_at_idx',"
                            + " 'refunds_channel_succeeded_at_idx') AND c.relnamespace = current_schema()::regnamespace"
                            + " ORDER BY 1")) {
                var valid = new StringBuilder();
                while (rs.next()) {
                    valid.append(rs.getString(1))
                            .append('=')
                            .append(rs.getBoolean(2))
                            .append(' ');
                }
                assertEquals(
                        "orders_channel_paid_at_idx=true refunds_channel_succeeded_at_idx=true ", valid.toString());
            }
        }
    }
}
