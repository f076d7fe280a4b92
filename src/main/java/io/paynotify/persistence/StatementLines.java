package io.paynotify.persistence;

import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.LineType;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Every statement on {@code statement_line_sets} and {@code statement_lines}: a bill's detail lines, staged under a
 * new set while the bill is read and made the day's by {@link Statements#read} (CONTRACT.md §11).
 */
public final class StatementLines {

    /**
     * One statement per batch: the columns travel as arrays and {@code unnest} turns them into rows, so a batch of a
     * thousand lines is parsed and executed once instead of a thousand times (staging was 85 % of a million-line
     * reconcile with one INSERT per row: bench/README.md "Bills").
     */
    private static final String INSERT = "INSERT INTO statement_lines (set_id, line_no, type, is_foreign,"
            + " out_trade_no, transaction_id, out_refund_no, amount_minor, fee, line_time, app_id, sub_merchant_id,"
            + " status) SELECT ?, * FROM unnest(?::int4[], ?::varchar[], ?::bool[], ?::varchar[], ?::varchar[],"
            + " ?::varchar[], ?::int8[], ?::numeric[], ?::timestamp[], ?::varchar[], ?::varchar[], ?::varchar[])";

    private static final String PAGE = "SELECT line_no, type, out_trade_no, transaction_id, out_refund_no,"
            + " amount_minor, sub_merchant_id, status FROM statement_lines WHERE set_id = ? AND line_no > ?"
            + " AND NOT is_foreign AND type <> 'OTHER' ORDER BY line_no LIMIT ?";

    private StatementLines() {}

    /** A new, empty set for the lines of a bill of that day. */
    public static long newSet(Connection c, String channel, LocalDate day) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO statement_line_sets (channel, bill_date) VALUES (?, ?) RETURNING id")) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** One staged line: the bill's line, its number in the bill and whether it is another's trade. */
    public record Staged(int lineNo, BillLine line, boolean foreign) {}

    /** Inserts a batch of staged lines with one statement. */
    public static void insert(Connection c, long setId, List<Staged> lines) throws SQLException {
        int n = lines.size();
        Integer[] lineNo = new Integer[n];
        String[] type = new String[n];
        Boolean[] foreign = new Boolean[n];
        String[] outTradeNo = new String[n];
        String[] transactionId = new String[n];
        String[] outRefundNo = new String[n];
        Long[] amount = new Long[n];
        BigDecimal[] fee = new BigDecimal[n];
        Timestamp[] time = new Timestamp[n];
        String[] appId = new String[n];
        String[] subMerchantId = new String[n];
        String[] status = new String[n];
        for (int i = 0; i < n; i++) {
            Staged s = lines.get(i);
            BillLine l = s.line();
            lineNo[i] = s.lineNo();
            type[i] = l.type().name();
            foreign[i] = s.foreign();
            outTradeNo[i] = cut(l.outTradeNo(), 64);
            transactionId[i] = cut(l.transactionId(), 64);
            outRefundNo[i] = cut(l.outRefundNo(), 128);
            amount[i] = l.amount();
            fee[i] = l.fee();
            time[i] = l.time() == null ? null : Timestamp.valueOf(l.time());
            appId[i] = cut(l.appId(), 32);
            subMerchantId[i] = cut(l.subMerchantId(), 32);
            status[i] = cut(l.status(), 32);
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setLong(1, setId);
            ps.setArray(2, c.createArrayOf("int4", lineNo));
            ps.setArray(3, c.createArrayOf("varchar", type));
            ps.setArray(4, c.createArrayOf("bool", foreign));
            ps.setArray(5, c.createArrayOf("varchar", outTradeNo));
            ps.setArray(6, c.createArrayOf("varchar", transactionId));
            ps.setArray(7, c.createArrayOf("varchar", outRefundNo));
            ps.setArray(8, c.createArrayOf("int8", amount));
            ps.setArray(9, c.createArrayOf("numeric", fee));
            ps.setArray(10, c.createArrayOf("timestamp", time));
            ps.setArray(11, c.createArrayOf("varchar", appId));
            ps.setArray(12, c.createArrayOf("varchar", subMerchantId));
            ps.setArray(13, c.createArrayOf("varchar", status));
            ps.executeUpdate();
        }
    }

