package io.paynotify.intake;

import io.paynotify.core.order.Decision;
import io.paynotify.persistence.DatabaseUnavailable;

/**
 * What became of one notification handed to the {@link NotificationIntake}: decided and committed, or not, and why
 * not. One value for every end, so that a caller answers from it without unpicking exceptions: only
 * {@link Kind#DECIDED} was committed; every other kind wrote nothing of this notification, and the provider gets
 * its failure ack (503) and retries.
 *
 * @param kind how it ended
 * @param decision what the state machine decided ({@link Kind#DECIDED} only, else null)
 * @param recorded whether the delivery's row was stored (false past the per-order cap of recorded deliveries)
 * @param events how many merchant events the decision wrote (docs/api.md "Merchant events")
 * @param notificationId the recorded row's id, or null when it was not recorded
 * @param cause what failed ({@link Kind#DATABASE_FAILED} and {@link Kind#FAILED}), else null
 */
public record IntakeOutcome(
        Kind kind, Decision decision, boolean recorded, int events, Long notificationId, Throwable cause) {

    /** How one notification's intake ended. */
    public enum Kind {
        /** Decided, written and committed: answer from the decision. */
        DECIDED,
        /** Refused at once by the per-order admission bound (docs/api.md "Admission"): not recorded. */
        NOT_ADMITTED,
        /** Refused at once: its writer's queue is full. */
        QUEUE_FULL,
        /** Its deadline passed before its turn: dropped before it touched the database (its 503 has left). */
        EXPIRED,
        /** The database failed, or the COMMIT's outcome is unknown: nothing of it may be acknowledged. */
        DATABASE_FAILED,
        /** Something unexpected failed this notification alone; its changes were rolled back. */
        FAILED
    }

    static IntakeOutcome decided(Decision decision, Long notificationId, int events) {
        return new IntakeOutcome(Kind.DECIDED, decision, notificationId != null, events, notificationId, null);
    }

    /** Decided on a plain read at the per-order cap: nothing written. */
    static IntakeOutcome decidedWithoutWrite(Decision decision) {
        return new IntakeOutcome(Kind.DECIDED, decision, false, 0, null, null);
    }

    static IntakeOutcome refused(Kind kind) {
        return new IntakeOutcome(kind, null, false, 0, null, null);
    }

    /** A failure: {@link Kind#DATABASE_FAILED} for a {@link DatabaseUnavailable}, else {@link Kind#FAILED}. */
    static IntakeOutcome failed(Throwable cause) {
        Kind kind = cause instanceof DatabaseUnavailable ? Kind.DATABASE_FAILED : Kind.FAILED;
        return new IntakeOutcome(kind, null, false, 0, null, cause);
    }

    /** What a caller makes of a failure that should never happen (the intake's future completing exceptionally). */
    public static IntakeOutcome failure(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause()
                : error;
        return failed(cause);
    }

    /** True when the notification was decided and everything it wrote is committed. */
    public boolean decided() {
        return kind == Kind.DECIDED;
    }

    /** The SQLState of a database failure, or null. */
    public String sqlState() {
        return cause instanceof DatabaseUnavailable db ? db.sqlState() : null;
    }
}
