package io.paynotify.persistence;

import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Every statement on {@code notifications}, and its one row mapping ({@link NotificationRow}). */
public final class Notifications {

    /** Deliveries recorded per (channel, outTradeNo); past that they are answered the same way and only counted. */
    public static final int MAX_RECORDED_PER_ORDER = 500;

    private static final String COLUMNS = "id, channel, out_trade_no, provider, received_at, outcome, reason,"
            + " provider_status, transaction_id, amount_minor, source, raw_body, decoded";
    private static final String INSERT_CAPPED = "INSERT INTO notifications (channel, provider, out_trade_no,"
            + " order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome, reason,"
            + " raw_body, decoded, received_at, source)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
            + " WHERE (SELECT count(*) FROM (SELECT 1 FROM notifications WHERE channel = ? AND out_trade_no = ?"
            + " LIMIT " + MAX_RECORDED_PER_ORDER + ") recorded) < " + MAX_RECORDED_PER_ORDER + " RETURNING id";
    private static final String FIND = "SELECT " + COLUMNS + " FROM notifications WHERE id = ?";
    private static final String KNOWN = "SELECT EXISTS (SELECT 1 FROM orders WHERE channel = ? AND out_trade_no = ?)"
            + " OR EXISTS (SELECT 1 FROM notifications WHERE channel = ? AND out_trade_no = ?)";

    private Notifications() {}

    /**
     * Records a delivery with its decision, unless the order already has {@link #MAX_RECORDED_PER_ORDER}.
     *
     * @param orderId the order's id, or null when there is no order
     * @return the new row's id, or null when it was not stored (the order is at the cap)
     */
    public static Long insertCapped(Connection c, VerifiedNotification n, Source source, Long orderId, Decision d)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT_CAPPED)) {
            int i = 1;
            ps.setString(i++, n.channel());
            ps.setString(i++, n.provider().name());
            ps.setString(i++, n.outTradeNo());
            setLong(ps, i++, orderId);
            ps.setString(i++, n.notifyId());
            ps.setString(i++, n.providerStatus());
            ps.setString(i++, n.transactionId());
            setLong(ps, i++, n.amountMinor());
            ps.setString(i++, n.currency());
            ps.setString(i++, d.outcome().name());
            ps.setString(i++, d.reason() == null ? null : d.reason().name());
            ps.setBytes(i++, n.rawBody());
            ps.setString(i++, n.decoded());
            ps.setTimestamp(i++, Timestamp.from(n.receivedAt()));
            ps.setString(i++, source.name());
            ps.setString(i++, n.channel());
            ps.setString(i, n.outTradeNo());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** True when an order or at least one recorded notification exists for this pair. */
    public static boolean known(Connection c, String channel, String outTradeNo) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(KNOWN)) {
            ps.setString(1, channel);
            ps.setString(2, outTradeNo);
            ps.setString(3, channel);
            ps.setString(4, outTradeNo);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** One (channel, outTradeNo)'s notifications, oldest first, after the given id (keyset). */
    /** The notification of that id, or null. */
    public static NotificationRow find(Connection c, long id) throws SQLException {
        List<NotificationRow> rows = Rows.list(c, FIND, List.of(id), Notifications::map);
        return rows.isEmpty() ? null : rows.get(0);
    }

    public static List<NotificationRow> forOrder(
            Connection c, String channel, String outTradeNo, Long afterId, int rows) throws SQLException {
        var sql = new StringBuilder("SELECT ")
                .append(COLUMNS)
                .append(" FROM notifications WHERE channel = ? AND out_trade_no = ?");
        var args = new ArrayList<Object>(List.of(channel, outTradeNo));
        if (afterId != null) {
            sql.append(" AND id > ?");
            args.add(afterId);
        }
        sql.append(" ORDER BY id ASC LIMIT ?");
        args.add(rows);
        return Rows.list(c, sql.toString(), args, Notifications::map);
    }

    /** Notifications newest first (by id), optionally filtered; each filter has its own index (V4). */
    public static List<NotificationRow> list(
            Connection c, String outcome, String channel, String source, Long afterId, int rows) throws SQLException {
        var sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM notifications WHERE true");
        var args = new ArrayList<Object>();
        if (source != null) {
            sql.append(" AND source = ?");
            args.add(source);
        }
        if (outcome != null) {
            sql.append(" AND outcome = ?");
            args.add(outcome);
        }
        if (channel != null) {
            sql.append(" AND channel = ?");
            args.add(channel);
        }
        if (afterId != null) {
            sql.append(" AND id < ?");
            args.add(afterId);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(rows);
        return Rows.list(c, sql.toString(), args, Notifications::map);
    }

    private static NotificationRow map(ResultSet rs) throws SQLException {
        return new NotificationRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                Rows.instant(rs.getTimestamp(5)),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                Rows.longOrNull(rs, 10),
                rs.getString(11),
                rs.getBytes(12),
                rs.getString(13));
    }

    private static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }
}
