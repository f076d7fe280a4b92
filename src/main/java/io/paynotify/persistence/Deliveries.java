package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Every statement on {@code deliveries}, {@code delivery_attempts} and {@code webhook_endpoints}. A delivery is
 * claimed with {@code FOR UPDATE SKIP LOCKED} and a lease (so one replica attempts it at a time, and a dead
 * replica's claim lapses), and its attempt is recorded only while that lease is still the claimer's. Due times and
 * leases use PostgreSQL's clock, never a replica's.
 */
public final class Deliveries {

    /** Rows per claim or retention statement, at most. */
    public static final int BATCH = 100;

    private static final String COLUMNS = "id, event_id, client_id, webhook_url, state, attempts, next_attempt_at,"
            + " lease_until, last_attempt_at, last_status, last_error";
    private static final String INSERT = "INSERT INTO deliveries (event_id, client_id, webhook_url, order_id, state,"
            + " next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'PENDING', now(), now())";
    /**
     * Due, unclaimed (or with a lapsed lease), to an enabled webhook, and not behind an earlier PENDING delivery of
     * the same client and order; locked rows are skipped so that replicas never wait on each other.
     */
    private static final String CLAIM = "WITH due AS (SELECT d.id FROM deliveries d WHERE d.state = 'PENDING'"
            + " AND d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())"
            + " AND d.client_id <> ALL (?)"
            + " AND NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.client_id = d.client_id"
            + " AND w.webhook_url = d.webhook_url AND w.disabled_at IS NOT NULL)"
            + " AND NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.client_id = d.client_id AND e.order_id = d.order_id"
            + " AND e.state = 'PENDING' AND e.id < d.id)"
            + " ORDER BY d.next_attempt_at, d.id LIMIT ? FOR UPDATE OF d SKIP LOCKED)"
            + " UPDATE deliveries SET lease_until = now() + make_interval(secs => ?), lease_token = ?"
            + " FROM due, events ev WHERE deliveries.id = due.id AND ev.id = deliveries.event_id"
            + " RETURNING deliveries.id, ev.event_id, deliveries.client_id, deliveries.webhook_url, ev.body,"
            + " deliveries.attempts, EXISTS (SELECT 1 FROM deliveries n WHERE n.client_id = deliveries.client_id"
            + " AND n.order_id = deliveries.order_id AND n.state = 'PENDING' AND n.id > deliveries.id)";

    /**
     * Records many attempts in one statement: each outcome updates its delivery only while the lease is still the
     * one it was claimed under, and only the deliveries so updated get their attempt row. Attempts are passed as
     * parallel arrays; {@code at} in epoch microseconds (exact, no time zone), {@code delay} in seconds or null.
     */
    private static final String RECORD = "WITH o AS (SELECT * FROM unnest(?::bigint[], ?::uuid[], ?::text[],"
            + " ?::bigint[], ?::integer[], ?::text[], ?::float8[], ?::integer[])"
            + " AS o(id, token, state, at, status, error, delay, ms)),"
            + " mine AS (UPDATE deliveries d SET state = o.state, attempts = d.attempts + 1,"
            + " next_attempt_at = CASE WHEN o.delay IS NULL THEN d.next_attempt_at"
            + " ELSE now() + make_interval(secs => o.delay) END,"
            + " last_attempt_at = timestamptz 'epoch' + o.at * interval '1 microsecond', last_status = o.status,"
            + " last_error = o.error, lease_until = NULL, lease_token = NULL"
            + " FROM o WHERE d.id = o.id AND d.lease_token = o.token RETURNING d.id),"
            + " logged AS (INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)"
            + " SELECT o.id, timestamptz 'epoch' + o.at * interval '1 microsecond', o.status, o.error, o.ms"
            + " FROM o JOIN mine ON mine.id = o.id ORDER BY o.id)"
            + " SELECT id FROM mine";
    /** Gives claimed deliveries back (each only while its lease is still the one given): due again at once. */
    private static final String RELEASE = "UPDATE deliveries SET lease_until = NULL, lease_token = NULL"
            + " FROM unnest(?::bigint[], ?::uuid[]) AS r(id, token)"
            + " WHERE deliveries.id = r.id AND deliveries.lease_token = r.token";

    private static final String DISABLE = "INSERT INTO webhook_endpoints (client_id, webhook_url, disabled_at)"
            + " VALUES (?, ?, now()) ON CONFLICT (client_id, webhook_url) DO UPDATE SET disabled_at = now()";
    private static final String ENABLE =
            "UPDATE webhook_endpoints SET disabled_at = NULL WHERE client_id = ? AND webhook_url = ?";

    /**
     * A claimed delivery: everything an attempt needs, and whether a later delivery of the same client and order
     * waits for it (due once this one is no longer PENDING).
     */
    public record Claimed(
            long deliveryId,
            String eventId,
            String clientId,
            String webhookUrl,
            byte[] body,
            int attempts,
            boolean successor) {
        @Override
        public String toString() {
            return "Claimed[" + deliveryId + " " + eventId + " " + clientId + "]";
        }
    }

    /** How a redeliver request ended. */
    public enum Redeliver {
        QUEUED,
        NO_DELIVERY,
        IN_FLIGHT
    }

    private Deliveries() {}

    /** A PENDING delivery of an event to one client's webhook, due now. */
    public static void insert(Connection c, long eventRowId, String clientId, String webhookUrl, long orderId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setLong(1, eventRowId);
            ps.setString(2, clientId);
            ps.setString(3, webhookUrl);
            ps.setLong(4, orderId);
            ps.executeUpdate();
        }
    }

    /**
     * The claim and the record are planned at each execution ({@code SET LOCAL plan_cache_mode}, for this transaction
     * only), not from the driver's server-prepared generic plan: a generic plan made while {@code deliveries} was
     * small (a new deployment, the bench's first seconds) joins the batch's ids by a sequential scan and keeps doing
     * so as the table grows (measured: ~92 heap blocks read per notification, the record statement ~40 % of all
     * statement time). A custom plan sees the table's current size; planning costs little next to a batch.
     */
    private static void customPlan(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL plan_cache_mode = force_custom_plan");
        }
    }

    /**
     * Claims up to {@code limit} due deliveries for this replica.
     *
     * @param busyClients clients that already have as many attempts in flight here as they may
     */
    public static List<Claimed> claim(Connection c, int limit, long leaseSeconds, UUID token, List<String> busyClients)
            throws SQLException {
        customPlan(c);
        try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
            ps.setArray(1, c.createArrayOf("text", busyClients.toArray(new String[0])));
            ps.setInt(2, Math.min(limit, BATCH));
            ps.setLong(3, leaseSeconds);
            ps.setObject(4, token);
            try (ResultSet rs = ps.executeQuery()) {
                var out = new ArrayList<Claimed>();
                while (rs.next()) {
                    out.add(new Claimed(
                            rs.getLong(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getBytes(5),
                            rs.getInt(6),
                            rs.getBoolean(7)));
                }
                return out;
            }
        }
    }

    /** What an attempt leaves its delivery in: {@code SUCCEEDED}, {@code FAILED}, or {@code PENDING} for a retry. */
    public enum Next {
        SUCCEEDED,
        FAILED,
        PENDING
    }

    /**
     * One attempt to record: its delivery and the lease it was claimed under, the state it leaves, when it began,
     * its HTTP status or error, its duration, and for a retry the delay before the next attempt (PostgreSQL's clock).
     */
    public record Outcome(
            long deliveryId,
            UUID token,
            Next next,
            Instant at,
            Integer status,
            String error,
            int durationMs,
            long delayMillis) {}

    /**
     * Records these attempts (at most {@link #BATCH}) in one statement; the ids of the deliveries whose lease was
     * still the outcome's own. An outcome whose lease lapsed meanwhile (another replica may attempt it again) records
     * nothing: neither its state nor its attempt row.
     */
    public static Set<Long> record(Connection c, List<Outcome> outcomes) throws SQLException {
        if (outcomes.size() > BATCH) {
            throw new IllegalArgumentException("at most " + BATCH + " outcomes a statement");
        }
        int n = outcomes.size();
        var ids = new Long[n];
        var tokens = new UUID[n];
        var states = new String[n];
        var ats = new Long[n];
        var statuses = new Integer[n];
        var errors = new String[n];
        var delays = new Double[n];
        var durations = new Integer[n];
        for (int i = 0; i < n; i++) {
            Outcome o = outcomes.get(i);
            ids[i] = o.deliveryId();
            tokens[i] = o.token();
            states[i] = o.next().name();
            ats[i] = o.at().getEpochSecond() * 1_000_000L + o.at().getNano() / 1_000;
            statuses[i] = o.status();
            errors[i] = o.next() == Next.SUCCEEDED ? null : o.error();
            delays[i] = o.next() == Next.PENDING ? o.delayMillis() / 1000.0 : null;
            durations[i] = o.durationMs();
        }
        var mine = new HashSet<Long>();
        customPlan(c);
        try (PreparedStatement ps = c.prepareStatement(RECORD)) {
            ps.setArray(1, c.createArrayOf("bigint", ids));
            ps.setArray(2, c.createArrayOf("uuid", tokens));
            ps.setArray(3, c.createArrayOf("text", states));
            ps.setArray(4, c.createArrayOf("bigint", ats));
            ps.setArray(5, c.createArrayOf("integer", statuses));
            ps.setArray(6, c.createArrayOf("text", errors));
            ps.setArray(7, c.createArrayOf("float8", delays));
            ps.setArray(8, c.createArrayOf("integer", durations));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    mine.add(rs.getLong(1));
                }
            }
        }
        return mine;
    }

    /**
     * Gives claimed deliveries back before their lease ends (at most {@link #BATCH}), each only while its lease is
     * still the one given: they are due again at once, for this replica or another. The rows given back.
     */
    public static int release(Connection c, List<Long> deliveryIds, List<UUID> tokens) throws SQLException {
        if (deliveryIds.size() > BATCH || deliveryIds.size() != tokens.size()) {
            throw new IllegalArgumentException("at most " + BATCH + " ids, one token each");
        }
        try (PreparedStatement ps = c.prepareStatement(RELEASE)) {
            ps.setArray(1, c.createArrayOf("bigint", deliveryIds.toArray(new Long[0])));
            ps.setArray(2, c.createArrayOf("uuid", tokens.toArray(new UUID[0])));
            return ps.executeUpdate();
        }
    }

    /** A {@code 410 Gone}: nothing more goes to this client's webhook until an operator enables it. */
    public static void disable(Connection c, String clientId, String webhookUrl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DISABLE)) {
            ps.setString(1, clientId);
            ps.setString(2, webhookUrl);
            ps.executeUpdate();
        }
    }

    /** The webhook takes deliveries again; its waiting deliveries resume. */
    public static void enable(Connection c, String clientId, String webhookUrl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ENABLE)) {
            ps.setString(1, clientId);
            ps.setString(2, webhookUrl);
            ps.executeUpdate();
        }
    }

    /**
     * Puts an event's delivery (to one client, or every delivery of the event) back to PENDING, due now, its
     * attempt count reset, whatever its state, unless an attempt of it is in flight.
     */
    public static Redeliver redeliver(Connection c, long eventRowId, String clientId) throws SQLException {
        String where = " WHERE event_id = ?" + (clientId == null ? "" : " AND client_id = ?");
        List<DeliveryRow> rows;
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM deliveries" + where + " ORDER BY id FOR UPDATE")) {
            ps.setLong(1, eventRowId);
            if (clientId != null) {
                ps.setString(2, clientId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(map(rs));
                }
            }
        }
        if (rows.isEmpty()) {
            return Redeliver.NO_DELIVERY;
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT count(*) FROM deliveries" + where + " AND lease_until > now()")) {
            ps.setLong(1, eventRowId);
            if (clientId != null) {
                ps.setString(2, clientId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getLong(1) > 0) {
                    return Redeliver.IN_FLIGHT;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE deliveries SET state = 'PENDING', attempts = 0,"
                + " next_attempt_at = now(), lease_until = NULL, lease_token = NULL" + where)) {
            ps.setLong(1, eventRowId);
            if (clientId != null) {
                ps.setString(2, clientId);
            }
            ps.executeUpdate();
        }
        return Redeliver.QUEUED;
    }

    /** The deliveries of these events, by event row id, each in id order. */
    public static Map<Long, List<DeliveryRow>> forEvents(Connection c, List<Long> eventRowIds) throws SQLException {
        var out = new LinkedHashMap<Long, List<DeliveryRow>>();
        if (eventRowIds.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM deliveries WHERE event_id = ANY (?) ORDER BY id")) {
            ps.setArray(1, c.createArrayOf("bigint", eventRowIds.toArray(new Long[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    DeliveryRow d = map(rs);
                    out.computeIfAbsent(d.eventRowId(), k -> new ArrayList<>()).add(d);
                }
            }
        }
        return out;
    }

    /** Every attempt of these deliveries, by delivery id, oldest first. */
    public static Map<Long, List<AttemptRow>> attempts(Connection c, List<Long> deliveryIds) throws SQLException {
        var out = new LinkedHashMap<Long, List<AttemptRow>>();
        if (deliveryIds.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT delivery_id, at, status, error, duration_ms"
                + " FROM delivery_attempts WHERE delivery_id = ANY (?) ORDER BY id")) {
            ps.setArray(1, c.createArrayOf("bigint", deliveryIds.toArray(new Long[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int status = rs.getInt(3);
                    Integer statusOrNull = rs.wasNull() ? null : status;
                    AttemptRow a = new AttemptRow(
                            rs.getLong(1),
                            Rows.instant(rs.getTimestamp(2)),
                            statusOrNull,
                            rs.getString(4),
                            rs.getInt(5));
                    out.computeIfAbsent(a.deliveryId(), k -> new ArrayList<>()).add(a);
                }
            }
        }
        return out;
    }

    /**
     * PENDING deliveries past the retention ({@code expired}) or whose client no longer has that webhook
     * ({@code unsubscribed}) become FAILED, at most {@link #BATCH} per call; the rows changed.
     *
     * @param subscriptions the configured {@code client_id} and {@code webhook_url} pairs
     */
    public static int failStale(Connection c, Instant expiredBefore, List<String[]> subscriptions) throws SQLException {
        String[] clients = subscriptions.stream().map(s -> s[0]).toArray(String[]::new);
        String[] urls = subscriptions.stream().map(s -> s[1]).toArray(String[]::new);
        String sql = "UPDATE deliveries SET state = 'FAILED', lease_until = NULL, lease_token = NULL,"
                + " last_error = CASE WHEN created_at < ? THEN 'expired' ELSE 'unsubscribed' END"
                + " WHERE id IN (SELECT id FROM deliveries WHERE state = 'PENDING' AND (created_at < ?"
                + " OR (client_id, webhook_url) NOT IN (SELECT * FROM unnest(?::text[], ?::text[])))"
                + " AND (lease_until IS NULL OR lease_until < now())"
                + " ORDER BY id LIMIT " + BATCH + " FOR UPDATE SKIP LOCKED)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setTimestamp(1, Timestamp.from(expiredBefore));
            ps.setTimestamp(2, Timestamp.from(expiredBefore));
            ps.setArray(3, c.createArrayOf("text", clients));
            ps.setArray(4, c.createArrayOf("text", urls));
            return ps.executeUpdate();
        }
    }

    /** Rows per retention DELETE of {@link #deleteOldAttempts} and {@link #deleteOldDeliveries}, at most. */
    public static final int DELETE_BATCH = 1000;

    /** The events that retention may delete: older than the cutoff, and none of their deliveries PENDING. */
    private static final String DELETABLE_EVENT = "e.created_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries p"
            + " WHERE p.event_id = e.id AND p.state = 'PENDING')";

    /**
     * Deletes up to {@link #DELETE_BATCH} attempts of deliveries whose event retention may delete (older than
     * {@code before}, no delivery PENDING); the rows deleted. Run before {@link #deleteOldDeliveries} and
     * {@link Events#deleteOld}, so that no statement removes more than a batch through its cascade.
     *
     * <p>The event row is locked too ({@code NO KEY UPDATE}, which leaves the foreign-key checks alone), and rows
     * whose event another run holds are skipped: a concurrent {@link Events#deleteOld} (which skips locked events)
     * never cascades into rows this statement holds, and no replica waits on another.
     */
    public static int deleteOldAttempts(Connection c, Instant before) throws SQLException {
        return deleteOld(
                c,
                "DELETE FROM delivery_attempts WHERE id IN (SELECT a.id FROM delivery_attempts a"
                        + " JOIN deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id WHERE "
                        + DELETABLE_EVENT + " LIMIT " + DELETE_BATCH + " FOR NO KEY UPDATE OF a, e SKIP LOCKED)",
                before);
    }

    /**
     * Deletes up to {@link #DELETE_BATCH} deliveries whose event retention may delete (older than {@code before},
     * no delivery PENDING), with any attempt left; the deliveries deleted. Locks and skips as
     * {@link #deleteOldAttempts} does.
     */
    public static int deleteOldDeliveries(Connection c, Instant before) throws SQLException {
        return deleteOld(
                c,
                "DELETE FROM deliveries WHERE id IN (SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id"
                        + " WHERE " + DELETABLE_EVENT + " LIMIT " + DELETE_BATCH
                        + " FOR NO KEY UPDATE OF d, e SKIP LOCKED)",
                before);
    }

    private static int deleteOld(Connection c, String sql, Instant before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setTimestamp(1, Timestamp.from(before));
            return ps.executeUpdate();
        }
    }

    /** PENDING deliveries, the age in seconds of the oldest, and disabled webhooks: for the metrics. */
    public record Backlog(long pending, double oldestPendingSeconds, long disabledWebhooks) {}

    public static Backlog backlog(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT (SELECT count(*) FROM deliveries WHERE state ="
                                + " 'PENDING'), (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0) FROM deliveries"
                                + " WHERE state = 'PENDING'), (SELECT count(*) FROM webhook_endpoints WHERE disabled_at IS NOT NULL)");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Backlog(rs.getLong(1), rs.getDouble(2), rs.getLong(3));
        }
    }

    private static DeliveryRow map(ResultSet rs) throws SQLException {
        int status = rs.getInt(10);
        Integer statusOrNull = rs.wasNull() ? null : status;
        return new DeliveryRow(
                rs.getLong(1),
                rs.getLong(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getInt(6),
                Rows.instant(rs.getTimestamp(7)),
                Rows.instant(rs.getTimestamp(8)),
                Rows.instant(rs.getTimestamp(9)),
                statusOrNull,
                rs.getString(11));
    }
}
