package io.paynotify.persistence;

import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.LineType;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * Every statement on {@code statement_line_sets} and {@code statement_lines}: a bill's detail lines, staged under a
 * new set while the bill is read and made the day's by {@link Statements#read} (CONTRACT.md §11).
 */
public final class StatementLines {

    /**
     * One {@code COPY} per batch, in its text format: the cheapest way into PostgreSQL for both sides (no statement
     * to plan, no array literals to parse; a million-line bill's staging with {@code INSERT … SELECT FROM unnest} cost
     * the intake's notifications their latency: bench/README.md "Statements").
     */
    private static final String COPY = "COPY statement_lines (set_id, line_no, type, is_foreign, out_trade_no,"
            + " transaction_id, out_refund_no, amount_minor, fee, line_time, app_id, sub_merchant_id, status)"
            + " FROM STDIN";

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

    /**
     * Inserts a batch of staged lines with one {@code COPY}, in the caller's transaction (one per batch), which does
     * not wait for its commit to be flushed ({@code synchronous_commit = off} for it only). That is safe: staged lines are used only
     * once {@link Statements#read} made their set the day's, in a transaction that does wait, and PostgreSQL flushes
     * the log in order, so that commit being durable means every batch before it is too; a crash before it leaves a
     * set that no day holds, which the read is redone without and the retention deletes.
     */
    public static void insert(Connection c, long setId, List<Staged> lines) throws SQLException {
        var text = new StringBuilder(lines.size() * 160);
        for (Staged s : lines) {
            BillLine l = s.line();
            text.append(setId).append('\t').append(s.lineNo()).append('\t');
            field(text, l.type().name());
            field(text, s.foreign() ? "t" : "f");
            field(text, cut(l.outTradeNo(), 64));
            field(text, cut(l.transactionId(), 64));
            field(text, cut(l.outRefundNo(), 128));
            text.append(l.amount()).append('\t');
            field(text, l.fee() == null ? null : l.fee().toPlainString());
            field(text, l.time() == null ? null : l.time().toString());
            field(text, cut(l.appId(), 32));
            field(text, cut(l.subMerchantId(), 32));
            text.append(value(cut(l.status(), 32))).append('\n');
        }
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL synchronous_commit = off");
        }
        try {
            c.unwrap(PGConnection.class).getCopyAPI().copyIn(COPY, new StringReader(text.toString()));
        } catch (IOException e) {
            throw new SQLException("COPY of staged lines failed", e);
        }
    }

    private static void field(StringBuilder text, String v) {
        text.append(value(v)).append('\t');
    }

    /** A value in COPY's text format: {@code \N} for null, backslash, tab, newline and return escaped. */
    static String value(String v) {
        if (v == null) {
            return "\\N";
        }
        StringBuilder out = null;
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            String esc = switch (ch) {
                case '\\' -> "\\\\";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                default -> null;
            };
            if (esc != null && out == null) {
                out = new StringBuilder(v.length() + 8).append(v, 0, i);
            }
            if (out != null) {
                if (esc != null) {
                    out.append(esc);
                } else {
                    out.append(ch);
                }
            }
        }
        return out == null ? v : out.toString();
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
