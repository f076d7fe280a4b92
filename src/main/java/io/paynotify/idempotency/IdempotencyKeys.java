package io.paynotify.idempotency;

import io.paynotify.channel.PaynotifyConfig;
import io.paynotify.http.ApiAnswer;
import io.paynotify.http.Problem;
import io.paynotify.metrics.NotifyMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.sql.DataSource;

/**
 * The Idempotency-Key of every merchant POST (CONTRACT.md §3), held by PostgreSQL alone.
 *
 * <p>One transaction per request: delete the key's row if it has expired, claim the key with
 * {@code INSERT … ON CONFLICT DO NOTHING}, run the operation on the same connection, store its answer in the
 * claimed row, commit. The unique constraint on {@code (client_id, method_path, idempotency_key)} is the lock: a
 * second request with the same key blocks in its INSERT until the first transaction ends (bounded by
 * {@link #CLAIM_WAIT}, then {@code 409}), and then either finds the committed answer (replay, or {@code 422} for
 * another body) or, if the first rolled back, claims the key itself. Because claim, business write and answer
 * commit together, no crash can leave a claimed key without its answer or a business write without its key, and a
 * {@code 5xx} (rollback) releases the key.
 *
 * <p>Stored and replayed: every answer the operation produced below 500. Never stored: the 409 and 422 produced
 * here, and any 5xx. The signature's 401 and the key's own 400 never reach this class.
 */
@ApplicationScoped
public class IdempotencyKeys {

    /** How long a request waits for another request holding the same key before answering 409. */
    static final String CLAIM_WAIT = "1s";

    static final int MAX_KEY_LENGTH = 255;
    private static final int MAX_ATTEMPTS = 3;
    private static final String LOCK_NOT_AVAILABLE = "55P03";

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

    /** The key's scope: one client, one method and path, one key. */
    public record Scope(String clientId, String methodPath, String key) {
        @Override
        public String toString() {
            // the key is the client's data: it stays out of logs
            return "Scope[" + clientId + ", " + methodPath + "]";
        }
    }

    /** The work done under a claimed key, on the claim's connection and inside its transaction. */
    @FunctionalInterface
    public interface Operation {
        ApiAnswer run(Connection c) throws SQLException;
    }

    /**
     * The answer to send.
     *
     * @param answer status, type and body
     * @param replayed true when this is a stored answer given again
     * @param originalDate when the stored answer was first given, or null when nothing is stored
     */
    public record Outcome(ApiAnswer answer, boolean replayed, Instant originalDate) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final Duration retention;
    private final NotifyMetrics metrics;

