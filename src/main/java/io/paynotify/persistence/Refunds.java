package io.paynotify.persistence;

import io.paynotify.core.order.RefundChange;
import io.paynotify.core.order.RefundStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * Every statement on {@code refunds}, and its one row mapping ({@link RefundRow}). Refund rows are only written
 * under their order's row lock, in the transaction of the notification that changes them.
 */
public final class Refunds {

    private static final String COLUMNS =
            "id, order_id, out_refund_no, refund_id, amount_minor, status, succeeded_at, created_at, updated_at";
    private static final String FIND =
            "SELECT " + COLUMNS + " FROM refunds WHERE channel = ? AND out_trade_no = ?" + " AND out_refund_no = ?";
    private static final String FOR_ORDER = "SELECT " + COLUMNS + " FROM refunds WHERE order_id = ? ORDER BY id";
    /**
     * Creates the refund or moves it to its new status. The conflict target is the unique refund identity: should
     * the row lock ever fail to serialise two writers, the second one updates instead of adding a second refund.
     */
    private static final String UPSERT = "INSERT INTO refunds (order_id, channel, out_trade_no, out_refund_no,"
            + " refund_id, amount_minor, status, succeeded_at, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, coalesce(?, 0), ?, ?, ?, ?)"
            + " ON CONFLICT (channel, out_trade_no, out_refund_no) DO UPDATE SET"
            + " refund_id = coalesce(EXCLUDED.refund_id, refunds.refund_id),"
            + " amount_minor = coalesce(?, refunds.amount_minor),"
            + " status = EXCLUDED.status, succeeded_at = EXCLUDED.succeeded_at, updated_at = EXCLUDED.updated_at"
            + " WHERE refunds.status <> 'SUCCESS' AND refunds.status <> 'CLOSED'";

    private Refunds() {}

    /** The refund of that identity, or null. */
    public static RefundRow find(Connection c, String channel, String outTradeNo, String outRefundNo)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FIND)) {
            ps.setString(1, channel);
            ps.setString(2, outTradeNo);
            ps.setString(3, outRefundNo);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? map(rs) : null;
            }
        }
    }

    /** An order's refunds, oldest first. */
    public static List<RefundRow> forOrder(Connection c, long orderId) throws SQLException {
        return Rows.list(c, FOR_ORDER, List.of(orderId), Refunds::map);
    }

    /**
     * Writes a decided change. A change that states no amount keeps the one the row holds (0 for a new row). A final
     * refund (SUCCESS or CLOSED) is never changed again: the conditional update
     * refuses, and that refusal under the row lock means the decision was made on a stale row, so nothing commits.
     */
    public static void apply(
            Connection c, long orderId, String channel, String outTradeNo, RefundChange change, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
            ps.setLong(1, orderId);
            ps.setString(2, channel);
            ps.setString(3, outTradeNo);
            ps.setString(4, change.outRefundNo());
            ps.setString(5, change.refundId());
            setAmount(ps, 6, change.amount());
            ps.setString(7, change.status().name());
            ps.setTimestamp(8, change.succeededAt() == null ? null : Timestamp.from(change.succeededAt()));
            ps.setTimestamp(9, Timestamp.from(now));
            ps.setTimestamp(10, Timestamp.from(now));
            setAmount(ps, 11, change.amount());
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("refund changed under its order's row lock");
            }
        }
    }

    private static void setAmount(PreparedStatement ps, int index, Long amount) throws SQLException {
        if (amount == null) {
            ps.setNull(index, java.sql.Types.BIGINT);
        } else {
            ps.setLong(index, amount);
        }
    }

    private static RefundRow map(ResultSet rs) throws SQLException {
        return new RefundRow(
                rs.getLong(1),
                rs.getLong(2),
                rs.getString(3),
                rs.getString(4),
                rs.getLong(5),
                RefundStatus.valueOf(rs.getString(6)),
                Rows.instant(rs.getTimestamp(7)),
                Rows.instant(rs.getTimestamp(8)),
                Rows.instant(rs.getTimestamp(9)));
    }

    /** A refund as the statements compare it: its order's number, its number, amount, status and success time. */
    public record Compared(
            long id, String outTradeNo, String outRefundNo, long amount, String status, Instant succeededAt) {}

    /** The refunds of these orders of the channel (a plain read). */
    public static List<Compared> ofOrders(Connection c, String channel, List<String> outTradeNos) throws SQLException {
        if (outTradeNos.isEmpty()) {
            return List.of();
        }
        return Rows.list(
                c,
                COMPARED + " WHERE channel = ? AND out_trade_no = ANY (?)",
                List.of(channel, c.createArrayOf("text", outTradeNos.toArray(new String[0]))),
                Refunds::compared);
    }

    /** The channel's refunds that succeeded in [{@code from}, {@code to}), a page by id. */
    public static List<Compared> succeededBetween(
            Connection c, String channel, Instant from, Instant to, long afterId, int rows) throws SQLException {
        return Rows.list(
                c,
                COMPARED
                        + " WHERE channel = ? AND status = 'SUCCESS' AND succeeded_at >= ? AND succeeded_at < ?"
                        + " AND id > ? ORDER BY id LIMIT ?",
                List.of(channel, Timestamp.from(from), Timestamp.from(to), afterId, rows),
                Refunds::compared);
    }

    /** The columns of a {@link Compared}, in the order {@link #compared} reads them. */
    private static final String COMPARED =
            "SELECT out_trade_no, out_refund_no, amount_minor, status, succeeded_at, id FROM refunds";

    private static Compared compared(ResultSet rs) throws SQLException {
        return new Compared(
                rs.getLong(6),
                rs.getString(1),
                rs.getString(2),
                rs.getLong(3),
                rs.getString(4),
                Rows.instant(rs.getTimestamp(5)));
    }
}
