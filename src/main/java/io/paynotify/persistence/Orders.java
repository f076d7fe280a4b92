package io.paynotify.persistence;

import io.paynotify.core.order.OrderState;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every statement on {@code orders}, and its one row mapping ({@link OrderRow}). Each method works on the caller's
 * connection, so it runs inside whatever transaction {@link Transactions} opened.
 *
 * <p>Plain SQL rather than an ORM: the writes are conditional ({@code … WHERE state = 'PENDING'}) under a row lock
 * taken with {@code SELECT … FOR UPDATE}, and the lists are keyset walks over partial indexes; each statement is
 * visible here as PostgreSQL runs it (docs/architecture.md, "Data layer").
 */
public final class Orders {

    private static final String COLUMNS = "id, channel, out_trade_no, provider, amount_minor, currency, description,"
            + " state, transaction_id, paid_at, paid_provider_status, refunded_minor, attention, created_at, updated_at,"
            + " last_queried_at, query_count, sub_merchant_id, sub_app_id";
    /** How many columns {@link #COLUMNS} names (the columns a statement adds come after). */
    private static final int COLUMN_COUNT = 19;

    private static final String FIND = "SELECT " + COLUMNS + " FROM orders WHERE channel = ? AND out_trade_no = ?";
    private static final String LOCK = FIND + " FOR UPDATE";
    private static final String INSERT = "INSERT INTO orders (channel, out_trade_no, provider, amount_minor,"
            + " currency, description, state, created_at, updated_at, next_query_at, sub_merchant_id, sub_app_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?)"
            + " ON CONFLICT (channel, out_trade_no) DO NOTHING RETURNING " + COLUMNS;
    /**
     * The row lock and the transaction id's holder in one round trip: one row comes back also when there is no order
     * (its columns null) and when no order holds the transaction id (the holder's columns null).
     */
    private static final String LOCK_FOR_NOTICE = "SELECT o.*, h.channel, h.out_trade_no FROM (SELECT 1) one"
            + " LEFT JOIN LATERAL (SELECT channel, out_trade_no FROM orders WHERE provider = ? AND transaction_id = ?) h"
            + " ON true LEFT JOIN LATERAL (SELECT " + COLUMNS + " FROM orders WHERE channel = ? AND out_trade_no = ?"
            + " FOR UPDATE) o ON true";
    /** Every order of a batch, locked in one statement, in id order: writers and replicas never deadlock on them. */
    private static final String LOCK_ALL = "SELECT " + COLUMNS + " FROM orders"
            + " WHERE (channel, out_trade_no) IN (SELECT * FROM unnest(?::text[], ?::text[])) ORDER BY id FOR UPDATE";
    /** Which orders hold these (provider, transaction id) pairs now. */
    private static final String TRANSACTION_HOLDERS = "SELECT provider, transaction_id, channel, out_trade_no"
            + " FROM orders WHERE (provider, transaction_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))";

    private static final String PAY = "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = ?,"
            + " paid_provider_status = ?, attention = ?, updated_at = ?, version = version + 1"
            + " WHERE id = ? AND state = 'PENDING' RETURNING " + COLUMNS;
    private static final String CLOSE = "UPDATE orders SET state = 'CLOSED', attention = ?, updated_at = ?,"
            + " version = version + 1 WHERE id = ? AND state = 'PENDING' RETURNING " + COLUMNS;
    private static final String REFUND = "UPDATE orders SET state = coalesce(?, state),"
            + " refunded_minor = coalesce(?, refunded_minor), attention = ?, updated_at = ?, version = version + 1"
            + " WHERE id = ? AND state IN ('SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED') RETURNING " + COLUMNS;
    private static final String FLAG =
            "UPDATE orders SET attention = ?, updated_at = ?, version = version + 1 WHERE id = ? RETURNING " + COLUMNS;

