package io.paynotify.persistence;

import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Every statement on {@code notifications}, and its one row mapping ({@link NotificationRow}). */
public final class Notifications {

    /** Deliveries recorded per (channel, outTradeNo); past that they are answered the same way and only counted. */
    public static final int MAX_RECORDED_PER_ORDER = 500;

    /**
     * The columns of {@link #map}, of a notification {@code n} whose body, when {@code n} does not hold it, is in the
     * row {@code b} it points at (V10): every read shows the bytes on every row.
     */
    private static final String COLUMNS = "n.id, n.channel, n.out_trade_no, n.provider, n.received_at, n.outcome,"
            + " n.reason, n.provider_status, n.transaction_id, n.amount_minor, n.source,"
            + " coalesce(n.raw_body, b.raw_body) AS raw_body, n.decoded,"
            + " coalesce(n.personal_data_erased_at, b.personal_data_erased_at) AS personal_data_erased_at";
    /** What a page's keyset walk reads of each row: the bodies as stored (values PostgreSQL fetches only to send). */
    private static final String KEYSET_COLUMNS = "id, channel, out_trade_no, provider, received_at, outcome, reason,"
            + " provider_status, transaction_id, amount_minor, source, raw_body, body_id, decoded,"
            + " personal_data_erased_at";

    /** The row holding the body: the same order's, received the same UTC day, so in the same partition (V15). */
    private static final String WITH_BODY = " notifications b ON b.id = n.body_id";

    /**
     * The body's bytes are stored only when no row of the same order holds the same bytes already (same SHA-256,
     * found through notifications_channel_out_trade_no_idx, the index the cap's count walks); otherwise the row
     * points at the one that holds them. Only a row received the same UTC day (from the second parameter of the
     * holder lookup on) holds the bytes for a new one: a holder and the rows pointing at it are then always in one
     * monthly partition (dropped together) and reach the personal-data retention within a day of each other (V15).
     * Still one statement.
     */
    private static final String INSERT_CAPPED = "INSERT INTO notifications (channel, provider, out_trade_no,"
            + " order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome, reason,"
            + " raw_body, raw_body_sha256, body_id, decoded, received_at, source)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN stored.id IS NULL THEN ?::bytea END, ?, stored.id,"
            + " ?, ?, ?"
            + " FROM (VALUES (1)) one LEFT JOIN (SELECT id FROM notifications WHERE channel = ? AND out_trade_no = ?"
            + " AND raw_body_sha256 = ? AND body_id IS NULL AND received_at >= ? AND personal_data_erased_at IS NULL"
            + " ORDER BY id LIMIT 1) stored ON true"
            + " WHERE (SELECT count(*) FROM (SELECT 1 FROM notifications WHERE channel = ? AND out_trade_no = ?"
            + " LIMIT " + MAX_RECORDED_PER_ORDER + ") recorded) < " + MAX_RECORDED_PER_ORDER + " RETURNING id";

