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
}
