package io.paynotify.core.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The retry schedule of docs/api.md "Webhooks": steps with ±20 % jitter, Retry-After as a floor capped at an hour. */
@Tag("unit")
class RetryScheduleTest {

    static final RetrySchedule DEFAULT = new RetrySchedule(List.of(
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            Duration.ofMinutes(2),
            Duration.ofMinutes(10),
            Duration.ofMinutes(30),
            Duration.ofHours(1),
            Duration.ofHours(2),
            Duration.ofHours(4),
            Duration.ofHours(8),
            Duration.ofHours(12)));

    @Test
    void elevenAttemptsByDefault() {
        assertEquals(11, DEFAULT.maxAttempts());
        assertEquals(OptionalLong.empty(), DEFAULT.delayMillis(11, 0.5, OptionalLong.empty()));
        assertTrue(DEFAULT.delayMillis(10, 0.5, OptionalLong.empty()).isPresent());
    }

    @Test
    void eachStepIsJitteredByTwentyPercent() {
        assertEquals(4_000, DEFAULT.delayMillis(1, 0.0, OptionalLong.empty()).getAsLong());
        assertEquals(5_000, DEFAULT.delayMillis(1, 0.5, OptionalLong.empty()).getAsLong());
        assertEquals(5_999, DEFAULT.delayMillis(1, 0.9995, OptionalLong.empty()).getAsLong());
        assertEquals(24_000, DEFAULT.delayMillis(2, 0.0, OptionalLong.empty()).getAsLong());
        assertEquals(
                Duration.ofHours(12).toMillis(),
                DEFAULT.delayMillis(10, 0.5, OptionalLong.empty()).getAsLong());
    }

    @Test
    void retryAfterIsAFloorCappedAtAnHour() {
        // longer than the jittered step: Retry-After wins
        assertEquals(60_000, DEFAULT.delayMillis(1, 0.5, OptionalLong.of(60)).getAsLong());
        // shorter: the step wins
        assertEquals(30_000, DEFAULT.delayMillis(2, 0.5, OptionalLong.of(1)).getAsLong());
        // capped at an hour
        assertEquals(
                3_600_000, DEFAULT.delayMillis(1, 0.5, OptionalLong.of(86_400)).getAsLong());
        // but never below a longer step
        assertEquals(
                Duration.ofHours(2).toMillis(),
                DEFAULT.delayMillis(7, 0.5, OptionalLong.of(86_400)).getAsLong());
    }
}
