package io.paynotify.provider;

import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Logs refused deliveries at a bounded rate: channel (or {@code _unknown}), provider path, status and cause, never
 * the body, a signature or a key. A flood of garbage costs one line per second, not one per request.
 */
final class RejectionLog {

    private static final Logger LOG = Logger.getLogger("io.paynotify.notify");
    private static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final int PER_INTERVAL = 10;

    private final AtomicLong windowStart = new AtomicLong(System.nanoTime());
    private final AtomicLong inWindow = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();

    void rejected(String channel, String path, int status, NotifyRejection.Cause cause) {
        long now = System.nanoTime();
        long start = windowStart.get();
        if (now - start > INTERVAL_NANOS && windowStart.compareAndSet(start, now)) {
            inWindow.set(0);
            long dropped = suppressed.getAndSet(0);
            if (dropped > 0) {
                LOG.warnf("notify rejected: %d more deliveries not logged", dropped);
            }
        }
        if (inWindow.incrementAndGet() <= PER_INTERVAL) {
            LOG.warnf("notify rejected channel=%s provider=%s status=%d cause=%s", channel, path, status, cause);
        } else {
            suppressed.incrementAndGet();
        }
    }
}
