package io.paynotify.notify;

import io.paynotify.logging.LogRateLimit;
import io.paynotify.provider.NotifyRejection;
import org.jboss.logging.Logger;

/**
 * Logs refused deliveries at a bounded rate: channel (or {@code _unknown}), provider path, status and cause, never
 * the body, a signature or a key. A flood of garbage costs ten lines per second, not one per request.
 */
final class RejectionLog {

    private static final Logger LOG = Logger.getLogger("io.paynotify.notify");

    private final LogRateLimit limit = new LogRateLimit(10);

    void rejected(String channel, String path, int status, NotifyRejection.Cause cause) {
        LogRateLimit.Permit permit = limit.tryLog();
        if (permit.suppressedBefore() > 0) {
            LOG.warnf("notify rejected: %d more deliveries not logged", permit.suppressedBefore());
        }
        if (permit.log()) {
            LOG.warnf("notify rejected channel=%s provider=%s status=%d cause=%s", channel, path, status, cause);
        }
    }
}
