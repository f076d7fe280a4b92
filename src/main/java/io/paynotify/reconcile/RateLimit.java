package io.paynotify.reconcile;

import java.util.function.LongSupplier;

/**
 * At most {@code rate} starts in any one-second window (a strict sliding window: the start times of the last
 * {@code rate} calls are kept, and a new call may start only when the oldest of them is a second old). Thread-safe.
 */
final class RateLimit {

    private static final long WINDOW_NANOS = 1_000_000_000L;

    private final long[] starts;
    private final LongSupplier nanoTime;
    private int next;

    /**
     * @param rate the most starts per second, at least 1
     * @param nanoTime the clock ({@link System#nanoTime} outside tests)
     */
    RateLimit(int rate, LongSupplier nanoTime) {
        if (rate < 1) {
            throw new IllegalArgumentException("rate must be at least 1");
        }
        this.starts = new long[rate];
        this.nanoTime = nanoTime;
        long now = nanoTime.getAsLong();
        for (int i = 0; i < rate; i++) {
            starts[i] = now - WINDOW_NANOS;
        }
    }

    /** How many calls may start now. */
    synchronized int available() {
        long now = nanoTime.getAsLong();
        int free = 0;
        for (long start : starts) {
            if (now - start >= WINDOW_NANOS) {
                free++;
            }
        }
        return free;
    }

    /** Takes one permit if one is free now. */
    synchronized boolean tryAcquire() {
        long now = nanoTime.getAsLong();
        if (now - starts[next] < WINDOW_NANOS) {
            return false;
        }
        starts[next] = now;
        next = (next + 1) % starts.length;
        return true;
    }
}
