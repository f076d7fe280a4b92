package io.paynotify.logging;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A per-second budget for log lines about refused requests, so that a flood of garbage costs a few lines per second,
 * not one per request. Shared by the notify and merchant-API rejection logs.
 */
public final class LogRateLimit {

    private static final long INTERVAL_NANOS = 1_000_000_000L;

    private final int perSecond;
    private final AtomicLong windowStart = new AtomicLong(System.nanoTime());
    private final AtomicLong inWindow = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();

    public LogRateLimit(int perSecond) {
        this.perSecond = perSecond;
    }

    /** The outcome of one {@link #tryLog()}: whether to log, and how many lines the last window suppressed. */
    public record Permit(boolean log, long suppressedBefore) {}

    /** Takes one line from this second's budget. */
    public Permit tryLog() {
        long now = System.nanoTime();
        long start = windowStart.get();
        long dropped = 0;
        if (now - start > INTERVAL_NANOS && windowStart.compareAndSet(start, now)) {
            inWindow.set(0);
            dropped = suppressed.getAndSet(0);
        }
        if (inWindow.incrementAndGet() <= perSecond) {
            return new Permit(true, dropped);
        }
        suppressed.incrementAndGet();
        return new Permit(false, dropped);
    }
}
