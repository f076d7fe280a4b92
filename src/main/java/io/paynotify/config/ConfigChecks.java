package io.paynotify.config;

import java.time.Duration;
import java.util.List;

/** Checks of durations and schedules in the configuration (docs/operations.md "Configuration"); messages name the key only. */
public final class ConfigChecks {

    private ConfigChecks() {}

    /** The duration, which must be longer than zero. */
    public static Duration positive(Duration value, String key) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new ConfigProblem(key + " must be a positive duration");
        }
        return value;
    }

    /** A schedule: every step a positive duration, each longer than the one before. */
    public static List<Duration> increasing(List<Duration> steps, String key) {
        if (steps == null || steps.isEmpty()) {
            throw new ConfigProblem(key + " must list at least one step");
        }
        Duration previous = Duration.ZERO;
        for (Duration step : steps) {
            positive(step, key);
            if (step.compareTo(previous) <= 0) {
                throw new ConfigProblem(key + " must strictly increase");
            }
            previous = step;
        }
        return List.copyOf(steps);
    }
}
