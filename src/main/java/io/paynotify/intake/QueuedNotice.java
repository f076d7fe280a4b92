package io.paynotify.intake;

import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.persistence.Orders;
import java.util.concurrent.CompletableFuture;

/**
 * One admitted notification waiting for its writer.
 *
 * @param n the verified notification or query answer
 * @param source where it came from
 * @param deadlineNanos the {@link System#nanoTime()} after which its answer has left already
 * @param key its order's in-process key ({@link Orders#key})
 * @param answer completed with its outcome, once
 */
record QueuedNotice(
        VerifiedNotification n,
        Source source,
        long deadlineNanos,
        String key,
        CompletableFuture<IntakeOutcome> answer) {

    boolean expired(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }
}
