package io.paynotify.persistence;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.persistence.NotificationPartitions.Partition;
import io.paynotify.retention.NotificationRetention;
import io.paynotify.testing.Db;
import io.paynotify.testing.MigrationSandbox;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 step 1 (docs/operations.md "Retention and sizing"): V15 on a database holding notifications of every age,
 * the months created ahead by several replicas at once, whole partitions dropped past the retention (orders and
 * refunds untouched), and the personal data erased past its retention with the admin API saying so.
 */
@QuarkusTest
class NotificationPartitionsTest {

    /** Rows every 30 days back to this many days, plus one a day ahead (a clock that ran ahead). */
    static final int OLDEST_DAYS = 1200;

    @Inject
    NotificationRetention retention;

    @Test
    void v15KeepsEveryRowOfEveryAgeAndTheNextMonthsTakeRowsAtOnce() throws Exception {
        try (var db = MigrationSandbox.create().migrateTo("11")) {
            Instant now = Instant.now();
            Map<Long, Instant> before = fillOldSchema(db, now);
            long bodies = count(db, "SELECT count(*) FROM notifications WHERE body_id IS NOT NULL");
            db.migrateAll();

            YearMonth next = YearMonth.from(now.atOffset(ZoneOffset.UTC)).plusMonths(1);
            try (Connection c = db.connect()) {
                List<Partition> parts = NotificationPartitions.list(c);
                assertEquals(
                        List.of(
                                "notifications_until_" + name(next),
                                "notifications_" + name(next),
                                "notifications_" + name(next.plusMonths(1)),
                                "notifications_" + name(next.plusMonths(2))),
                        parts.stream().map(Partition::name).toList(),
                        "the old table is the first partition, three months follow");
                assertNull(parts.get(0).from());
                assertEquals(NotificationPartitions.start(next), parts.get(0).to());
                assertEquals(
                        "p",
                        one(c, "SELECT relkind::text FROM pg_class WHERE oid = 'notifications'::regclass"),
                        "notifications is partitioned");
            }
            assertEquals(before, idsAndTimes(db), "every row keeps its id and time, in the first partition");
            assertEquals(
                    (long) before.size(),
                    count(db, "SELECT count(*) FROM notifications_until_" + name(next)),
                    "nothing copied elsewhere");
            assertEquals(
                    bodies,
                    count(
                            db,
                            "SELECT count(*) FROM notifications n JOIN notifications b ON b.id = n.body_id"
                                    + " WHERE b.raw_body IS NOT NULL"),
                    "every shared body still resolves");
            assertEquals(0, count(db, "SELECT count(*) FROM notifications WHERE personal_data_erased_at IS NOT NULL"));

            // new rows: this month into the first partition, next month into its own; ids continue past the old ones
            long maxOld =
                    before.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
            long thisMonth = insert(db, "N-NEW", now, "new".getBytes(StandardCharsets.UTF_8));
            long nextMonth =
                    insert(db, "N-NEXT", NotificationPartitions.start(next).plusSeconds(60), new byte[] {1});
            assertTrue(thisMonth > maxOld && nextMonth > thisMonth, "the identity continues after the old rows");
            assertEquals(
                    "notifications_until_" + name(next),
                    oneIn(db, "SELECT tableoid::regclass::text FROM notifications WHERE id = " + thisMonth));
            assertEquals(
                    "notifications_" + name(next),
                    oneIn(db, "SELECT tableoid::regclass::text FROM notifications WHERE id = " + nextMonth));
        }
    }

