package io.paynotify.provider;

/**
 * A delivery refused before the state machine; it is never stored. The kind picks the status code and the
 * failure ack; the cause is for metrics and the rate-limited log only and never reaches the answer.
 */
public final class NotifyRejection extends Exception {

    /** The kinds of docs/api.md "Notify API", each with its status code. */
    public enum Kind {
        BAD_REQUEST(400),
        UNAUTHENTICATED(401),
        UNKNOWN_CHANNEL(404),
        TOO_LARGE(413);

        private final int status;

        Kind(int status) {
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** Why, as a fixed label for metrics and logs (never a value from the request). */
    public enum Cause {
        UNKNOWN_CHANNEL,
        TOO_LARGE,
        UNPARSEABLE,
        MISSING_FIELD,
        BAD_AMOUNT,
        SIGNATURE,
        STALE,
        DECRYPTION
    }

    private final Kind kind;
    private final Cause cause;

    public NotifyRejection(Kind kind, Cause cause) {
        super(kind + "/" + cause, null, false, false);
        this.kind = kind;
        this.cause = cause;
    }

    public static NotifyRejection badRequest(Cause cause) {
        return new NotifyRejection(Kind.BAD_REQUEST, cause);
    }

    public static NotifyRejection unauthenticated(Cause cause) {
        return new NotifyRejection(Kind.UNAUTHENTICATED, cause);
    }

    public Kind kind() {
        return kind;
    }

    public Cause rejectionCause() {
        return cause;
    }
}
