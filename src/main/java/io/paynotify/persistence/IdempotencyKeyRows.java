package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Every statement on {@code idempotency_keys}. The claim is an {@code INSERT … ON CONFLICT DO NOTHING} on the
 * unique {@code (client_id, method_path, idempotency_key)}: that insert is the lock, so it stays explicit SQL.
 */
public final class IdempotencyKeyRows {

    /** Rows per cleanup DELETE, at most (docs/api.md "Idempotency-Key"). */
    public static final int CLEANUP_BATCH = 1000;

    private static final String DELETE_EXPIRED = "DELETE FROM idempotency_keys WHERE client_id = ? AND method_path = ?"
            + " AND idempotency_key = ? AND expires_at <= ?";
    private static final String CLAIM = "INSERT INTO idempotency_keys (client_id, method_path, idempotency_key,"
            + " fingerprint, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (client_id, method_path, idempotency_key) DO NOTHING RETURNING id";
    private static final String STORE = "UPDATE idempotency_keys SET status_code = ?, content_type = ?,"
            + " response_body = ?, first_response_at = ? WHERE id = ?";
    private static final String EXISTING = "SELECT fingerprint, status_code, content_type, response_body,"
            + " first_response_at FROM idempotency_keys WHERE client_id = ? AND method_path = ?"
            + " AND idempotency_key = ? AND expires_at > ?";
    private static final String DELETE_BATCH = "DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM"
            + " idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT " + CLEANUP_BATCH
            + " FOR UPDATE SKIP LOCKED)";

    /** A committed key: its body fingerprint and stored answer (status null only while its claim is running). */
    public record Stored(byte[] fingerprint, Integer status, String contentType, byte[] body, Instant firstAnswerAt) {}

    private IdempotencyKeyRows() {}

    /** Bounds how long this transaction's statements wait for a row lock (a concurrent claim of the same key). */
    public static void lockTimeout(Connection c, String duration) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL lock_timeout = '" + duration + "'");
        }
    }

    /** Deletes the key's row when it has expired, so that the claim can take the key anew. */
    public static void deleteExpired(Connection c, String clientId, String methodPath, String key, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE_EXPIRED)) {
            scope(ps, clientId, methodPath, key);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    /** Claims the key; the new row's id, or null when another transaction holds or held it. */
    public static Long claim(
            Connection c,
            String clientId,
            String methodPath,
            String key,
            byte[] fingerprint,
            Instant now,
            Instant expiresAt)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
            scope(ps, clientId, methodPath, key);
            ps.setBytes(4, fingerprint);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setTimestamp(6, Timestamp.from(expiresAt));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** Stores the answer in the claimed row. */
    public static void store(Connection c, long id, int status, String contentType, byte[] body, Instant answeredAt)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(STORE)) {
            ps.setInt(1, status);
            ps.setString(2, contentType);
            ps.setBytes(3, body);
            ps.setTimestamp(4, Timestamp.from(answeredAt));
            ps.setLong(5, id);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("claimed idempotency key row missing");
            }
        }
    }

    /** The unexpired committed row of the key, or null when there is none (any more). */
    public static Stored existing(Connection c, String clientId, String methodPath, String key, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EXISTING)) {
            scope(ps, clientId, methodPath, key);
            ps.setTimestamp(4, Timestamp.from(now));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                int status = rs.getInt(2);
                Integer statusOrNull = rs.wasNull() ? null : status;
                return new Stored(
                        rs.getBytes(1),
                        statusOrNull,
                        rs.getString(3),
                        rs.getBytes(4),
                        Rows.instant(rs.getTimestamp(5)));
            }
        }
    }

    /**
     * Deletes up to {@link #CLEANUP_BATCH} expired rows, oldest first, skipping rows another transaction holds
     * ({@code SKIP LOCKED}: two replicas cleaning at once never wait on or delete the same rows).
     *
     * @return the rows deleted
     */
    public static int deleteExpiredBatch(Connection c, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE_BATCH)) {
            ps.setTimestamp(1, Timestamp.from(now));
            return ps.executeUpdate();
        }
    }

    private static void scope(PreparedStatement ps, String clientId, String methodPath, String key)
            throws SQLException {
        ps.setString(1, clientId);
        ps.setString(2, methodPath);
        ps.setString(3, key);
    }
}
