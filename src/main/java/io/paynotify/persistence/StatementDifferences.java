package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Every statement on {@code statement_differences} (CONTRACT.md §11): unique on (channel, billDate, kind,
 * outTradeNo, outRefundNo), updated in place when a day is reconciled again, never deleted; a RESOLVED difference
 * stays RESOLVED.
 */
public final class StatementDifferences {

    private static final String COLUMNS = "id, channel, bill_date, kind, out_trade_no, out_refund_no,"
            + " sub_merchant_id, transaction_id, bill_amount, local_amount, local_state, status, note, query_result,"
            + " created_at, updated_at, resolved_at";

    private static final String UPSERT = "INSERT INTO statement_differences AS d (channel, bill_date, kind,"
            + " out_trade_no, out_refund_no, sub_merchant_id, transaction_id, bill_amount, local_amount, local_state,"
            + " status, created_at, updated_at, last_run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'OPEN', now(), now(), ?)"
            + " ON CONFLICT ON CONSTRAINT statement_differences_key DO UPDATE SET"
            + " sub_merchant_id = excluded.sub_merchant_id, transaction_id = excluded.transaction_id,"
            + " bill_amount = excluded.bill_amount, local_amount = excluded.local_amount,"
            + " local_state = excluded.local_state, last_run = excluded.last_run,"
            + " updated_at = CASE WHEN (d.sub_merchant_id, d.transaction_id, d.bill_amount, d.local_amount,"
            + " d.local_state) IS NOT DISTINCT FROM (excluded.sub_merchant_id, excluded.transaction_id,"
            + " excluded.bill_amount, excluded.local_amount, excluded.local_state) THEN d.updated_at ELSE now() END"
            + " RETURNING id, (xmax = 0)";

    /** What an OPEN difference no longer raised is resolved with (CONTRACT.md §11). */
    private static final String NOTE = "CASE WHEN o.id IS NOT NULL AND d.local_state IN ('PENDING', 'CLOSED')"
            + " AND o.state NOT IN ('PENDING', 'CLOSED') THEN CASE WHEN EXISTS (SELECT 1 FROM notifications n"
            + " WHERE n.channel = o.channel AND n.out_trade_no = o.out_trade_no AND n.source = 'QUERY'"
            + " AND n.outcome = 'APPLIED' AND n.transaction_id = o.transaction_id) THEN 'paid by active query'"
            + " ELSE 'paid by notification' END ELSE 'no longer in the bill' END";

    private static final String RESOLVE_STALE = "UPDATE statement_differences d SET status = 'RESOLVED',"
            + " resolved_at = now(), updated_at = now(), local_state = o.state, note = " + NOTE
            + " FROM statement_differences d2 LEFT JOIN orders o ON o.channel = d2.channel"
            + " AND o.out_trade_no = d2.out_trade_no"
            + " WHERE d.id = d2.id AND d.channel = ? AND d.bill_date = ? AND d.kind = ANY (?) AND d.status = 'OPEN'"
            + " AND d.last_run IS DISTINCT FROM ?";

    private static final String RESOLVE_STALE_OF_ORDERS = "UPDATE statement_differences d SET status = 'RESOLVED',"
            + " resolved_at = now(), updated_at = now(), local_state = o.state, note = " + NOTE
            + " FROM statement_differences d2 LEFT JOIN orders o ON o.channel = d2.channel"
            + " AND o.out_trade_no = d2.out_trade_no"
            + " WHERE d.id = d2.id AND d.channel = ? AND d.out_trade_no = ANY (?) AND d.kind = ANY (?)"
            + " AND d.status = 'OPEN' AND d.last_run IS DISTINCT FROM ?";

    private StatementDifferences() {}

    /** A difference as a reconcile run computes it. */
    public record Computed(
            String channel,
            LocalDate billDate,
            String kind,
            String outTradeNo,
            String outRefundNo,
            String subMerchantId,
            String transactionId,
            Long billAmount,
            Long localAmount,
            String localState) {}

    /** The row a difference was written to, and whether this run created it. */
    public record Written(long id, boolean created) {}