    /**
     * {@link #INSERT_CAPPED} for a whole batch in one statement, with the same rules applied as if its members were
     * inserted one after the other in arrival order ({@code pos}): a member is recorded while its order has fewer
     * than {@link #MAX_RECORDED_PER_ORDER} rows, counting the batch's members before it; its body is stored unless a
     * row of the same order and day already holds the same bytes (an older row, else the batch's first member with
     * them, which then stores them). Ids are taken from the identity's sequence in arrival order, so the rows keep
     * the order of one-by-one inserts, and a member's body can point at an earlier member's row in the same
     * statement. Answers (pos, id) for every member recorded.
     */
    private static final String INSERT_ALL = "WITH m AS MATERIALIZED (SELECT u.*,"
            + " date_trunc('day', u.received_at, 'UTC') AS day_start FROM unnest(?::text[], ?::text[], ?::text[],"
            + " ?::bigint[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::bytea[],"
            + " ?::bytea[], ?::text[], ?::timestamptz[], ?::text[]) WITH ORDINALITY AS u(channel, provider,"
            + " out_trade_no, order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome,"
            + " reason, raw_body, sha, decoded, received_at, source, pos)),"
            + " recorded AS (SELECT k.channel, k.out_trade_no, (SELECT count(*) FROM (SELECT 1 FROM notifications x"
            + " WHERE x.channel = k.channel AND x.out_trade_no = k.out_trade_no LIMIT " + MAX_RECORDED_PER_ORDER
            + ") r) AS n FROM (SELECT DISTINCT channel, out_trade_no FROM m) k),"
            + " kept AS (SELECT m.* FROM (SELECT m.*, row_number() OVER (PARTITION BY m.channel, m.out_trade_no"
            + " ORDER BY m.pos) AS nth FROM m) m JOIN recorded r ON r.channel = m.channel"
            + " AND r.out_trade_no = m.out_trade_no WHERE r.n + m.nth <= " + MAX_RECORDED_PER_ORDER + "),"
            // volatile output expressions are evaluated after the sort: ids in arrival order (the sequence looked up
            // once)
            + " numbered AS MATERIALIZED (SELECT nextval((SELECT pg_get_serial_sequence('notifications', 'id')::regclass)) AS id, kept.*"
            + " FROM kept ORDER BY kept.pos),"
            + " stored AS (SELECT p.channel, p.out_trade_no, p.sha, p.day_start, (SELECT x.id FROM notifications x"
            + " WHERE x.channel = p.channel AND x.out_trade_no = p.out_trade_no AND x.raw_body_sha256 = p.sha"
            + " AND x.body_id IS NULL AND x.received_at >= p.day_start AND x.personal_data_erased_at IS NULL"
            + " ORDER BY x.id LIMIT 1) AS holder FROM (SELECT DISTINCT channel, out_trade_no, sha, day_start"
            + " FROM numbered) p),"
            + " rows AS (SELECT n.*, coalesce(s.holder, nullif(first_value(n.id) OVER (PARTITION BY n.channel,"
            + " n.out_trade_no, n.sha, n.day_start ORDER BY n.pos), n.id)) AS body_id FROM numbered n JOIN stored s"
            + " ON s.channel = n.channel AND s.out_trade_no = n.out_trade_no AND s.sha = n.sha"
            + " AND s.day_start = n.day_start),"
            + " ins AS (INSERT INTO notifications (id, channel, provider, out_trade_no, order_id, notify_id,"
            + " provider_status, transaction_id, amount_minor, currency, outcome, reason, raw_body, raw_body_sha256,"
            + " body_id, decoded, received_at, source) OVERRIDING SYSTEM VALUE SELECT id, channel, provider,"
            + " out_trade_no, order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome,"
            + " reason, CASE WHEN body_id IS NULL THEN raw_body END, sha, body_id, decoded, received_at, source"
            + " FROM rows ORDER BY pos)"
            + " SELECT pos, id FROM numbered";

    private static final String FIND =
            "SELECT " + COLUMNS + " FROM notifications n LEFT JOIN" + WITH_BODY + " WHERE n.id = ?";
    private static final String KNOWN = "SELECT EXISTS (SELECT 1 FROM orders WHERE channel = ? AND out_trade_no = ?)"
            + " OR EXISTS (SELECT 1 FROM notifications WHERE channel = ? AND out_trade_no = ?)";

    /**
     * One page of a list: the rows shown, and whether more follow them (continue after the last one).
     *
     * @param rows at least one row unless the list is empty at this point
     * @param more true when the list goes on after the last row shown (cut by the row limit or by the bytes)
     */
    public record Page(List<NotificationRow> rows, boolean more) {}

    private Notifications() {}

