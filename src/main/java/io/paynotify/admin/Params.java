package io.paynotify.admin;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.core.event.EventType;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import java.util.Set;
import java.util.regex.Pattern;

/** Strict parsing of the admin query parameters: a value that is not exactly right is a 400 naming the parameter. */
final class Params {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private static final Set<String> STATES = Set.of("PENDING", "SUCCESS", "PARTIALLY_REFUNDED", "REFUNDED", "CLOSED");
    private static final Set<String> OUTCOMES = Set.of("APPLIED", "DUPLICATE", "IGNORED", "ANOMALY");
    private static final Set<String> DELIVERY_STATES = Set.of("PENDING", "SUCCEEDED", "FAILED");

    /** What a client id may look like in a query: 1 to 255 visible ASCII characters. */
    private static final Pattern CLIENT_ID = Pattern.compile("[\\x21-\\x7E]{1,255}");

    /** The public id of an event: {@code evt_} and 26 characters of [0-9A-Za-z]. */
    private static final Pattern EVENT_ID = Pattern.compile("evt_[0-9A-Za-z]{26}");

    private Params() {}

    private static ProblemException invalid(String parameter, String detail) {
        return new ProblemException(Problem.invalid(parameter, detail));
    }

    /** {@code limit}: 1..500, default 50; anything else (more than 500 included) is 400. */
    static int limit(String value) {
        if (value == null) {
            return DEFAULT_LIMIT;
        }
        if (!value.matches("[0-9]{1,4}")) {
            throw invalid("limit", "limit must be an integer from 1 to " + MAX_LIMIT);
        }
        int limit = Integer.parseInt(value);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw invalid("limit", "limit must be an integer from 1 to " + MAX_LIMIT);
        }
        return limit;
    }

    /** {@code channel}: a well-formed channel name (a removed channel's rows stay listable), or absent. */
    static String channel(String value) {
        if (value == null) {
            return null;
        }
        if (!ChannelRegistry.CHANNEL_NAME.matcher(value).matches()) {
            throw invalid("channel", "channel must be a channel name");
        }
        return value;
    }

    /** {@code state}: one of the order states, or absent. */
    static String state(String value) {
        if (value != null && !STATES.contains(value)) {
            throw invalid("state", "state must be one of PENDING, SUCCESS, PARTIALLY_REFUNDED, REFUNDED, CLOSED");
        }
        return value;
    }

    /** {@code outcome}: APPLIED, DUPLICATE, IGNORED or ANOMALY, or absent. */
    static String outcome(String value) {
        if (value != null && !OUTCOMES.contains(value)) {
            throw invalid("outcome", "outcome must be one of APPLIED, DUPLICATE, IGNORED, ANOMALY");
        }
        return value;
    }

    /** {@code source}: NOTIFY (a provider's delivery) or QUERY (an active query's answer), or absent. */
    static String source(String value) {
        if (value != null && !value.equals("NOTIFY") && !value.equals("QUERY")) {
            throw invalid("source", "source must be NOTIFY or QUERY");
        }
        return value;
    }

    /** {@code attention}: {@code true} (flagged orders only) or {@code false} (unflagged only), or absent. */
    static Boolean attention(String value) {
        if (value == null) {
            return null;
        }
        switch (value) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            default:
                throw invalid("attention", "attention must be true or false");
        }
    }

    /** {@code type}: an event type's wire name ({@code order.paid}, …), or absent (also when empty). */
    static String eventType(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (EventType.ofWireName(value) == null) {
            throw invalid("type", "type must be one of order.paid, order.closed, order.refunded, order.attention");
        }
        return value;
    }

    /** {@code state} of a delivery: PENDING, SUCCEEDED or FAILED, or absent (also when empty). */
    static String deliveryState(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!DELIVERY_STATES.contains(value)) {
            throw invalid("state", "state must be one of PENDING, SUCCEEDED, FAILED");
        }
        return value;
    }

    /**
     * {@code client}: a client id (one that is not configured simply matches nothing: its rows may outlive its
     * configuration), or absent (also when empty); 400 when it could not be a client id at all.
     */
    static String client(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!CLIENT_ID.matcher(value).matches()) {
            throw invalid("client", "client must be a client id: 1 to 255 visible ASCII characters");
        }
        return value;
    }

    /** Whether a path segment has the shape of an event id (anything else cannot exist: 404 without a query). */
    static boolean isEventId(String value) {
        return value != null && EVENT_ID.matcher(value).matches();
    }
}
