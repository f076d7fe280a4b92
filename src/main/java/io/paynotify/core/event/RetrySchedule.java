package io.paynotify.core.event;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * When a failed delivery is attempted again (docs/api.md "Webhooks"): after failed attempt <i>n</i> the <i>n</i>-th step of
 * the schedule, ±20 % random jitter, or a longer {@code Retry-After} (capped at an hour); after the last step's
 * attempt fails, never again.
 */
public final class RetrySchedule {

    /** The longest {@code Retry-After} honoured. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

    private final List<Duration> steps;

    public RetrySchedule(List<Duration> steps) {
        this.steps = List.copyOf(steps);
    }

    /** How many attempts a delivery gets in all: one plus one per step. */
    public int maxAttempts() {
        return steps.size() + 1;
    }

    /**
     * The delay before the next attempt, after {@code failedAttempts} attempts failed.
     *
     * @param jitter a number in [0, 1) (uniformly random in production): 0 is −20 %, 1 would be +20 %
     * @param retryAfterSeconds the answer's {@code Retry-After} in seconds, if it had one
     * @return the delay in milliseconds, or empty when the delivery has had its last attempt
     */
    public OptionalLong delayMillis(int failedAttempts, double jitter, OptionalLong retryAfterSeconds) {
        if (failedAttempts < 1 || failedAttempts > steps.size()) {
            return OptionalLong.empty();
        }
        long step = steps.get(failedAttempts - 1).toMillis();
        long jittered = Math.round(step * (0.8 + 0.4 * jitter));
        if (retryAfterSeconds.isPresent() && retryAfterSeconds.getAsLong() > 0) {
            long asked = Math.min(retryAfterSeconds.getAsLong() * 1000, MAX_RETRY_AFTER.toMillis());
            return OptionalLong.of(Math.max(jittered, asked));
        }
        return OptionalLong.of(jittered);
    }
}