    /**
     * Records a delivery with its decision, unless the order already has {@link #MAX_RECORDED_PER_ORDER}. A body
     * byte-identical to one this order already holds is not stored again: the row points at the one that holds it.
     *
     * @param orderId the order's id, or null when there is no order
     * @return the new row's id, or null when it was not stored (the order is at the cap)
     */
    public static Long insertCapped(Connection c, VerifiedNotification n, Source source, Long orderId, Decision d)
            throws SQLException {
        byte[] sha256 = sha256(n.rawBody());
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
            ps.setBytes(i++, sha256);
            ps.setString(i++, n.decoded());
            ps.setTimestamp(i++, Timestamp.from(n.receivedAt()));
            ps.setString(i++, source.name());
            ps.setString(i++, n.channel());
            ps.setString(i++, n.outTradeNo());
            ps.setBytes(i++, sha256);
            ps.setTimestamp(i++, Timestamp.from(n.receivedAt().truncatedTo(ChronoUnit.DAYS)));
            ps.setString(i++, n.channel());
            ps.setString(i, n.outTradeNo());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /**
     * One delivery to record with its decision ({@link #insertAll}).
     *
     * @param orderId the order's id, or null when there is no order
     */
    public record Insert(VerifiedNotification n, Source source, Long orderId, Decision d) {}

    /**
     * Records a batch of deliveries in one statement, each as {@link #insertCapped} would have recorded it had they
     * been inserted one after the other in this order (the cap, the body stored once per order and day).
     *
     * @return each member's new row id, in order, or null when it was not stored (its order is at the cap)
     */
    public static Long[] insertAll(Connection c, List<Insert> rows) throws SQLException {
        int size = rows.size();
        String[] channel = new String[size];
        String[] provider = new String[size];
        String[] outTradeNo = new String[size];
        Long[] orderId = new Long[size];
        String[] notifyId = new String[size];
        String[] providerStatus = new String[size];
        String[] transactionId = new String[size];
        Long[] amount = new Long[size];
        String[] currency = new String[size];
        String[] outcome = new String[size];
        String[] reason = new String[size];
        byte[][] body = new byte[size][];
        byte[][] sha = new byte[size][];
        String[] decoded = new String[size];
        String[] receivedAt = new String[size];
        String[] source = new String[size];
        for (int i = 0; i < size; i++) {
            Insert r = rows.get(i);
            VerifiedNotification n = r.n();
            channel[i] = n.channel();
            provider[i] = n.provider().name();
            outTradeNo[i] = n.outTradeNo();
            orderId[i] = r.orderId();
            notifyId[i] = n.notifyId();
            providerStatus[i] = n.providerStatus();
            transactionId[i] = n.transactionId();
            amount[i] = n.amountMinor();
            currency[i] = n.currency();
            outcome[i] = r.d().outcome().name();
            reason[i] = r.d().reason() == null ? null : r.d().reason().name();
            body[i] = n.rawBody();
            sha[i] = sha256(n.rawBody());
            decoded[i] = n.decoded();
            receivedAt[i] = n.receivedAt().toString();
            source[i] = r.source().name();
        }
        Long[] ids = new Long[size];
        try (PreparedStatement ps = c.prepareStatement(INSERT_ALL)) {
            int i = 1;
            ps.setArray(i++, c.createArrayOf("text", channel));
            ps.setArray(i++, c.createArrayOf("text", provider));
            ps.setArray(i++, c.createArrayOf("text", outTradeNo));
            ps.setArray(i++, c.createArrayOf("bigint", orderId));
            ps.setArray(i++, c.createArrayOf("text", notifyId));
            ps.setArray(i++, c.createArrayOf("text", providerStatus));
            ps.setArray(i++, c.createArrayOf("text", transactionId));
            ps.setArray(i++, c.createArrayOf("bigint", amount));
            ps.setArray(i++, c.createArrayOf("text", currency));
            ps.setArray(i++, c.createArrayOf("text", outcome));
            ps.setArray(i++, c.createArrayOf("text", reason));
            ps.setArray(i++, c.createArrayOf("bytea", body));
            ps.setArray(i++, c.createArrayOf("bytea", sha));
            ps.setArray(i++, c.createArrayOf("text", decoded));
            ps.setArray(i++, c.createArrayOf("text", receivedAt));
            ps.setArray(i, c.createArrayOf("text", source));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids[rs.getInt(1) - 1] = rs.getLong(2);
                }
            }
        }
        return ids;
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

