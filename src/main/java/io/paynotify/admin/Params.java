package io.paynotify.admin;

import io.paynotify.channel.ChannelRegistry;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import java.util.Set;

/** Strict parsing of the admin query parameters: a value that is not exactly right is a 400 naming the parameter. */
final class Params {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private static final Set<String> STATES = Set.of("PENDING", "SUCCESS", "PARTIALLY_REFUNDED", "REFUNDED", "CLOSED");
    private static final Set<String> OUTCOMES = Set.of("APPLIED", "DUPLICATE", "IGNORED", "ANOMALY");

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
}