    /**
     * A batch's changes of its locked orders in one statement, each row set to what the intake computed (the same
     * columns {@link #PAY}, {@link #CLOSE} and {@link #FLAG} set), only where the state is still the one read under
     * the lock. Nothing is read back: the intake already holds every value.
     */
    private static final String APPLY_ALL = "UPDATE orders o SET state = u.state, transaction_id = u.transaction_id,"
            + " paid_at = u.paid_at, paid_provider_status = u.paid_provider_status,"
            + " attention = string_to_array(u.attention, chr(10)), updated_at = u.updated_at,"
            + " version = o.version + u.changes FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[],"
            + " ?::timestamptz[], ?::text[], ?::text[], ?::timestamptz[], ?::int[]) AS u(id, before_state, state,"
            + " transaction_id, paid_at, paid_provider_status, attention, updated_at, changes)"
            + " WHERE o.id = u.id AND o.state = u.before_state";

    /** The next step after now, in PostgreSQL's clock: the first {@code created_at + step} still in the future. */
    private static final String NEXT_STEP = "(SELECT o.created_at + step FROM unnest(?::interval[]) AS step"
            + " WHERE o.created_at + step > now() ORDER BY step LIMIT 1)";

    private static final String CLAIM_DUE = "WITH due AS (SELECT id FROM orders"
            + " WHERE state = 'PENDING' AND next_query_at <= now() AND channel = ?"
            + " ORDER BY next_query_at LIMIT ? FOR UPDATE SKIP LOCKED)"
            + " UPDATE orders o SET next_query_at = " + NEXT_STEP + ","
            + " last_queried_at = now(), query_count = o.query_count + 1"
            + " FROM due WHERE o.id = due.id RETURNING o.id, o.channel, o.out_trade_no, o.sub_merchant_id, o.sub_app_id";
    private static final String SCHEDULE_UNSCHEDULED = "UPDATE orders SET next_query_at = created_at + ?::interval"
            + " WHERE id IN (SELECT id FROM orders WHERE channel = ? AND state = 'PENDING'"
            + " AND next_query_at IS NULL AND query_count = 0 AND created_at + ?::interval > now()"
            + " LIMIT ? FOR UPDATE SKIP LOCKED)";
    private static final String DUE_NOW =
            "UPDATE orders SET next_query_at = now() WHERE id = ? AND state = 'PENDING' AND next_query_at IS NOT NULL";
    private static final String RECORD_QUERY = "UPDATE orders SET last_queried_at = now(),"
            + " query_count = query_count + 1 WHERE channel = ? AND out_trade_no = ? AND state = 'PENDING'"
            + " RETURNING id, channel, out_trade_no, sub_merchant_id, sub_app_id";

    private Orders() {}

    /** One order claimed for an active query, with the sub-merchant a partner or ISV query must name. */
    public record DueQuery(long id, String channel, String outTradeNo, String subMerchantId, String subAppId) {}