    /** A compared line as read back: payments and refunds of the channel's own trades. */
    public record Compared(
            int lineNo,
            LineType type,
            String outTradeNo,
            String transactionId,
            String outRefundNo,
            long amount,
            String subMerchantId,
            String status) {}

    /** The next page of a set's compared lines after {@code afterLineNo}, in bill order. */
    public static List<Compared> page(Connection c, long setId, int afterLineNo, int rows) throws SQLException {
        return Rows.list(
                c,
                PAGE,
                List.of(setId, afterLineNo, rows),
                rs -> new Compared(
                        rs.getInt(1),
                        LineType.valueOf(rs.getString(2)),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getLong(6),
                        rs.getString(7),
                        rs.getString(8)));
    }

    /**
     * Which of these order numbers have a payment line of the channel's own in the bills of {@code from} …
     * {@code to} that the days hold now.
     */
    public static List<String> paidInBills(
            Connection c, String channel, LocalDate from, LocalDate to, List<String> outTradeNos) throws SQLException {
        if (outTradeNos.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT l.out_trade_no FROM statement_lines l"
                + " JOIN statements s ON s.line_set_id = l.set_id WHERE s.channel = ? AND s.bill_date BETWEEN ? AND ?"
                + " AND l.out_trade_no = ANY (?) AND NOT l.is_foreign AND l.type = 'PAYMENT'")) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(from));
            ps.setDate(3, Date.valueOf(to));
            ps.setArray(4, c.createArrayOf("text", outTradeNos.toArray(new String[0])));
            var out = new ArrayList<String>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }

    /**
     * Deletes up to {@code batch} lines of a set that no day holds (replaced, or staged by a read that failed);
     * its set row goes with its last line. Returns how many lines it deleted.
     */
    public static int deleteSet(Connection c, long setId, int batch) throws SQLException {
        int deleted;
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM statement_lines WHERE set_id = ? AND line_no IN"
                + " (SELECT line_no FROM statement_lines WHERE set_id = ? ORDER BY line_no LIMIT ?)")) {
            ps.setLong(1, setId);
            ps.setLong(2, setId);
            ps.setInt(3, batch);
            deleted = ps.executeUpdate();
        }
        if (deleted < batch) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM statement_line_sets WHERE id = ?"
                    + " AND NOT EXISTS (SELECT 1 FROM statements WHERE line_set_id = ?)")) {
                ps.setLong(1, setId);
                ps.setLong(2, setId);
                ps.executeUpdate();
            }
        }
        return deleted;
    }

    /**
     * Up to {@code limit} line sets to delete: those of days before {@code keepFrom} (past
     * {@code paynotify.statements.retention}), and staged sets that never became a day's and are over a day old (a
     * read that died with its replica).
     */
    public static List<Long> expiredSets(Connection c, LocalDate keepFrom, int limit) throws SQLException {
        return Rows.list(
                c,
                "SELECT ls.id FROM statement_line_sets ls WHERE ls.bill_date < ? OR (ls.created_at < now() - interval"
                        + " '1 day' AND NOT EXISTS (SELECT 1 FROM statements s WHERE s.line_set_id = ls.id))"
                        + " ORDER BY ls.id LIMIT ?",
                List.of(Date.valueOf(keepFrom), limit),
                rs -> rs.getLong(1));
    }

    /** The day no longer holds its lines (they are past the retention); its totals and differences stay. */
    public static void detach(Connection c, long setId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE statements SET line_set_id = null WHERE line_set_id = ?")) {
            ps.setLong(1, setId);
            ps.executeUpdate();
        }
    }

    private static String cut(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