    /** The notification of that id, or null. */
    public static NotificationRow find(Connection c, long id) throws SQLException {
        List<NotificationRow> rows = Rows.list(c, FIND, List.of(id), Notifications::map);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /**
     * One (channel, outTradeNo)'s notifications, oldest first, after the given id (keyset): at most {@code rows},
     * and no more than fit in {@code maxBytes} (see {@link #page}).
     */
    public static Page forOrder(Connection c, String channel, String outTradeNo, Long afterId, int rows, long maxBytes)
            throws SQLException {
        var where = new StringBuilder("channel = ? AND out_trade_no = ?");
        var args = new ArrayList<Object>(List.of(channel, outTradeNo));
        if (afterId != null) {
            where.append(" AND id > ?");
            args.add(afterId);
        }
        return page(c, where.toString(), args, "ASC", rows, maxBytes);
    }

    /**
     * Notifications newest first (by id), optionally filtered (each filter has its own index, V4): at most
     * {@code rows}, and no more than fit in {@code maxBytes} (see {@link #page}).
     */
    public static Page list(
            Connection c, String outcome, String channel, String source, Long afterId, int rows, long maxBytes)
            throws SQLException {
        var where = new StringBuilder("true");
        var args = new ArrayList<Object>();
        if (source != null) {
            where.append(" AND source = ?");
            args.add(source);
        }
        if (outcome != null) {
            where.append(" AND outcome = ?");
            args.add(outcome);
        }
        if (channel != null) {
            where.append(" AND channel = ?");
            args.add(channel);
        }
        if (afterId != null) {
            where.append(" AND id < ?");
            args.add(afterId);
        }
        return page(c, where.toString(), args, "DESC", rows, maxBytes);
    }

    /**
     * One keyset page in one statement, bounded by bytes: the first {@code rows + 1} rows of the walk are found
     * through the filter's index, and of those only the first ones whose bodies and decoded texts (as stored,
     * {@code octet_length}, which PostgreSQL reads from the value's header without fetching it) add up to at most
     * {@code maxBytes} are sent, at most {@code rows}, and always the first. So the driver, which holds a whole
     * result in memory, never receives more than {@code maxBytes} of bodies (or the first row alone, when it is
     * larger), whatever the page size; {@code total} (the rows found, up to {@code rows + 1}) tells whether more
     * follow.
     */
    private static Page page(Connection c, String where, List<Object> args, String direction, int rows, long maxBytes)
            throws SQLException {
        String sql = "SELECT id, channel, out_trade_no, provider, received_at, outcome, reason, provider_status,"
                + " transaction_id, amount_minor, source, raw_body, decoded, personal_data_erased_at, total FROM (SELECT "
                + COLUMNS + ","
                + " row_number() OVER w AS rn,"
                + " sum(octet_length(coalesce(n.raw_body, b.raw_body)) + coalesce(octet_length(n.decoded), 0))"
                + " OVER w AS upto,"
                + " count(*) OVER () AS total"
                + " FROM (SELECT " + KEYSET_COLUMNS + " FROM notifications WHERE " + where + " ORDER BY id " + direction
                + " LIMIT ?) n"
                + " LEFT JOIN" + WITH_BODY
                + " WINDOW w AS (ORDER BY n.id " + direction + " ROWS UNBOUNDED PRECEDING)) p"
                + " WHERE rn <= ? AND (rn = 1 OR upto <= ?) ORDER BY rn";
        var all = new ArrayList<>(args);
        all.add(rows + 1);
        all.add(rows);
        all.add(maxBytes);
        long[] total = {0};
        List<NotificationRow> shown = Rows.list(c, sql, all, rs -> {
            total[0] = rs.getLong(15);
            return map(rs);
        });
        return new Page(shown, total[0] > shown.size());
    }

    private static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
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
                rs.getString(13),
                Rows.instant(rs.getTimestamp(14)));
    }

    private static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }
}
