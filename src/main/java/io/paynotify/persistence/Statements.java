package io.paynotify.persistence;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Every statement on {@code statements} (CONTRACT.md §11), with its one row mapping. */
public final class Statements {

    private static final String COLUMNS = "s.channel, s.bill_date, s.stored_status, s.error, s.source, s.fetched_at,"
            + " s.file_sha256, s.attempts, s.first_attempt_at, s.next_attempt_at, s.payment_count, s.payment_amount,"
            + " s.refund_count, s.refund_amount, s.foreign_count, s.foreign_amount, s.fees,"
            + " (SELECT count(*) FROM statement_differences d WHERE d.channel = s.channel"
            + " AND d.bill_date = s.bill_date AND d.status = 'OPEN')";

    private static final String FIND =
            "SELECT " + COLUMNS + " FROM statements s WHERE s.channel = ? AND s.bill_date = ?";

    private static final String READ = "INSERT INTO statements AS s (channel, bill_date, stored_status, error, source,"
            + " fetched_at, file_sha256, attempts, first_attempt_at, next_attempt_at, line_set_id, payment_count,"
            + " payment_amount, refund_count, refund_amount, foreign_count, foreign_amount, fees, updated_at)"
            + " VALUES (?, ?, 'READ', null, ?, now(), ?, ?, null, null, ?, ?, ?, ?, ?, ?, ?, ?, now())"
            + " ON CONFLICT (channel, bill_date) DO UPDATE SET stored_status = 'READ', error = null,"
            + " source = excluded.source, fetched_at = now(), file_sha256 = excluded.file_sha256,"
            + " attempts = s.attempts + excluded.attempts, first_attempt_at = null, next_attempt_at = null,"
            + " line_set_id = excluded.line_set_id, payment_count = excluded.payment_count,"
            + " payment_amount = excluded.payment_amount, refund_count = excluded.refund_count,"
            + " refund_amount = excluded.refund_amount, foreign_count = excluded.foreign_count,"
            + " foreign_amount = excluded.foreign_amount, fees = excluded.fees, updated_at = now()";

    private static final String OUTCOME = "INSERT INTO statements AS s (channel, bill_date, stored_status, error,"
            + " source, fetched_at, attempts, first_attempt_at, next_attempt_at, updated_at)"
            + " VALUES (?, ?, ?, ?, 'FETCH', now(), 1, ?, ?, now())"
            + " ON CONFLICT (channel, bill_date) DO UPDATE SET stored_status = excluded.stored_status,"
            + " error = excluded.error, source = 'FETCH', fetched_at = now(), attempts = s.attempts + 1,"
            + " first_attempt_at = excluded.first_attempt_at, next_attempt_at = excluded.next_attempt_at,"
            + " updated_at = now() WHERE s.stored_status <> 'READ'";

    private Statements() {}

