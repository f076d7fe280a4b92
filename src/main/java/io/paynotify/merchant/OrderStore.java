package io.paynotify.merchant;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The merchant API's statements on {@code orders}, plain JDBC on the caller's connection so that they run inside
 * the Idempotency-Key transaction. The close locks the row ({@code SELECT … FOR UPDATE}) exactly as the
 * notification intake does, so a close and a payment for one order serialise and exactly one of them wins.
 */
final class OrderStore {

    private static final String COLUMNS = "id, channel, out_trade_no, provider, amount_minor, currency, description,"
            + " state, transaction_id, paid_at, created_at, updated_at, attention";
    private static final String FIND = "SELECT " + COLUMNS + " FROM orders WHERE channel = ? AND out_trade_no = ?";
    private static final String LOCK = FIND + " FOR UPDATE";
    private static final String INSERT = "INSERT INTO orders (channel, out_trade_no, provider, amount_minor,"
            + " currency, description, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)"
            + " ON CONFLICT (channel, out_trade_no) DO NOTHING RETURNING " + COLUMNS;
    private static final String CLOSE = "UPDATE orders SET state = 'CLOSED', updated_at = ?, version = version + 1"
            + " WHERE id = ? AND state = 'PENDING' RETURNING " + COLUMNS;

    private OrderStore() {}

    static OrderView find(Connection c, String channel, String outTradeNo) throws SQLException {
        return one(c, FIND, channel, outTradeNo);
    }

    /** Locks the order row until the transaction ends; null when there is no such order. */
    static OrderView lock(Connection c, String channel, String outTradeNo) throws SQLException {
        return one(c, LOCK, channel, outTradeNo);
    }

    /** Inserts a PENDING order; null when (channel, outTradeNo) exists already (the unique constraint decides). */
    static OrderView insert(Connection c, CreateOrderRequest r, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, r.channel().name());
            ps.setString(2, r.outTradeNo());
            ps.setString(3, r.channel().provider().name());
            ps.setLong(4, r.amount());
            ps.setString(5, r.currency());
            ps.setString(6, r.description());
            ps.setTimestamp(7, Timestamp.from(now));
            ps.setTimestamp(8, Timestamp.from(now));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? view(rs) : null;
            }
        }
    }

    /** Moves a locked PENDING order to CLOSED. */
    static OrderView close(Connection c, long id, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CLOSE)) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // the row is locked by this transaction: a miss means the lock did not hold; never commit that
                    throw new SQLException("order changed under its row lock", "40001");
                }
                return view(rs);
            }
        }
    }

    private static OrderView one(Connection c, String sql, String channel, String outTradeNo) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, channel);
            ps.setString(2, outTradeNo);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? view(rs) : null;
            }
        }
    }

    private static OrderView view(ResultSet rs) throws SQLException {
        Array attention = rs.getArray(13);
        List<String> reasons = attention == null ? List.of() : Arrays.asList((String[]) attention.getArray());
        return new OrderView(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getLong(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                instant(rs.getTimestamp(10)),
                instant(rs.getTimestamp(11)),
                instant(rs.getTimestamp(12)),
                List.copyOf(reasons));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
