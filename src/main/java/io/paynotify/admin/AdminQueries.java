package io.paynotify.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * The admin API's reads, in plain SQL so that each statement and the index that serves it (V1, V2, V4) can be seen
 * side by side. Keyset pagination: one row more than the page is fetched to know whether a next page exists, and
 * the next page continues from the last id shown. Filters are added to the statement only when given, so each
 * combination uses a matching index rather than a catch-all plan.
 */
@ApplicationScoped
class AdminQueries {

    private static final Logger LOG = Logger.getLogger(AdminQueries.class);

    private static final String ORDER_COLUMNS = "id, channel, out_trade_no, provider, amount_minor, currency,"
            + " description, state, transaction_id, paid_at, created_at, updated_at, attention";
    private static final String NOTIFICATION_COLUMNS = "id, channel, out_trade_no, provider, received_at, outcome,"
            + " reason, provider_status, transaction_id, amount_minor, raw_body, decoded";

    private final DataSource dataSource;
    private final ObjectMapper json;

    @Inject
    AdminQueries(DataSource dataSource, ObjectMapper json) {
        this.dataSource = dataSource;
        this.json = json;
    }

    /** Orders newest first (by id), optionally filtered; {@code attention} true = flagged, false = not flagged. */
    AdminJson.Page<AdminJson.Order> orders(String channel, String state, Boolean attention, int limit, Long after) {
        var sql = new StringBuilder("SELECT ").append(ORDER_COLUMNS).append(" FROM orders WHERE true");
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
        if (after != null) {
            sql.append(" AND id < ?");
            args.add(after);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(limit + 1);
        return page(sql.toString(), args, limit, "orders", this::order);
    }

    /** One order, or null. */
    AdminJson.Order order(String channel, String outTradeNo) {
        List<AdminJson.Order> rows = query(
                "SELECT " + ORDER_COLUMNS + " FROM orders WHERE channel = ? AND out_trade_no = ?",
                List.of(channel, outTradeNo),
                this::order);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** True when an order or at least one recorded notification exists for this pair. */
    boolean known(String channel, String outTradeNo) {
        List<Boolean> rows = query(
                "SELECT EXISTS (SELECT 1 FROM orders WHERE channel = ? AND out_trade_no = ?)"
                        + " OR EXISTS (SELECT 1 FROM notifications WHERE channel = ? AND out_trade_no = ?)",
                List.of(channel, outTradeNo, channel, outTradeNo),
                rs -> rs.getBoolean(1));
        return rows.get(0);
    }

    /** The notifications recorded for one (channel, outTradeNo), oldest first. */
    AdminJson.Page<AdminJson.Notification> orderNotifications(
            String channel, String outTradeNo, int limit, Long after) {
        var sql = new StringBuilder("SELECT ")
                .append(NOTIFICATION_COLUMNS)
                .append(" FROM notifications WHERE channel = ? AND out_trade_no = ?");
        var args = new ArrayList<Object>(List.of(channel, outTradeNo));
        if (after != null) {
            sql.append(" AND id > ?");
            args.add(after);
        }
        sql.append(" ORDER BY id ASC LIMIT ?");
        args.add(limit + 1);
        return page(sql.toString(), args, limit, "history", this::notification);
    }

    /** Notifications newest first (by id), optionally filtered. */
    AdminJson.Page<AdminJson.Notification> notifications(String outcome, String channel, int limit, Long after) {
        var sql = new StringBuilder("SELECT ").append(NOTIFICATION_COLUMNS).append(" FROM notifications WHERE true");
        var args = new ArrayList<Object>();
        if (outcome != null) {
            sql.append(" AND outcome = ?");
            args.add(outcome);
        }
        if (channel != null) {
            sql.append(" AND channel = ?");
            args.add(channel);
        }
        if (after != null) {
            sql.append(" AND id < ?");
            args.add(after);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(limit + 1);
        return page(sql.toString(), args, limit, "notifications", this::notification);
    }

    private interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private <T> AdminJson.Page<T> page(String sql, List<Object> args, int limit, String list, RowMapper<T> mapper) {
        var ids = new ArrayList<Long>();
        List<T> rows = query(sql, args, rs -> {
            ids.add(rs.getLong("id"));
            return mapper.map(rs);
        });
        if (rows.size() <= limit) {
            return new AdminJson.Page<>(rows, null);
        }
        return new AdminJson.Page<>(List.copyOf(rows.subList(0, limit)), Cursor.encode(list, ids.get(limit - 1)));
    }

    private <T> List<T> query(String sql, List<Object> args, RowMapper<T> mapper) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                var out = new ArrayList<T>();
                while (rs.next()) {
                    out.add(mapper.map(rs));
                }
                return out;
            }
        } catch (SQLException e) {
            LOG.warnf("admin query failed: %s (SQLState %s)", e.getClass().getSimpleName(), e.getSQLState());
            throw AdminProblem.unavailable();
        }
    }

    private AdminJson.Order order(ResultSet rs) throws SQLException {
        Array arr = rs.getArray("attention");
        List<String> attention = arr == null ? List.of() : Arrays.asList((String[]) arr.getArray());
        return new AdminJson.Order(
                rs.getString("channel"),
                rs.getString("out_trade_no"),
                rs.getString("provider"),
                rs.getLong("amount_minor"),
                rs.getString("currency"),
                rs.getString("description"),
                rs.getString("state"),
                rs.getString("transaction_id"),
                AdminJson.time(instant(rs.getTimestamp("paid_at"))),
                AdminJson.time(instant(rs.getTimestamp("created_at"))),
                AdminJson.time(instant(rs.getTimestamp("updated_at"))),
                List.copyOf(attention));
    }

    private AdminJson.Notification notification(ResultSet rs) throws SQLException {
        byte[] raw = rs.getBytes("raw_body");
        String text = utf8(raw);
        long amount = rs.getLong("amount_minor");
        Long amountOrNull = rs.wasNull() ? null : amount;
        return new AdminJson.Notification(
                rs.getLong("id"),
                rs.getString("channel"),
                rs.getString("out_trade_no"),
                rs.getString("provider"),
                AdminJson.time(instant(rs.getTimestamp("received_at"))),
                rs.getString("outcome"),
                rs.getString("reason"),
                rs.getString("provider_status"),
                rs.getString("transaction_id"),
                amountOrNull,
                text,
                text == null ? Base64.getEncoder().encodeToString(raw) : null,
                decoded(rs.getString("decoded")));
    }

    private static java.time.Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** The text when the bytes are valid UTF-8 (malformed or unmappable input is refused, not replaced), else null. */
    static String utf8(byte[] raw) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The stored decoded text as a JSON object; anything that is not one (never written so) shows as null. */
    private JsonNode decoded(String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode node = json.readTree(text);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            LOG.warn("admin: a stored decoded value is not a JSON object; shown as null");
            return null;
        }
    }
}