    /** The day's statement, or null. */
    public static StatementRow find(Connection c, String channel, LocalDate billDate) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FIND)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(billDate));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? map(rs) : null;
            }
        }
    }

    /** The channel's statements of {@code from} … {@code to}, by day. */
    public static Map<LocalDate, StatementRow> range(Connection c, String channel, LocalDate from, LocalDate to)
            throws SQLException {
        var out = new TreeMap<LocalDate, StatementRow>();
        for (StatementRow r : Rows.list(
                c,
                "SELECT " + COLUMNS + " FROM statements s WHERE s.channel = ? AND s.bill_date BETWEEN ? AND ?",
                List.of(channel, Date.valueOf(from), Date.valueOf(to)),
                Statements::map)) {
            out.put(r.billDate(), r);
        }
        return out;
    }

    /** The channel's first statement day (a read bill or no bill), or null: orders paid before it are not evaluated. */
    public static LocalDate firstDay(Connection c, String channel) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT min(bill_date) FROM statements WHERE channel = ?"
                + " AND stored_status IN ('READ', 'NO_BILL')")) {
            ps.setString(1, channel);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Date d = rs.getDate(1);
                return d == null ? null : d.toLocalDate();
            }
        }
    }

    /** A bill's totals, as its lines were read. */
    public record Totals(
            long paymentCount,
            long paymentAmount,
            long refundCount,
            long refundAmount,
            long foreignCount,
            long foreignAmount,
            BigDecimal fees) {}

    /**
     * The day's bill was read: its lines are the set {@code lineSetId} from now on, its status derived.
     *
     * @param fetchAttempt 1 when this came from a fetch (it counts as an attempt), 0 for an upload
     * @return the line set the day held before, or null
     */
    public static Long read(
            Connection c,
            String channel,
            LocalDate billDate,
            String source,
            String fileSha256,
            int fetchAttempt,
            long lineSetId,
            Totals t)
            throws SQLException {
        Long previous;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT line_set_id FROM statements WHERE channel = ? AND bill_date = ? FOR UPDATE")) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(billDate));
            try (ResultSet rs = ps.executeQuery()) {
                previous = rs.next() ? Rows.longOrNull(rs, 1) : null;
            }
        }
        try (PreparedStatement ps = c.prepareStatement(READ)) {
            int i = 1;
            ps.setString(i++, channel);
            ps.setDate(i++, Date.valueOf(billDate));
            ps.setString(i++, source);
            ps.setString(i++, fileSha256);
            ps.setInt(i++, fetchAttempt);
            ps.setLong(i++, lineSetId);
            ps.setLong(i++, t.paymentCount());
            ps.setLong(i++, t.paymentAmount());
            ps.setLong(i++, t.refundCount());
            ps.setLong(i++, t.refundAmount());
            ps.setLong(i++, t.foreignCount());
            ps.setLong(i++, t.foreignAmount());
            ps.setBigDecimal(i, t.fees());
            ps.executeUpdate();
        }
        return previous;
    }

    /**
     * A fetch that gave no bill to read: {@code NO_BILL}, {@code NOT_READY} or {@code ERROR} (with its code), one
     * more attempt, the next one due at {@code nextAttemptAt} (null: not retried). A day that holds a read bill keeps
     * it: a later fetch that gave none changes nothing.
     *
     * @param firstAttemptAt the first attempt of this series of retries
     */
    public static void outcome(
            Connection c,
            String channel,
            LocalDate billDate,
            String status,
            String error,
            Instant firstAttemptAt,
            Instant nextAttemptAt)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(OUTCOME)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(billDate));
            ps.setString(3, status);
            ps.setString(4, error);
            ps.setTimestamp(5, Timestamp.from(firstAttemptAt));
            if (nextAttemptAt == null) {
                ps.setNull(6, Types.TIMESTAMP_WITH_TIMEZONE);
            } else {
                ps.setTimestamp(6, Timestamp.from(nextAttemptAt));
            }
            ps.executeUpdate();
        }
    }

    /** A page of statements by (billDate desc, channel asc), after the given key. */
    public static List<StatementRow> list(
            Connection c, List<String> channels, String status, LocalDate afterDate, String afterChannel, int rows)
            throws SQLException {
        var sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM statements s WHERE s.channel = ANY (?)");
        var args = new ArrayList<Object>();
        args.add(c.createArrayOf("text", channels.toArray(new String[0])));
        String open = "EXISTS (SELECT 1 FROM statement_differences d WHERE d.channel = s.channel"
                + " AND d.bill_date = s.bill_date AND d.status = 'OPEN')";
        if ("RECONCILED".equals(status)) {
            sql.append(" AND s.stored_status = 'READ' AND NOT ").append(open);
        } else if ("DIFFERENCES".equals(status)) {
            sql.append(" AND s.stored_status = 'READ' AND ").append(open);
        } else if (status != null) {
            sql.append(" AND s.stored_status = ?");
            args.add(status);
        }
        if (afterDate != null) {
            sql.append(" AND (s.bill_date < ? OR (s.bill_date = ? AND s.channel > ?))");
            args.add(Date.valueOf(afterDate));
            args.add(Date.valueOf(afterDate));
            args.add(afterChannel);
        }
        sql.append(" ORDER BY s.bill_date DESC, s.channel ASC LIMIT ?");
        args.add(rows);
        return Rows.list(c, sql.toString(), args, Statements::map);
    }

    /** The newest settled day of each channel (for the metrics): a read bill or no bill. */
    public static Map<String, LocalDate> lastSettledDays(Connection c) throws SQLException {
        var out = new TreeMap<String, LocalDate>();
        try (PreparedStatement ps = c.prepareStatement("SELECT channel, max(bill_date) FROM statements"
                        + " WHERE stored_status IN ('READ', 'NO_BILL') GROUP BY channel");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getDate(2).toLocalDate());
            }
        }
        return out;
    }

    static StatementRow map(ResultSet rs) throws SQLException {
        return new StatementRow(
                rs.getString(1),
                rs.getDate(2).toLocalDate(),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                Rows.instant(rs.getTimestamp(6)),
                rs.getString(7),
                rs.getInt(8),
                Rows.instant(rs.getTimestamp(9)),
                Rows.instant(rs.getTimestamp(10)),
                rs.getLong(11),
                rs.getLong(12),
                rs.getLong(13),
                rs.getLong(14),
                rs.getLong(15),
                rs.getLong(16),
                rs.getBigDecimal(17),
                rs.getLong(18));
    }
}
