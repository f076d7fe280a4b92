package io.paynotify.provider;

import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.logging.LogRateLimit;
import org.jboss.logging.Logger;

/**
 * Logs queries that got no verified answer, at a bounded rate: the channel, the error and a fixed reason, never an
 * order's body, a signature or a key.
 */
public final class QueryLog {

    private static final Logger LOG = Logger.getLogger("io.paynotify.query");

    private static final LogRateLimit LIMIT = new LogRateLimit(10);

    private QueryLog() {}

    /** Logs the failure and returns it as the answer. */
    public static QueryAnswer error(String channel, QueryError error, String reason) {
        LogRateLimit.Permit permit = LIMIT.tryLog();
        if (permit.suppressedBefore() > 0) {
            LOG.warnf("query failed: %d more failures not logged", permit.suppressedBefore());
        }
        if (permit.log()) {
            LOG.warnf("query failed channel=%s error=%s reason=%s", channel, error, reason);
        }
        return QueryAnswer.error(error);
    }

    /** As {@link #error(String, QueryError, String)} for a failed HTTP call. */
    public static QueryAnswer error(String channel, QueryHttp.Failed failed) {
        return error(channel, failed.error(), failed.getMessage());
    }

    /** One query's work: sends the request and reads the answer. */
    @FunctionalInterface
    public interface Call {
        QueryAnswer run() throws QueryHttp.Failed;
    }

    /**
     * Runs the call so that it never throws ({@code OrderQuery}'s promise): a failed HTTP call is its error, and
     * anything unexpected (a bug, a channel of another provider) is a logged MALFORMED error naming only the
     * exception's class.
     */
    public static QueryAnswer guarded(String channel, Call call) {
        try {
            return call.run();
        } catch (QueryHttp.Failed f) {
            return error(channel, f);
        } catch (RuntimeException e) {
            return error(
                    channel, QueryError.MALFORMED, "unexpected " + e.getClass().getSimpleName());
        }
    }
}
