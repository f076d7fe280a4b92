package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Every statement on {@code events}, and its one row mapping ({@link EventRow}). Events are inserted inside the
 * transaction of the change they report; nothing ever updates one.
 */
public final class Events {

    /** Rows per retention DELETE, at most. */
    public static final int BATCH = 1000;

    private static final String COLUMNS = "id, event_id, type, channel, out_trade_no, order_id, body, created_at";
    private static final String INSERT = "INSERT INTO events (event_id, type, channel, out_trade_no, order_id, body,"
            + " created_at, sub_merchant_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id";
    /** A batch's events in one statement, in order (their ids follow it); the ids only when asked (deliveries). */
    private static final String INSERT_ALL = "INSERT INTO events (event_id, type, channel, out_trade_no, order_id,"
            + " body, created_at, sub_merchant_id) SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[],"
            + " ?::bigint[], ?::bytea[], ?::timestamptz[], ?::text[])";

    private static final String FIND = "SELECT " + COLUMNS + " FROM events WHERE event_id = ?";
    /**
     * The pull list: only events whose inserting transaction is older than every transaction still running, so that
     * an event committed later with a lower id can never be skipped by a cursor that went past it.
     */
    private static final String VISIBLE = " AND xid < pg_snapshot_xmin(pg_current_snapshot())";

    private static final String DELETE_OLD = "DELETE FROM events WHERE id IN (SELECT e.id FROM events e"
            + " WHERE e.created_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id"
            + " AND d.state = 'PENDING') ORDER BY e.id LIMIT " + BATCH + " FOR UPDATE SKIP LOCKED)";

    private Events() {}

    /** Inserts an event; its internal id. */
    public static long insert(
            Connection c,
            String eventId,
            String type,
            String channel,
            String outTradeNo,
            long orderId,
            byte[] body,
            Instant createdAt,
            String subMerchantId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, eventId);
            ps.setString(2, type);
            ps.setString(3, channel);
            ps.setString(4, outTradeNo);
            ps.setLong(5, orderId);
            ps.setBytes(6, body);
            ps.setTimestamp(7, Timestamp.from(createdAt));
            ps.setString(8, subMerchantId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** One event to insert ({@link #insertAll}). */
    public record NewEvent(
            String eventId,
            String type,
            String channel,
            String outTradeNo,
            long orderId,
            byte[] body,
            Instant createdAt,
            String subMerchantId) {}

    /**
     * Inserts events in one statement, in this order.
     *
     * @param ids whether to return the internal ids (a delivery row needs its event's)
     * @return the internal ids in the events' order, or null when not asked
     */
    public static long[] insertAll(Connection c, List<NewEvent> events, boolean ids) throws SQLException {
        int size = events.size();
        String[] eventId = new String[size];
        String[] type = new String[size];
        String[] channel = new String[size];
        String[] outTradeNo = new String[size];
        Long[] orderId = new Long[size];
        byte[][] body = new byte[size][];
        String[] createdAt = new String[size];
        String[] subMerchantId = new String[size];
        for (int i = 0; i < size; i++) {
            NewEvent e = events.get(i);
            eventId[i] = e.eventId();
            type[i] = e.type();
            channel[i] = e.channel();
            outTradeNo[i] = e.outTradeNo();
            orderId[i] = e.orderId();
            body[i] = e.body();
            createdAt[i] = e.createdAt().toString();
            subMerchantId[i] = e.subMerchantId();
        }
        try (PreparedStatement ps = c.prepareStatement(ids ? INSERT_ALL + " RETURNING id, event_id" : INSERT_ALL)) {
            ps.setArray(1, c.createArrayOf("text", eventId));
            ps.setArray(2, c.createArrayOf("text", type));
            ps.setArray(3, c.createArrayOf("text", channel));
            ps.setArray(4, c.createArrayOf("text", outTradeNo));
            ps.setArray(5, c.createArrayOf("bigint", orderId));
            ps.setArray(6, c.createArrayOf("bytea", body));
            ps.setArray(7, c.createArrayOf("text", createdAt));
            ps.setArray(8, c.createArrayOf("text", subMerchantId));
            if (!ids) {
                ps.executeUpdate();
                return null;
            }
            var byEventId = new java.util.HashMap<String, Long>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byEventId.put(rs.getString(2), rs.getLong(1));
                }
            }
            long[] out = new long[size];
            for (int i = 0; i < size; i++) {
                out[i] = byEventId.get(eventId[i]);
            }
            return out;
        }
    }

    /** The event of that public id, or null. */
    public static EventRow find(Connection c, String eventId) throws SQLException {
        List<EventRow> rows = Rows.list(c, FIND, List.of(eventId), Events::map);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /**
     * Events newest first (admin), optionally filtered. {@code client} and {@code state} keep the events that have
     * a delivery in that state (to that client).
     */
    public static List<EventRow> list(
            Connection c, String type, String channel, String client, String state, Long afterId, int rows)
            throws SQLException {
        var sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM events e WHERE true");
        var args = new ArrayList<Object>();
        if (type != null) {
            sql.append(" AND type = ?");
            args.add(type);
        }
        if (channel != null) {
            sql.append(" AND channel = ?");
            args.add(channel);
        }
        if (client != null || state != null) {
            sql.append(" AND EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id");
            if (client != null) {
                sql.append(" AND d.client_id = ?");
                args.add(client);
            }
            if (state != null) {
                sql.append(" AND d.state = ?");
                args.add(state);
            }
            sql.append(")");
        }
        if (afterId != null) {
            sql.append(" AND id < ?");
            args.add(afterId);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(rows);
        return Rows.list(c, sql.toString(), args, Events::map);
    }

    /**
     * The events of these channels after that id, oldest first, that no running transaction can precede; with
     * {@code subMerchants} not empty, only the events of orders with no sub-merchant or one of these.
     */
    public static List<EventRow> pull(
            Connection c, List<String> channels, java.util.Set<String> subMerchants, long afterId, int rows)
            throws SQLException {
        String sql = "SELECT " + COLUMNS + " FROM events WHERE channel = ANY (?) AND id > ?" + VISIBLE
                + (subMerchants.isEmpty() ? "" : " AND (sub_merchant_id IS NULL OR sub_merchant_id = ANY (?))")
                + " ORDER BY id LIMIT ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            ps.setArray(i++, c.createArrayOf("text", channels.toArray(new String[0])));
            ps.setLong(i++, afterId);
            if (!subMerchants.isEmpty()) {
                ps.setArray(i++, c.createArrayOf("text", subMerchants.toArray(new String[0])));
            }
            ps.setInt(i, rows);
            try (ResultSet rs = ps.executeQuery()) {
                var out = new ArrayList<EventRow>();
                while (rs.next()) {
                    out.add(map(rs));
                }
                return out;
            }
        }
    }

    /** Deletes up to {@link #BATCH} events older than that and with no PENDING delivery; the rows deleted. */
    public static int deleteOld(Connection c, Instant before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE_OLD)) {
            ps.setTimestamp(1, Timestamp.from(before));
            return ps.executeUpdate();
        }
    }

    private static EventRow map(ResultSet rs) throws SQLException {
        return new EventRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getLong(6),
                rs.getBytes(7),
                Rows.instant(rs.getTimestamp(8)));
    }
}
