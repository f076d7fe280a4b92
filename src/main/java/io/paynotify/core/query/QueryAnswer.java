package io.paynotify.core.query;

import io.paynotify.core.notify.VerifiedNotification;
import java.util.Objects;

/**
 * A provider's answer to one active query, once checked (docs/api.md "Active query").
 *
 * @param result what the answer means
 * @param notification for PAID, CLOSE and UNKNOWN: the answer as a notification for the state machine (its raw
 *     body is the provider's response body); null otherwise
 * @param providerStatus the trade state the answer named (trade_state / trade_status), or null
 * @param error for ERROR: why; null otherwise
 */
public record QueryAnswer(
        QueryResult result, VerifiedNotification notification, String providerStatus, QueryError error) {

    public QueryAnswer {
        Objects.requireNonNull(result, "result");
        boolean recorded = result == QueryResult.PAID || result == QueryResult.CLOSE || result == QueryResult.UNKNOWN;
        if (recorded != (notification != null)) {
            throw new IllegalArgumentException(result + " answer with" + (recorded ? "out" : "") + " a notification");
        }
        if ((result == QueryResult.ERROR) != (error != null)) {
            throw new IllegalArgumentException(result + " answer with error " + error);
        }
    }

    /** A verified answer to record: its class is the notification's (PAID, CLOSE or UNKNOWN). */
    public static QueryAnswer recorded(QueryResult result, VerifiedNotification notification) {
        return new QueryAnswer(result, notification, notification.providerStatus(), null);
    }

    /** A verified non-final answer. */
    public static QueryAnswer notFinal(String providerStatus) {
        return new QueryAnswer(QueryResult.NOT_FINAL, null, providerStatus, null);
    }

    /** A verified "no such order" answer. */
    public static QueryAnswer notFound() {
        return new QueryAnswer(QueryResult.NOT_FOUND, null, null, null);
    }

    /** No verified answer. */
    public static QueryAnswer error(QueryError why) {
        return new QueryAnswer(QueryResult.ERROR, null, null, why);
    }
}
