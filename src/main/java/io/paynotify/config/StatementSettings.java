package io.paynotify.config;

import java.time.Duration;
import java.time.LocalTime;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The statement settings of CONTRACT.md §11, checked at start by {@link ChannelRegistry}: the global
 * {@code paynotify.statements.*} keys and, per channel, {@code statements-enabled} and
 * {@code statements-order-pattern}.
 *
 * @param time Beijing time of day after which yesterday's bill is fetched
 * @param holdDays whole days after a payment's (or refund's) day whose bills may still hold it
 * @param retry how often a NOT_READY or retried error is fetched again
 * @param lease a claim's lease, renewed every 30 s while its work runs
 * @param downloadTimeout how long a bill download may run once its first byte arrived
 * @param retention how long bill lines are kept
 * @param schedulerEnabled whether this replica runs the daily scheduler (false only in tests)
 * @param enabled the channels with {@code statements-enabled=true}, by name
 * @param orderPatterns each channel's {@code statements-order-pattern} (default {@code .*}), by name
 */
public record StatementSettings(
        LocalTime time,
        int holdDays,
        Duration retry,
        Duration lease,
        Duration downloadTimeout,
        Duration retention,
        boolean schedulerEnabled,
        Map<String, Boolean> enabled,
        Map<String, Pattern> orderPatterns) {

    private static final Pattern HH_MM = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]");

    /** Whether the channel's bills are fetched by the scheduler and by an operator's fetch. */
    public boolean enabled(String channel) {
        return enabled.getOrDefault(channel, false);
    }

    /** Whether an order number on the channel is this service's (the line is then compared, else foreign). */
    public boolean ours(String channel, String outTradeNo) {
        Pattern p = orderPatterns.get(channel);
        return outTradeNo != null && (p == null || p.matcher(outTradeNo).matches());
    }

    /** {@code paynotify.statements.time}: {@code HH:mm}, else the start fails naming the key. */
    static LocalTime time(String text) {
        String t = text == null ? "" : text.strip();
        if (!HH_MM.matcher(t).matches()) {
            throw new ConfigProblem("paynotify.statements.time must be a Beijing time of day as HH:mm");
        }
        return LocalTime.parse(t);
    }

    /** {@code paynotify.statements.hold}: a whole number of days, at least 0. */
    static int holdDays(Duration hold) {
        if (hold == null
                || hold.isNegative()
                || hold.toNanos() % Duration.ofDays(1).toNanos() != 0) {
            throw new ConfigProblem("paynotify.statements.hold must be a whole number of days, at least 0d");
        }
        long days = hold.toDays();
        if (days > 31) {
            throw new ConfigProblem("paynotify.statements.hold must be at most 31d");
        }
        return (int) days;
    }
}