    /** Creates the difference OPEN, or updates the existing one in place (its status and note kept). */
    public static Written upsert(Connection c, Computed d, UUID run) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
            ps.setString(1, d.channel());
            ps.setDate(2, Date.valueOf(d.billDate()));
            ps.setString(3, d.kind());
            ps.setString(4, d.outTradeNo());
            ps.setString(5, d.outRefundNo());
            ps.setString(6, d.subMerchantId());
            ps.setString(7, d.transactionId());
            setLong(ps, 8, d.billAmount());
            setLong(ps, 9, d.localAmount());
            ps.setString(10, d.localState());
            ps.setObject(11, run);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Written(rs.getLong(1), rs.getBoolean(2));
            }
        }
    }

    /**
     * Resolves the day's OPEN differences of these kinds that the run {@code run} did not raise again: note
     * {@code paid by notification} / {@code paid by active query} when the order was paid meanwhile, else
     * {@code no longer in the bill}. Returns how many.
     */
    public static int resolveStale(Connection c, String channel, LocalDate day, List<String> kinds, UUID run)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RESOLVE_STALE)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            ps.setArray(3, c.createArrayOf("text", kinds.toArray(new String[0])));
            ps.setObject(4, run);
            return ps.executeUpdate();
        }
    }

    /** As {@link #resolveStale}, for these orders' differences of these kinds, whatever their day. */
    public static int resolveStaleOfOrders(
            Connection c, String channel, List<String> outTradeNos, List<String> kinds, UUID run) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RESOLVE_STALE_OF_ORDERS)) {
            ps.setString(1, channel);
            ps.setArray(2, c.createArrayOf("text", outTradeNos.toArray(new String[0])));
            ps.setArray(3, c.createArrayOf("text", kinds.toArray(new String[0])));
            ps.setObject(4, run);
            return ps.executeUpdate();
        }
    }

    /** An operator's resolution; an already RESOLVED difference is left as it is. Returns the row, or null. */
    public static DifferenceRow resolve(Connection c, long id, String note) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE statement_differences SET status = 'RESOLVED',"
                + " note = ?, resolved_at = now(), updated_at = now() WHERE id = ? AND status = 'OPEN'")) {
            ps.setString(1, note);
            ps.setLong(2, id);
            ps.executeUpdate();
        }
        return find(c, id);
    }

    /** Records the result of the active query a MISSING_LOCALLY scheduled; resolves it when {@code paid}. */
    public static void queried(Connection c, long id, String result, boolean paid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE statement_differences SET query_result = ?,"
                + " updated_at = now(), status = CASE WHEN ? AND status = 'OPEN' THEN 'RESOLVED' ELSE status END,"
                + " note = CASE WHEN ? AND status = 'OPEN' THEN 'paid by active query' ELSE note END,"
                + " local_state = CASE WHEN ? AND status = 'OPEN' THEN 'SUCCESS' ELSE local_state END,"
                + " resolved_at = CASE WHEN ? AND status = 'OPEN' THEN now() ELSE resolved_at END WHERE id = ?")) {
            ps.setString(1, result);
            ps.setBoolean(2, paid);
            ps.setBoolean(3, paid);
            ps.setBoolean(4, paid);
            ps.setBoolean(5, paid);
            ps.setLong(6, id);
            ps.executeUpdate();
        }
    }

    public static DifferenceRow find(Connection c, long id) throws SQLException {
        List<DifferenceRow> rows = Rows.list(
                c,
                "SELECT " + COLUMNS + " FROM statement_differences WHERE id = ?",
                List.of(id),
                StatementDifferences::map);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** A day's differences, by id. */
    public static List<DifferenceRow> forDay(Connection c, String channel, LocalDate day) throws SQLException {
        return Rows.list(
                c,
                "SELECT " + COLUMNS + " FROM statement_differences WHERE channel = ? AND bill_date = ? ORDER BY id",
                List.of(channel, Date.valueOf(day)),
                StatementDifferences::map);
    }

    /** A page of differences, newest (highest id) first. */
    public static List<DifferenceRow> list(
            Connection c, String channel, String kind, String status, Long afterId, int rows) throws SQLException {
        var sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM statement_differences WHERE true");
        var args = new ArrayList<Object>();
        if (channel != null) {
            sql.append(" AND channel = ?");
            args.add(channel);
        }
        if (kind != null) {
            sql.append(" AND kind = ?");
            args.add(kind);
        }
        if (status != null) {
            sql.append(" AND status = ?");
            args.add(status);
        }
        if (afterId != null) {
            sql.append(" AND id < ?");
            args.add(afterId);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(rows);
        return Rows.list(c, sql.toString(), args, StatementDifferences::map);
    }

    /** OPEN differences by channel and kind (for the metrics): channel → kind → count. */
    public static Map<String, Map<String, Long>> openCounts(Connection c) throws SQLException {
        var out = new TreeMap<String, Map<String, Long>>();
        try (PreparedStatement ps = c.prepareStatement("SELECT channel, kind, count(*) FROM statement_differences"
                        + " WHERE status = 'OPEN' GROUP BY channel, kind");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.computeIfAbsent(rs.getString(1), k -> new TreeMap<>()).put(rs.getString(2), rs.getLong(3));
            }
        }
        return out;
    }

    private static void setLong(PreparedStatement ps, int i, Long v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.BIGINT);
        } else {
            ps.setLong(i, v);
        }
    }

    static DifferenceRow map(ResultSet rs) throws SQLException {
        return new DifferenceRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getDate(3).toLocalDate(),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                Rows.longOrNull(rs, 9),
                Rows.longOrNull(rs, 10),
                rs.getString(11),
                rs.getString(12),
                rs.getString(13),
                rs.getString(14),
                Rows.instant(rs.getTimestamp(15)),
                Rows.instant(rs.getTimestamp(16)),
                Rows.instant(rs.getTimestamp(17)));
    }
}