    @Inject
    public IdempotencyKeys(DataSource dataSource, Clock clock, PaynotifyConfig config, NotifyMetrics metrics) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.retention = config.idempotency().retention();
        this.metrics = metrics;
    }

    /** 1–255 visible ASCII characters (0x21–0x7E). */
    public static boolean isWellFormed(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /** SHA-256 of the raw body. */
    public static byte[] fingerprint(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the operation at most once per key, or answers for the request that did.
     *
     * @throws SQLException the database failed or the commit's outcome is unknown: answer 503; nothing is stored
     *     unless the commit happened, in which case a retry replays it
     */
    public Outcome execute(Scope scope, byte[] body, Operation operation) throws SQLException {
        byte[] fingerprint = fingerprint(body);
        for (int attempt = 1; ; attempt++) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                try {
                    Outcome outcome = executeIn(c, scope, fingerprint, operation);
                    if (outcome != null) {
                        return outcome;
                    }
                } catch (SQLException e) {
                    rollbackQuietly(c);
                    if (LOCK_NOT_AVAILABLE.equals(e.getSQLState()) && e instanceof ClaimWaitExpired) {
                        return inFlight();
                    }
                    throw e;
                } catch (RuntimeException e) {
                    rollbackQuietly(c);
                    throw e;
                }
            }
            if (attempt >= MAX_ATTEMPTS) {
                // the conflicting row vanished each time (expired and cleaned up in between): treat as in flight
                return inFlight();
            }
        }
    }

    /** One attempt; null when the conflicting row disappeared before it could be read (try again). */
    private Outcome executeIn(Connection c, Scope scope, byte[] fingerprint, Operation operation) throws SQLException {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Timestamp nowTs = Timestamp.from(now);
        try (Statement s = c.createStatement()) {
            // bounds the wait for a concurrent holder of the same key; the contract allows at most 2 s
            s.execute("SET LOCAL lock_timeout = '" + CLAIM_WAIT + "'");
        }
        try (PreparedStatement ps = c.prepareStatement(DELETE_EXPIRED)) {
            bindScope(ps, scope);
            ps.setTimestamp(4, nowTs);
            ps.executeUpdate();
        } catch (SQLException e) {
            // another request is replacing the same expired key right now
            throw LOCK_NOT_AVAILABLE.equals(e.getSQLState()) ? new ClaimWaitExpired(e) : e;
        }
        Long claimed = null;
        try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
            bindScope(ps, scope);
            ps.setBytes(4, fingerprint);
            ps.setTimestamp(5, nowTs);
            ps.setTimestamp(6, Timestamp.from(now.plus(retention)));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    claimed = rs.getLong(1);
                }
            }
        } catch (SQLException e) {
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                throw new ClaimWaitExpired(e);
            }
            throw e;
        }
        if (claimed == null) {
            Outcome existing = existing(c, scope, fingerprint, nowTs);
            c.rollback();
            return existing;
        }
        ApiAnswer answer = operation.run(c);
        if (answer.status() >= 500) {
            // a server failure is never stored: rolling back releases the key for a retry
            c.rollback();
            return new Outcome(answer, false, null);
        }
        Instant answeredAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        try (PreparedStatement ps = c.prepareStatement(STORE)) {
            ps.setInt(1, answer.status());
            ps.setString(2, answer.contentType());
            ps.setBytes(3, answer.body());
            ps.setTimestamp(4, Timestamp.from(answeredAt));
            ps.setLong(5, claimed);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("claimed idempotency key row missing", "40001");
            }
        }
        c.commit();
        return new Outcome(answer, false, answeredAt);
    }

    /** The committed row that won the claim: replay it, or 422 when it was claimed for another body. */
    private Outcome existing(Connection c, Scope scope, byte[] fingerprint, Timestamp now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EXISTING)) {
            bindScope(ps, scope);
            ps.setTimestamp(4, now);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                if (!MessageDigest.isEqual(rs.getBytes(1), fingerprint)) {
                    metrics.idempotencyConflict(NotifyMetrics.IdempotencyConflict.OTHER_BODY);
                    return new Outcome(Problem.mismatch().toAnswer(), false, null);
                }
                int status = rs.getInt(2);
                if (rs.wasNull()) {
                    // cannot be seen once committed (claim and answer commit together); defensive only
                    return inFlight();
                }
                Timestamp first = rs.getTimestamp(5);
                metrics.idempotencyReplay();
                return new Outcome(new ApiAnswer(status, rs.getString(3), rs.getBytes(4)), true, first.toInstant());
            }
        }
    }

    private Outcome inFlight() {
        metrics.idempotencyConflict(NotifyMetrics.IdempotencyConflict.IN_FLIGHT);
        return new Outcome(Problem.inFlight().toAnswer(), false, null);
    }

    private static void bindScope(PreparedStatement ps, Scope scope) throws SQLException {
        ps.setString(1, scope.clientId());
        ps.setString(2, scope.methodPath());
        ps.setString(3, scope.key());
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the pool discards it and the server rolls back on its own
        }
    }

    /** The claim waited {@link #CLAIM_WAIT} for another request holding the same key. */
    private static final class ClaimWaitExpired extends SQLException {
        ClaimWaitExpired(SQLException cause) {
            super("idempotency key held by a running request", LOCK_NOT_AVAILABLE, cause);
        }
    }
}