    @Test
    void replicasCreatingTheSameMonthsAtOnceCreateEachOnce() throws Exception {
        try (var db = MigrationSandbox.create().migrateAll()) {
            Instant later = Instant.now().plus(Duration.ofDays(400));
            int replicas = 8;
            var barrier = new CyclicBarrier(replicas);
            ExecutorService pool = Executors.newFixedThreadPool(replicas);
            List<Future<List<String>>> runs = new ArrayList<>();
            try {
                for (int i = 0; i < replicas; i++) {
                    runs.add(pool.submit(() -> {
                        try (Connection c = db.connect()) {
                            c.setAutoCommit(false);
                            barrier.await(10, TimeUnit.SECONDS);
                            List<String> created = NotificationPartitions.createAhead(c, later, 3);
                            c.commit();
                            return created;
                        }
                    }));
                }
                List<String> all = new ArrayList<>();
                for (Future<List<String>> run : runs) {
                    all.addAll(run.get(30, TimeUnit.SECONDS)); // a replica that failed fails the test here
                }
                YearMonth first = YearMonth.from(later.atOffset(ZoneOffset.UTC));
                List<String> expected = List.of(
                        "notifications_" + name(first),
                        "notifications_" + name(first.plusMonths(1)),
                        "notifications_" + name(first.plusMonths(2)),
                        "notifications_" + name(first.plusMonths(3)));
                assertEquals(new HashSet<>(expected), new HashSet<>(all), "each month created");
                assertEquals(expected.size(), all.size(), "and by one replica only");
            } finally {
                pool.shutdownNow();
            }
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                assertEquals(List.of(), NotificationPartitions.createAhead(c, later, 3), "a rerun finds them");
                c.commit();
            }
            insert(db, "N-LATER", later, new byte[] {2});
        }
    }

    @Test
    void partitionsPastTheRetentionAreDroppedWholeAndOrdersAndRefundsStay() throws Exception {
        try (var db = MigrationSandbox.create().migrateTo("11")) {
            Instant now = Instant.now();
            Map<Long, Instant> old = fillOldSchema(db, now);
            db.migrateAll();
            YearMonth next = YearMonth.from(now.atOffset(ZoneOffset.UTC)).plusMonths(1);
            long inNext = insert(db, "N-M1", NotificationPartitions.start(next).plusSeconds(5), new byte[] {1});
            long inNext2 = insert(
                    db, "N-M2", NotificationPartitions.start(next.plusMonths(1)).plusSeconds(5), new byte[] {2});
            long inNext3 = insert(
                    db, "N-M3", NotificationPartitions.start(next.plusMonths(2)).plusSeconds(5), new byte[] {3});
            long orders = count(db, "SELECT count(*) FROM orders");
            long refunds = count(db, "SELECT count(*) FROM refunds");

            // a cutoff in the middle of the second new month: the first partition and the next month are past it
            Instant cutoff = NotificationPartitions.start(next.plusMonths(1)).plus(Duration.ofDays(10));
            List<String> dropped;
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                dropped = NotificationPartitions.dropBefore(c, cutoff);
                c.commit();
            }
            assertEquals(List.of("notifications_until_" + name(next), "notifications_" + name(next)), dropped);
            assertEquals(
                    List.of(inNext2, inNext3),
                    idsAndTimes(db).keySet().stream().toList(),
                    "the month holding the cutoff stays whole, with its row older than the cutoff");
            assertTrue(old.size() > 30 && inNext > 0);
            assertEquals(orders, count(db, "SELECT count(*) FROM orders"), "orders are never deleted");
            assertEquals(refunds, count(db, "SELECT count(*) FROM refunds"), "refunds are never deleted");
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                assertEquals(List.of(), NotificationPartitions.dropBefore(c, cutoff), "nothing left to drop");
                c.commit();
            }
        }
    }

    @Test
    void personalDataPastItsRetentionIsErasedAndTheRowsStay() throws Exception {
        try (var db = MigrationSandbox.create().migrateTo("11")) {
            Instant now = Instant.now();
            Map<Long, Instant> rows = fillOldSchema(db, now);
            db.migrateAll();
            Instant cutoff = now.minus(Duration.ofDays(185)); // between two rows, away from microsecond rounding
            int statements = 0;
            try (Connection c = db.connect()) {
                while (NotificationPartitions.eraseBefore(c, cutoff) > 0) {
                    statements++;
                }
            }
            assertEquals(1, statements, "one statement erases up to " + NotificationPartitions.ERASE_BATCH + " rows");
            assertEquals(rows, idsAndTimes(db), "erasure deletes no row");
            try (Connection c = db.connect();
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id, received_at, raw_body, decoded, raw_body_sha256,"
                            + " body_id, personal_data_erased_at, amount_minor, outcome FROM notifications")) {
                int erased = 0;
                while (rs.next()) {
                    boolean past = rs.getTimestamp(2).toInstant().isBefore(cutoff);
                    if (past) {
                        erased++;
                        assertNull(rs.getBytes(3), "raw_body erased");
                        assertNull(rs.getString(4), "decoded erased");
                        assertNull(rs.getBytes(5), "the body's hash erased");
                        assertNotNull(rs.getTimestamp(7));
                    } else {
                        assertNull(rs.getTimestamp(7), "a row inside the retention keeps its data");
                        assertTrue(rs.getBytes(3) != null || rs.getObject(6) != null);
                    }
                    assertEquals(100L, rs.getLong(8), "the amount stays");
                    assertNotNull(rs.getString(9), "the outcome stays");
                }
                assertTrue(erased > 30, "rows of every age past 180 days: " + erased);
                // a row pointing at an erased holder reads as erased
                long pointer = Long.parseLong(one(
                        c,
                        "SELECT min(id)::text FROM notifications WHERE body_id IS NOT NULL" + " AND received_at < '"
                                + Timestamp.from(cutoff).toInstant() + "'"));
                NotificationRow r = Notifications.find(c, pointer);
                assertNull(r.rawBody());
                assertNull(r.decoded());
                assertNotNull(r.personalDataErasedAt());
            }
            try (Connection c = db.connect()) {
                assertEquals(0, NotificationPartitions.eraseBefore(c, cutoff), "a rerun finds nothing");
            }
        }
    }

    @Test
    void theAdminApiSaysWhenANotificationsPersonalDataWasErased() {
        String no = "ER" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        long order = anOrder()
                .channel(TestChannels.WX)
                .provider("WECHATPAY_V2")
                .outTradeNo(no)
                .amount(100)
                .insert()
                .id();
        // received in 1999, before every other test's rows: the erasure below reaches only these
        Instant old = Instant.parse("1999-06-01T00:00:00Z");
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, order_id, provider_status, amount_minor,"
                        + " currency, outcome, reason, raw_body, decoded, received_at) VALUES (?, 'WECHATPAY_V2', ?, ?,"
                        + " 'SUCCESS', 100, 'CNY', 'APPLIED', null, ?, '{\"openid\":\"o-buyer\"}', ?), (?,"
                        + " 'WECHATPAY_V2', ?, ?, 'SUCCESS', 100, 'CNY', 'DUPLICATE', null, ?, null, now())",
                TestChannels.WX,
                no,
                order,
                "<xml><openid>o-buyer</openid></xml>".getBytes(StandardCharsets.UTF_8),
                Timestamp.from(old),
                TestChannels.WX,
                no,
                order,
                "<xml>kept</xml>".getBytes(StandardCharsets.UTF_8));

        List<Integer> erased = retention.erase(Instant.parse("2000-01-01T00:00:00Z"));
        assertEquals(List.of(1, 0), erased, "one row, then none left");

        JsonPath page = given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX + "/" + no + "/notifications")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertEquals(List.of("APPLIED", "DUPLICATE"), page.getList("items.outcome"));
        assertNull(page.get("items[0].rawBody"));
        assertNull(page.get("items[0].rawBodyBase64"));
        assertNull(page.get("items[0].decoded"));
        assertNotNull(page.get("items[0].personalDataErasedAt"), "the admin API says the data was erased");
        assertEquals(100, (Integer) page.get("items[0].amount"));
        assertEquals("<xml>kept</xml>", page.get("items[1].rawBody"));
        assertFalse(page.getMap("items[1]").containsKey("personalDataErasedAt"), "absent while the body is kept");
        assertEquals(1, Db.count("SELECT count(*) FROM orders WHERE id = ?", order), "the order stays");
    }

    // --- the old schema's rows -------------------------------------------------------------------------------------

    /**
     * Orders, refunds and notifications as V11 held them: one order per age, every 30 days back to {@link
     * #OLDEST_DAYS} and one a day ahead, each with a notice holding its body, a duplicate pointing at it (V10) and a
     * refund. Returns the notifications' ids and times.
     */
    static Map<Long, Instant> fillOldSchema(MigrationSandbox db, Instant now) throws SQLException {
        try (Connection c = db.connect()) {
            for (int days = -1; days <= OLDEST_DAYS; days += (days < 0 ? 1 : 30)) {
                Timestamp at = Timestamp.from(now.minus(Duration.ofDays(days)));
                String no = "AGE" + days;
                long order;
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (channel, out_trade_no, provider,"
                        + " amount_minor, currency, state, transaction_id, paid_at, created_at, updated_at)"
                        + " VALUES ('wx', ?, 'WECHATPAY_V2', 100, 'CNY', 'SUCCESS', ?, ?, ?, ?) RETURNING id")) {
                    ps.setString(1, no);
                    ps.setString(2, "T" + no);
                    ps.setTimestamp(3, at);
                    ps.setTimestamp(4, at);
                    ps.setTimestamp(5, at);
                    order = single(ps);
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO refunds (order_id, channel, out_trade_no,"
                        + " out_refund_no, refund_id, amount_minor, status, created_at, updated_at)"
                        + " VALUES (?, 'wx', ?, ?, ?, 0, 'PROCESSING', ?, ?)")) {
                    ps.setLong(1, order);
                    ps.setString(2, no);
                    ps.setString(3, "R" + no);
                    ps.setString(4, "RID" + no);
                    ps.setTimestamp(5, at);
                    ps.setTimestamp(6, at);
                    ps.executeUpdate();
                }
                byte[] body = ("<xml><out_trade_no>" + no + "</out_trade_no><openid>o" + days + "</openid></xml>")
                        .getBytes(StandardCharsets.UTF_8);
                long holder;
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO notifications (channel, provider,"
                        + " out_trade_no, order_id, provider_status, amount_minor, currency, outcome, reason,"
                        + " raw_body, raw_body_sha256, decoded, received_at) VALUES ('wx', 'WECHATPAY_V2', ?, ?,"
                        + " 'SUCCESS', 100, 'CNY', 'APPLIED', null, ?, sha256(?), '{\"openid\":\"o\"}', ?)"
                        + " RETURNING id")) {
                    ps.setString(1, no);
                    ps.setLong(2, order);
                    ps.setBytes(3, body);
                    ps.setBytes(4, body);
                    ps.setTimestamp(5, at);
                    holder = single(ps);
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO notifications (channel, provider,"
                        + " out_trade_no, order_id, provider_status, amount_minor, currency, outcome, reason,"
                        + " raw_body, raw_body_sha256, body_id, received_at) VALUES ('wx', 'WECHATPAY_V2', ?, ?,"
                        + " 'SUCCESS', 100, 'CNY', 'DUPLICATE', null, null, sha256(?), ?, ?)")) {
                    ps.setString(1, no);
                    ps.setLong(2, order);
                    ps.setBytes(3, body);
                    ps.setLong(4, holder);
                    ps.setTimestamp(5, Timestamp.from(at.toInstant().plusSeconds(1)));
                    ps.executeUpdate();
                }
            }
        }
        return idsAndTimes(db);
    }

    static long insert(MigrationSandbox db, String no, Instant at, byte[] body) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement("INSERT INTO notifications (channel, provider,"
                        + " out_trade_no, provider_status, amount_minor, currency, outcome, reason, raw_body,"
                        + " raw_body_sha256, received_at) VALUES ('wx', 'WECHATPAY_V2', ?, 'SUCCESS', 100, 'CNY',"
                        + " 'APPLIED', null, ?, sha256(?), ?) RETURNING id")) {
            ps.setString(1, no);
            ps.setBytes(2, body);
            ps.setBytes(3, body);
            ps.setTimestamp(4, Timestamp.from(at));
            long id = single(ps);
            assertArrayEquals(body, Notifications.find(c, id).rawBody());
            return id;
        }
    }

    static Map<Long, Instant> idsAndTimes(MigrationSandbox db) throws SQLException {
        var out = new TreeMap<Long, Instant>();
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, received_at FROM notifications")) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getTimestamp(2).toInstant());
            }
        }
        return out;
    }

    private static long single(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static long count(MigrationSandbox db, String sql) throws SQLException {
        return Long.parseLong(oneIn(db, sql));
    }

    static String oneIn(MigrationSandbox db, String sql) throws SQLException {
        try (Connection c = db.connect()) {
            return one(c, sql);
        }
    }

    static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static String name(YearMonth m) {
        return String.format("%04d_%02d", m.getYear(), m.getMonthValue());
    }
}
