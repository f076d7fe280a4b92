package io.paynotify.idempotency;

import io.paynotify.config.PaynotifyConfig;
import io.paynotify.http.ApiAnswer;
import io.paynotify.http.Problem;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.IdempotencyKeyRows;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The Idempotency-Key of every merchant POST (docs/api.md "Idempotency-Key"), held by PostgreSQL alone.
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

    private final Transactions transactions;
    private final Clock clock;
    private final Duration retention;
    private final Meters metrics;

    @Inject
    public IdempotencyKeys(Transactions transactions, Clock clock, PaynotifyConfig config, Meters metrics) {
        this.transactions = transactions;
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
     * @throws io.paynotify.persistence.DatabaseUnavailable the database failed or the commit's outcome is unknown:
     *     answer 503; nothing is stored unless the commit happened, in which case a retry replays it
     */
    public Outcome execute(Scope scope, byte[] body, Operation operation) {
        byte[] fingerprint = fingerprint(body);
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Outcome outcome =
                    transactions.inTransaction(Transactions.Retry.NONE, c -> attempt(c, scope, fingerprint, operation));
            if (outcome != null) {
                return outcome;
            }
        }
        // the conflicting row vanished each time (expired and cleaned up in between): treat as in flight
        return inFlight();
    }

    /** One attempt; null when the conflicting row disappeared before it could be read (try again). */
    private Outcome attempt(Connection c, Scope scope, byte[] fingerprint, Operation operation) throws SQLException {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Long claimed;
        try {
            // bounds the wait for a concurrent holder of the same key; the contract allows at most 2 s
            IdempotencyKeyRows.lockTimeout(c, CLAIM_WAIT);
            IdempotencyKeyRows.deleteExpired(c, scope.clientId(), scope.methodPath(), scope.key(), now);
            claimed = IdempotencyKeyRows.claim(
                    c, scope.clientId(), scope.methodPath(), scope.key(), fingerprint, now, now.plus(retention));
        } catch (SQLException e) {
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                // another request holds the key (or is replacing its expired row) for longer than CLAIM_WAIT
                c.rollback();
                return inFlight();
            }
            throw e;
        }
        if (claimed == null) {
            Outcome existing = existing(c, scope, fingerprint, now);
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
        IdempotencyKeyRows.store(c, claimed, answer.status(), answer.contentType(), answer.body(), answeredAt);
        return new Outcome(answer, false, answeredAt);
    }

    /** The committed row that won the claim: replay it, or 422 when it was claimed for another body. */
    private Outcome existing(Connection c, Scope scope, byte[] fingerprint, Instant now) throws SQLException {
        IdempotencyKeyRows.Stored stored =
                IdempotencyKeyRows.existing(c, scope.clientId(), scope.methodPath(), scope.key(), now);
        if (stored == null) {
            return null;
        }
        if (!MessageDigest.isEqual(stored.fingerprint(), fingerprint)) {
            metrics.idempotencyConflict(Meters.IdempotencyConflict.OTHER_BODY);
            return new Outcome(Problem.mismatch().toAnswer(), false, null);
        }
        if (stored.status() == null) {
            // cannot be seen once committed (claim and answer commit together); defensive only
            return inFlight();
        }
        metrics.idempotencyReplay();
        return new Outcome(
                new ApiAnswer(stored.status(), stored.contentType(), stored.body()), true, stored.firstAnswerAt());
    }

    private Outcome inFlight() {
        metrics.idempotencyConflict(Meters.IdempotencyConflict.IN_FLIGHT);
        return new Outcome(Problem.inFlight().toAnswer(), false, null);
    }
}
