package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.MigrationSandbox;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V17 on a database holding data: raw bodies, decoded texts and event bodies written from then on are compressed
 * with lz4, on the partitioned notifications' parent, every partition it has and every partition created later; the
 * rows stored before keep their pglz values and read the same.
 */
@QuarkusTest
class BodyCompressionMigrationTest {

    /** A body over the TOAST threshold (about 2 KB), so that PostgreSQL compresses it. */
    private static final String BIG =
            "convert_to(repeat('<xml><return_code>SUCCESS</return_code></xml>', 100), 'UTF8')";

    @Test
    void bodiesWrittenAfterV17AreLz4AndOlderOnesStayReadable() throws Exception {
        try (var db = MigrationSandbox.create().migrateTo("15")) {
            db.execute("INSERT INTO notifications (channel, provider, out_trade_no, outcome, raw_body, received_at)"
                    + " VALUES ('wx', 'WECHATPAY_V2', 'O1', 'DUPLICATE', " + BIG + ", now())");
            db.migrateAll();
            db.execute(
                    "CREATE TABLE notifications_2099_01 PARTITION OF notifications"
                            + " FOR VALUES FROM ('2099-01-01') TO ('2099-02-01')",
                    "INSERT INTO notifications (channel, provider, out_trade_no, outcome, raw_body, decoded, received_at)"
                            + " VALUES ('wx', 'WECHATPAY_V2', 'O1', 'DUPLICATE', " + BIG
                            + ", repeat('d', 4000), now()),"
                            + " ('wx', 'WECHATPAY_V2', 'O1', 'DUPLICATE', " + BIG + ", null, '2099-01-02')");
            try (Connection c = db.connect()) {
                List<String> columns = strings(
                        c,
                        "SELECT c.relname || '.' || a.attname || '=' || a.attcompression::text FROM pg_attribute a"
                                + " JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = current_schema()::regnamespace"
                                + " AND c.relkind IN ('r', 'p') AND (c.relname LIKE 'notifications%'"
                                + " AND a.attname IN ('raw_body', 'decoded') OR c.relname = 'events' AND a.attname = 'body')"
                                + " ORDER BY 1");
                assertTrue(columns.size() >= 2 * 6 + 1, "the parent, at least 5 partitions, events: " + columns);
                for (String col : columns) {
                    assertTrue(col.endsWith("=l"), "lz4: " + col);
                }
                assertEquals(
                        List.of("pglz", "lz4", "lz4"),
                        strings(c, "SELECT pg_column_compression(raw_body) FROM notifications ORDER BY id"),
                        "the row from before V17 keeps its value; new rows are lz4, in the new partition too");
                assertEquals(
                        List.of("lz4"),
                        strings(
                                c,
                                "SELECT pg_column_compression(decoded) FROM notifications WHERE decoded IS NOT NULL"));
                assertEquals(
                        List.of("t", "t", "t"),
                        strings(c, "SELECT (raw_body = " + BIG + ")::text FROM notifications ORDER BY id"),
                        "every body reads back as written");
            }
        }
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        var out = new ArrayList<String>();
        try (var st = c.createStatement();
                var rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1).replace("true", "t"));
            }
        }
        return out;
    }
}
