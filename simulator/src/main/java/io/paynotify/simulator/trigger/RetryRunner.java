package io.paynotify.simulator.trigger;

import java.time.Duration;
import java.util.List;

/**
 * Delivers one notice the way the provider does when it gets no acknowledgement: again after each wait of the
 * provider's retry schedule, until an answer acknowledges it or the schedule ends. {@code speed} divides the waits.
 */
final class RetryRunner {

    /** Waits between deliveries; tests may pass a recording one. */
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    /** The statuses docs/api.md#notify-api allows for a failure ack. */
    private static final List<Integer> FAILURE_STATUSES = List.of(400, 401, 404, 413, 422, 503);

    private final NotifySender sender;
    private final Sleeper sleeper;

    RetryRunner(NotifySender sender, Sleeper sleeper) {
        this.sender = sender;
        this.sleeper = sleeper;
    }

    /**
     * Runs the deliveries; true when one was acknowledged with the exact success ack and every earlier answer was a
     * well-formed failure ack.
     */
    boolean run(Notices notices, Notice first, Provider provider, long speed, SendLog log) throws InterruptedException {
        List<Duration> waits = provider.retrySchedule();
        int deliveries = waits.size() + 1;
        boolean allConforming = true;
        for (int i = 0; i < deliveries; i++) {
            Notice notice = i == 0 ? first : notices.again(first);
            Answer answer = sender.send(notice);
            if (provider.acknowledges(answer)) {
                boolean exact = Expectation.successAck("").matches(provider, answer);
                log.recordAttempt(
                        notice,
                        answer,
                        exact,
                        exact
                                ? "acknowledged: " + provider.displayName() + " stops re-sending"
                                : "acknowledged, but not with the exact success ack of docs/api.md#notify-api");
                return allConforming && exact;
            }
            boolean failureAck = isFailureAck(provider, answer);
            allConforming &= failureAck;
            String shape = failureAck ? "a failure ack" : "NOT a failure ack of docs/api.md#notify-api";
            if (i == deliveries - 1) {
                log.recordAttempt(
                        notice,
                        answer,
                        failureAck,
                        "not acknowledged (" + shape + "); that was delivery " + deliveries + " of " + deliveries + ": "
                                + provider.displayName() + " gives up");
                return false;
            }
            Duration wait = waits.get(i);
            Duration scaled = wait.dividedBy(speed);
            log.recordAttempt(
                    notice,
                    answer,
                    failureAck,
                    "not acknowledged (" + shape + "): "
                            + provider.displayName() + " delivers it again in " + human(wait) + " (delivery " + (i + 2)
                            + " of " + deliveries
                            + (speed > 1 ? "; waiting " + human(scaled) + " at --speed " + speed : "")
                            + ")");
            sleeper.sleep(scaled);
        }
        return false;
    }

    private static boolean isFailureAck(Provider provider, Answer answer) {
        return answer.arrived()
                && FAILURE_STATUSES.contains(answer.status())
                && Expectation.failureAck(answer.status(), "").matches(provider, answer);
    }

    static String human(Duration d) {
        if (d.toMillis() < 1000) {
            return d.toMillis() + " ms";
        }
        if (d.toSeconds() < 120) {
            return d.toSeconds() + " s";
        }
        if (d.toMinutes() < 120) {
            return d.toMinutes() + " min";
        }
        return d.toHours() + " h";
    }
}
