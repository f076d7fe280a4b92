package io.paynotify.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RateLimitTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(1_000_000 * MS);

    @Test
    void allowsRateStartsAtOnceThenNoneUntilTheFirstIsASecondOld() {
        var limit = new RateLimit(3, now::get);
        assertEquals(3, limit.available());
        assertTrue(limit.tryAcquire());
        now.addAndGet(100 * MS);
        assertTrue(limit.tryAcquire());
        assertTrue(limit.tryAcquire());
        assertEquals(0, limit.available());
        assertFalse(limit.tryAcquire());

        now.addAndGet(899 * MS); // 999 ms after the first start
        assertFalse(limit.tryAcquire(), "the window is strict: still 3 starts in the last second");
        now.addAndGet(MS); // exactly one second after the first start
        assertEquals(1, limit.available());
        assertTrue(limit.tryAcquire());
        assertFalse(limit.tryAcquire());
        now.addAndGet(100 * MS);
        assertEquals(2, limit.available(), "the two starts of +100 ms are now a second old");
    }

    @Test
    void neverMoreThanRateStartsInAnySlidingSecond() {
        var limit = new RateLimit(10, now::get);
        var starts = new java.util.ArrayList<Long>();
        for (int step = 0; step < 5_000; step++) {
            now.addAndGet(7 * MS);
            while (limit.tryAcquire()) {
                starts.add(now.get());
            }
        }
        for (int i = 0; i + 10 < starts.size(); i++) {
            assertTrue(starts.get(i + 10) - starts.get(i) >= 1_000 * MS, "11 starts within one second at " + i);
        }
        assertTrue(starts.size() >= 340, "it does let the rate through: " + starts.size() + " in 35 s");
    }

    @Test
    void aRateBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimit(0, now::get));
    }
}