    /**
     * Claims up to {@code limit} orders of {@code channel} whose active query is due (docs/api.md "Active query"), in one short
     * statement: rows another replica holds are skipped ({@code SKIP LOCKED}); each claimed row's next due time
     * moves to its first schedule step still in the future (steps that fell due meanwhile collapse into this one
     * query; null after the last step), and its {@code last_queried_at} and {@code query_count} record the call about
     * to be sent. Every time is PostgreSQL's.
     */
    public static List<DueQuery> claimDue(Connection c, String channel, List<Duration> schedule, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CLAIM_DUE)) {
            ps.setString(1, channel);
            ps.setInt(2, limit);
            ps.setArray(3, intervals(c, schedule));
            try (ResultSet rs = ps.executeQuery()) {
                var out = new ArrayList<DueQuery>();
                while (rs.next()) {
                    out.add(new DueQuery(
                            rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
                }
                return out;
            }
        }
    }

    /**
     * Schedules up to {@code limit} PENDING orders of {@code channel} that were never scheduled (created while the
     * channel did not query) at their creation time plus {@code firstStep}, unless they are older than
     * {@code lastStep}. Returns how many rows it scheduled.
     */
    public static int scheduleUnscheduled(
            Connection c, String channel, Duration firstStep, Duration lastStep, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SCHEDULE_UNSCHEDULED)) {
            ps.setString(1, interval(firstStep));
            ps.setString(2, channel);
            ps.setString(3, interval(lastStep));
            ps.setInt(4, limit);
            return ps.executeUpdate();
        }
    }

    /**
     * Makes a PENDING order of a query-enabled channel (one with a next due time) due now: the next claim, within a
     * tick, queries it. Its schedule then goes on from its next step.
     */
    public static void dueNow(Connection c, long orderId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DUE_NOW)) {
            ps.setLong(1, orderId);
            ps.executeUpdate();
        }
    }

    /**
     * Records an operator's query of a PENDING order (when it is sent, and one more in the count); the order as the
     * query must name it, or null when there is no PENDING order of that number.
     */
    public static DueQuery recordQuery(Connection c, String channel, String outTradeNo) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RECORD_QUERY)) {
            ps.setString(1, channel);
            ps.setString(2, outTradeNo);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? new DueQuery(
                                rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5))
                        : null;
            }
        }
    }

    private static Array intervals(Connection c, List<Duration> steps) throws SQLException {
        return c.createArrayOf("text", steps.stream().map(Orders::interval).toArray());
    }

    private static String interval(Duration d) {
        return d.toMillis() + " milliseconds";
    }

    /** The order, or null. */
    public static OrderRow find(Connection c, String channel, String outTradeNo) throws SQLException {
        return one(c, FIND, channel, outTradeNo);
    }

    /** The order, locked until the transaction ends ({@code FOR UPDATE}); null when there is none. */
    public static OrderRow lock(Connection c, String channel, String outTradeNo) throws SQLException {
        return one(c, LOCK, channel, outTradeNo);
    }

    /**
     * An order locked for a notice ({@link #lockForNotice}): the row (null when none) and the {@link #key} of the
     * order holding the notice's transaction id (null when none does, or no id was asked about).
     */
    public record LockedForNotice(OrderRow order, String transactionHolder) {}

    /**
     * Locks the order ({@code FOR UPDATE}, null when there is none) and, in the same round trip, reads which order
     * holds {@code transactionId} of the provider (null: not asked). The holder is read in the statement's snapshot:
     * an order that takes this transaction id concurrently is caught by the unique constraint on
     * (provider, transaction_id) when this transaction pays (the intake then runs again).
     */
    public static LockedForNotice lockForNotice(
            Connection c, String channel, String outTradeNo, String provider, String transactionId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK_FOR_NOTICE)) {
            ps.setString(1, provider);
            ps.setString(2, transactionId);
            ps.setString(3, channel);
            ps.setString(4, outTradeNo);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                String holderChannel = rs.getString(COLUMN_COUNT + 1);
                String holder = holderChannel == null ? null : key(holderChannel, rs.getString(COLUMN_COUNT + 2));
                return new LockedForNotice(rs.getObject(1) == null ? null : map(rs), holder);
            }
        }
    }

    /**
     * Locks every existing order among these (channel, outTradeNo) pairs in one statement, in id order, and returns
     * them keyed by {@link #key}. Missing orders are simply absent.
     */
    public static Map<String, OrderRow> lockAll(Connection c, Collection<String[]> pairs) throws SQLException {
        var out = new HashMap<String, OrderRow>();
        try (PreparedStatement ps = c.prepareStatement(LOCK_ALL)) {
            bindPairs(c, ps, pairs);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    OrderRow row = map(rs);
                    out.put(key(row.channel(), row.outTradeNo()), row);
                }
            }
        }
        return out;
    }

    /**
     * The order holding each of these (provider, transaction id) pairs: keyed by {@code provider + '\n' + id}, the
     * value is the holder's {@link #key}.
     */
    public static Map<String, String> transactionHolders(Connection c, Collection<String[]> pairs) throws SQLException {
        var out = new HashMap<String, String>();
        if (pairs.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement(TRANSACTION_HOLDERS)) {
            bindPairs(c, ps, pairs);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1) + '\n' + rs.getString(2), key(rs.getString(3), rs.getString(4)));
                }
            }
        }
        return out;
    }

    /** Binds pairs as the two text arrays of {@code unnest(?::text[], ?::text[])}: firsts, then seconds. */
    private static void bindPairs(Connection c, PreparedStatement ps, Collection<String[]> pairs) throws SQLException {
        String[] firsts = new String[pairs.size()];
        String[] seconds = new String[pairs.size()];
        int i = 0;
        for (String[] p : pairs) {
            firsts[i] = p[0];
            seconds[i++] = p[1];
        }
        ps.setArray(1, c.createArrayOf("text", firsts));
        ps.setArray(2, c.createArrayOf("text", seconds));
    }

    /** The in-process key of an order: channel and outTradeNo, which never contains a newline. */
    public static String key(String channel, String outTradeNo) {
        return channel + '\n' + outTradeNo;
    }

    /**
     * A new order as the merchant API registers it.
     *
     * @param subMerchantId the sub-merchant of a service-provider or ISV channel's order, else null
     * @param subAppId the sub-merchant's app id, or null
     */
    public record NewOrder(
            String channel,
            String outTradeNo,
            String provider,
            long amount,
            String currency,
            String description,
            String subMerchantId,
            String subAppId) {}

    /**
     * A new PENDING order, first due for an active query at {@code firstQueryAt} (null: never); null when
     * (channel, outTradeNo) exists already (the unique constraint decides).
     */
    public static OrderRow insert(Connection c, NewOrder o, Instant now, Instant firstQueryAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, o.channel());
            ps.setString(2, o.outTradeNo());
            ps.setString(3, o.provider());
            ps.setLong(4, o.amount());
            ps.setString(5, o.currency());
            ps.setString(6, o.description());
            ps.setTimestamp(7, Timestamp.from(now));
            ps.setTimestamp(8, Timestamp.from(now));
            ps.setTimestamp(9, firstQueryAt == null ? null : Timestamp.from(firstQueryAt));
            ps.setString(10, o.subMerchantId());
            ps.setString(11, o.subAppId());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? map(rs) : null;
            }
        }
    }

    /** PENDING → SUCCESS on the locked row; the order as it now stands. */
    public static OrderRow pay(
            Connection c,
            long id,
            String transactionId,
            Instant paidAt,
            String providerStatus,
            List<String> attention,
            Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PAY)) {
            ps.setString(1, transactionId);
            ps.setTimestamp(2, Timestamp.from(paidAt));
            ps.setString(3, providerStatus);
            ps.setArray(4, textArray(c, attention));
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setLong(6, id);
            return changedRow(ps);
        }
    }

    /** PENDING → CLOSED on the locked row; the order as it now stands. */
    public static OrderRow close(Connection c, long id, List<String> attention, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CLOSE)) {
            ps.setArray(1, textArray(c, attention));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setLong(3, id);
            try (ResultSet rs = ps.executeQuery()) {
                requireOneRow(rs.next() ? 1 : 0);
                return map(rs);
            }
        }
    }

    /**
     * A refund's effect on the locked, paid order: its new state and refunded amount (each null when it stays); the
     * order as it now stands.
     */
    public static OrderRow refund(
            Connection c, long id, OrderState newState, Long refundedAmount, List<String> attention, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(REFUND)) {
            ps.setString(1, newState == null ? null : newState.name());
            if (refundedAmount == null) {
                ps.setNull(2, java.sql.Types.BIGINT);
            } else {
                ps.setLong(2, refundedAmount);
            }
            ps.setArray(3, textArray(c, attention));
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setLong(5, id);
            return changedRow(ps);
        }
    }

    /**
     * Replaces the attention list (append-only: the caller passes the old list plus the new reasons); the order as
     * it now stands.
     */
    public static OrderRow flag(Connection c, long id, List<String> attention, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FLAG)) {
            ps.setArray(1, textArray(c, attention));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setLong(3, id);
            return changedRow(ps);
        }
    }

    /**
     * One locked order's change in a batch: the row as the lock read it and as the batch's notices left it (state,
     * transaction id, payment, attention and update time; the other columns as read), after {@code changes} changes.
     */
    public record Change(OrderRow before, OrderRow after, int changes) {}

    /**
     * Writes a batch's changes of its locked orders in one statement ({@link #pay}, {@link #close} and {@link #flag}
     * folded: each order set to its last state in the batch).
     */
    public static void applyAll(Connection c, Collection<Change> changes) throws SQLException {
        int size = changes.size();
        Long[] id = new Long[size];
        String[] before = new String[size];
        String[] state = new String[size];
        String[] transactionId = new String[size];
        String[] paidAt = new String[size];
        String[] paidProviderStatus = new String[size];
        String[] attention = new String[size];
        String[] updatedAt = new String[size];
        Integer[] count = new Integer[size];
        int i = 0;
        for (Change ch : changes) {
            OrderRow a = ch.after();
            id[i] = a.id();
            before[i] = ch.before().state().name();
            state[i] = a.state().name();
            transactionId[i] = a.transactionId();
            paidAt[i] = a.paidAt() == null ? null : a.paidAt().toString();
            paidProviderStatus[i] = a.paidProviderStatus();
            attention[i] = String.join("\n", a.attention());
            updatedAt[i] = a.updatedAt().toString();
            count[i++] = ch.changes();
        }
        try (PreparedStatement ps = c.prepareStatement(APPLY_ALL)) {
            ps.setArray(1, c.createArrayOf("bigint", id));
            ps.setArray(2, c.createArrayOf("text", before));
            ps.setArray(3, c.createArrayOf("text", state));
            ps.setArray(4, c.createArrayOf("text", transactionId));
            ps.setArray(5, c.createArrayOf("text", paidAt));
            ps.setArray(6, c.createArrayOf("text", paidProviderStatus));
            ps.setArray(7, c.createArrayOf("text", attention));
            ps.setArray(8, c.createArrayOf("text", updatedAt));
            ps.setArray(9, c.createArrayOf("integer", count));
            if (ps.executeUpdate() != size) {
                throw new IllegalStateException("order changed under its row lock");
            }
        }
    }

    /**
     * A time cut to what PostgreSQL stores (microseconds): a row the intake computes and writes with it holds what
     * the database then holds, without reading it back.
     */
    public static Instant stored(Instant t) {
        return t == null ? null : t.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    /** The one row a conditional update under the row lock changed (RETURNING), never none. */
    private static OrderRow changedRow(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            requireOneRow(rs.next() ? 1 : 0);
            return map(rs);
        }
    }

    /**
     * One page of orders, newest first (by id). Filters are added only when given, so each combination is served
     * by its own index (V4).
     *
     * @param attention true: flagged orders only; false: unflagged only; null: both
     * @param afterId continue after this id (keyset), or null for the first page
     * @param rows how many rows to read (the admin API reads one more than it shows)
     */
    public static List<OrderRow> list(
            Connection c, String channel, String state, Boolean attention, Long afterId, int rows) throws SQLException {
        var sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM orders WHERE true");
        var args = new ArrayList<Object>();
        if (channel != null) {
            sql.append(" AND channel = ?");
            args.add(channel);
        }
        if (state != null) {
            sql.append(" AND state = ?");
            args.add(state);
        }
        if (attention != null) {
            sql.append(attention ? " AND attention <> '{}'" : " AND attention = '{}'");
        }
        if (afterId != null) {
            sql.append(" AND id < ?");
            args.add(afterId);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(rows);
        return Rows.list(c, sql.toString(), args, Orders::map);
    }

    private static OrderRow one(Connection c, String sql, String channel, String outTradeNo) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, channel);
            ps.setString(2, outTradeNo);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? map(rs) : null;
            }
        }
    }

    /** The one mapping of an {@code orders} row, by the column order of {@link #COLUMNS}. */
    static OrderRow map(ResultSet rs) throws SQLException {
        return new OrderRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getLong(5),
                rs.getString(6),
                rs.getString(7),
                OrderState.valueOf(rs.getString(8)),
                rs.getString(9),
                Rows.instant(rs.getTimestamp(10)),
                rs.getString(11),
                rs.getLong(12),
                textList(rs.getArray(13)),
                Rows.instant(rs.getTimestamp(14)),
                Rows.instant(rs.getTimestamp(15)),
                Rows.instant(rs.getTimestamp(16)),
                rs.getInt(17),
                rs.getString(18),
                rs.getString(19));
    }

    private static List<String> textList(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private static Array textArray(Connection c, List<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray(new String[0]));
    }

    /**
     * The row is locked by this transaction, so a conditional update that misses means the lock did not hold:
     * never commit that.
     */
    private static void requireOneRow(int updated) {
        if (updated != 1) {
            throw new IllegalStateException("order changed under its row lock");
        }
    }

    /** The orders of these numbers on the channel, by number (a plain read: no row lock). */
    public static Map<String, OrderRow> findAll(Connection c, String channel, Collection<String> outTradeNos)
            throws SQLException {
        var out = new java.util.HashMap<String, OrderRow>();
        if (outTradeNos.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM orders WHERE channel = ? AND out_trade_no = ANY (?)")) {
            ps.setString(1, channel);
            ps.setArray(2, textArray(c, List.copyOf(outTradeNos)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    OrderRow o = map(rs);
                    out.put(o.outTradeNo(), o);
                }
            }
        }
        return out;
    }

    /**
     * A page of the channel's paid orders (SUCCESS or refunded) whose {@code paidAt} is in [{@code from},
     * {@code to}), by id after {@code afterId} (the statements' missing-at-provider rule).
     */
    public static List<OrderRow> paidBetween(
            Connection c, String channel, Instant from, Instant to, long afterId, int rows) throws SQLException {
        return Rows.list(
                c,
                "SELECT " + COLUMNS + " FROM orders WHERE channel = ? AND paid_at >= ? AND paid_at < ?"
                        + " AND state IN ('SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED') AND id > ? ORDER BY id LIMIT ?",
                List.of(channel, Timestamp.from(from), Timestamp.from(to), afterId, rows),
                Orders::map);
    }

    /** Whether the channel has an order of this sub-merchant (a partner bill's line is then the channel's). */
    public static boolean hasSubMerchant(Connection c, String channel, String subMerchantId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT 1 FROM orders WHERE channel = ? AND sub_merchant_id = ? LIMIT 1")) {
            ps.setString(1, channel);
            ps.setString(2, subMerchantId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether the channel has local activity on that Beijing day: an order paid or a refund succeeded in it. */
    public static boolean activeBetween(Connection c, String channel, Instant from, Instant to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM orders WHERE channel = ?"
                + " AND paid_at >= ? AND paid_at < ?) OR EXISTS (SELECT 1 FROM refunds WHERE channel = ?"
                + " AND status = 'SUCCESS' AND succeeded_at >= ? AND succeeded_at < ?)")) {
            ps.setString(1, channel);
            ps.setTimestamp(2, Timestamp.from(from));
            ps.setTimestamp(3, Timestamp.from(to));
            ps.setString(4, channel);
            ps.setTimestamp(5, Timestamp.from(from));
            ps.setTimestamp(6, Timestamp.from(to));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
