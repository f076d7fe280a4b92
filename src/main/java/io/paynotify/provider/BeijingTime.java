package io.paynotify.provider;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Local times that WeChat v2 and Alipay send in Beijing time without an offset. Beijing is fixed at UTC+08:00 (China
 * has no daylight saving time); the JVM's default zone is never used. A malformed time is null: times are optional.
 */
public final class BeijingTime {

    /** UTC+08:00. */
    public static final ZoneOffset OFFSET = ZoneOffset.ofHours(8);

    private BeijingTime() {}

    /**
     * Fixed-width ASCII digits at the given offsets, validated like a STRICT {@code DateTimeFormatter} (no day 30 in
     * February, no hour 24). Hand-parsed because the formatter cost more than the rest of a notification's mapping
     * (see bench/README.md).
     *
     * @return the instant, or null when a field is not digits or the date does not exist
     */
    public static Instant parse(String t, int year, int month, int day, int hour, int minute, int second) {
        int y = digits(t, year, 4);
        int mo = digits(t, month, 2);
        int d = digits(t, day, 2);
        int h = digits(t, hour, 2);
        int mi = digits(t, minute, 2);
        int s = digits(t, second, 2);
        if ((y | mo | d | h | mi | s) < 0) {
            return null;
        }
        try {
            return LocalDateTime.of(y, mo, d, h, mi, s).toInstant(OFFSET);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * {@code yyyy-MM-dd HH:mm:ss} in Beijing time (Alipay's {@code gmt_payment} and {@code gmt_refund}, WeChat v2's
     * refund {@code success_time}), optionally followed by a fraction of a second ({@code .123}), which is dropped.
     *
     * @return the instant, or null when absent or malformed
     */
    public static Instant dashed(String text) {
        if (text == null || text.length() < 19) {
            return null;
        }
        if (text.length() > 19) {
            String fraction = text.substring(19);
            if (!fraction.matches("\\.[0-9]{1,9}")) {
                return null;
            }
        }
        if (text.charAt(4) != '-'
                || text.charAt(7) != '-'
                || text.charAt(10) != ' '
                || text.charAt(13) != ':'
                || text.charAt(16) != ':') {
            return null;
        }
        return parse(text, 0, 5, 8, 11, 14, 17);
    }

    /** The value of {@code n} ASCII digits at {@code at}, or -1. */
    private static int digits(String t, int at, int n) {
        int v = 0;
        for (int i = at; i < at + n; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
