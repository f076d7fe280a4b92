package io.paynotify.statements;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statement work's duty cycle (bench/README.md "Statements"): after a batch, it rests as long as the batch took, so
 * that a run uses at most half of a core and of PostgreSQL's time and the intake's notifications keep their latency.
 */
@Tag("unit")
class StatementDutyCycleTest {

    /** Busy for about that long (CPU, as parsing a bill is). */
    static long spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += System.nanoTime() & 7;
        }
        return x;
    }

    @Test
    void afterEachBatchTheWorkRestsInProportionToTheBatchsTime() {
        var duty = new Reconciler.DutyCycle();
        long total = 0;
        long busy = 0;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            spin(40);
            long t1 = System.nanoTime();
            duty.pause();
            long t2 = System.nanoTime();
            busy += t1 - t0;
            total += t2 - t0;
        }
        double share = (double) busy / total;
        assertTrue(share <= Reconciler.DUTY + 0.05, "the work used " + share + " of the wall time");
        assertTrue(share >= 0.2, "and did not rest much longer than needed: " + share);
    }

    @Test
    void aPauseRightAfterAnotherIsShort() {
        var duty = new Reconciler.DutyCycle();
        duty.pause();
        long t0 = System.nanoTime();
        duty.pause();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 200, "no work, (almost) no rest: " + ms + " ms");
    }
}
