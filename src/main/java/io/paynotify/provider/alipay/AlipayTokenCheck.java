package io.paynotify.provider.alipay;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The decision logic of an ISV merchant's {@code app_auth_token} confirmation (docs/api.md "Account modes"), pure: no
 * I/O, no clock of its own. A token is used only while a verified {@code alipay.open.auth.token.app.query} answer of
 * the last 24 h said {@code status} {@code valid} and named the {@code auth_app_id} the token is configured under. A
 * check is due before first use and 24 h after the last decided check; a check that got no verified answer is tried
 * again before the next use, at most once a minute.
 *
 * @param status what the last check found
 * @param checkedAt when the last check was sent (null while {@link Status#UNCHECKED})
 * @param reason a fixed text saying why the token is not confirmed (null when confirmed or unchecked); never the token
 */
record AlipayTokenCheck(Status status, Instant checkedAt, String reason) {

    /** How long a confirmation holds, and when a refused token is asked about again. */
    static final Duration RECHECK = Duration.ofHours(24);

    /** The shortest gap between two checks of a token whose last check got no verified answer. */
    static final Duration RETRY = Duration.ofMinutes(1);

    /** Alipay's {@code status} of a token that is in force. */
    static final String VALID = "valid";

    /** Alipay's gateway code for "service temporarily unavailable" (服务不可用): no decision about the token. */
    static final String UNAVAILABLE_CODE = "20000";

    /** What the last check of a token found. */
    enum Status {
        /** Never checked: not usable, a check is due. */
        UNCHECKED,
        /** A verified answer said valid, for this {@code auth_app_id}. */
        CONFIRMED,
        /** A verified answer said the token is not valid, or belongs to another merchant. */
        REFUSED,
        /** No verified answer (timeout, transport, HTTP status, signature, unreadable, gateway unavailable). */
        UNANSWERED
    }

    AlipayTokenCheck {
        Objects.requireNonNull(status, "status");
        if ((status == Status.UNCHECKED) != (checkedAt == null)) {
            throw new IllegalArgumentException(status + " with checkedAt " + checkedAt);
        }
    }

    /** A token nobody has asked Alipay about yet. */
    static AlipayTokenCheck unchecked() {
        return new AlipayTokenCheck(Status.UNCHECKED, null, null);
    }

    /** True when the token may be sent now: confirmed less than 24 h ago. */
    boolean usable(Instant now) {
        return status == Status.CONFIRMED && now.isBefore(checkedAt.plus(RECHECK));
    }

    /**
     * True when a check should be sent now: never checked; confirmed or refused 24 h ago or more; or unanswered a
     * minute ago or more.
     */
    boolean due(Instant now) {
        return switch (status) {
            case UNCHECKED -> true;
            case CONFIRMED, REFUSED -> !now.isBefore(checkedAt.plus(RECHECK));
            case UNANSWERED -> !now.isBefore(checkedAt.plus(RETRY));
        };
    }

    /**
     * True when the token counts in {@code paynotify_isv_tokens_invalid}: its last check did not confirm it (refused,
     * or no verified answer). A confirmation older than 24 h is not a failure yet: its re-check is due.
     */
    boolean failed() {
        return status == Status.REFUSED || status == Status.UNANSWERED;
    }

    /** The state after a check sent at {@code sentAt} that got no verified answer. */
    static AlipayTokenCheck unanswered(Instant sentAt, String reason) {
        return new AlipayTokenCheck(Status.UNANSWERED, sentAt, reason);
    }

    /**
     * The state after a check sent at {@code sentAt} whose answer was verified (its signature checked as every
     * query answer's).
     *
     * @param code the answer's {@code code}
     * @param tokenStatus its {@code status}, or null
     * @param answeredAuthAppId its {@code auth_app_id}, or null
     * @param configuredAuthAppId the {@code auth_app_id} the token is configured under
     */
    static AlipayTokenCheck verified(
            Instant sentAt, String code, String tokenStatus, String answeredAuthAppId, String configuredAuthAppId) {
        if (code == null) {
            return unanswered(sentAt, "answer without code");
        }
        if (UNAVAILABLE_CODE.equals(code)) {
            return unanswered(sentAt, "gateway unavailable (code 20000)");
        }
        if (!AlipayGateway.SUCCESS_CODE.equals(code)) {
            // a verified refusal of the gateway: an unknown or revoked token, no permission, bad arguments
            return new AlipayTokenCheck(Status.REFUSED, sentAt, "refused with code " + fixed(code));
        }
        if (!VALID.equals(tokenStatus)) {
            return new AlipayTokenCheck(Status.REFUSED, sentAt, "status is not valid");
        }
        if (answeredAuthAppId == null) {
            return new AlipayTokenCheck(Status.REFUSED, sentAt, "answer names no auth_app_id");
        }
        if (!answeredAuthAppId.equals(configuredAuthAppId)) {
            return new AlipayTokenCheck(Status.REFUSED, sentAt, "token belongs to another auth_app_id");
        }
        return new AlipayTokenCheck(Status.CONFIRMED, sentAt, null);
    }

    /** A code as a log may show it: Alipay's codes are five digits; anything else is not repeated. */
    private static String fixed(String code) {
        return code.matches("[0-9]{1,8}") ? code : "(not numeric)";
    }
}
