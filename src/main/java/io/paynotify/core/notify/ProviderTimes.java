package io.paynotify.core.notify;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Provider time formats. WeChat v2 and Alipay send Beijing time without an offset; v3 sends RFC 3339 with one. The
 * JVM default time zone is never used. A malformed time is null: times are optional fields.
 */
public final class ProviderTimes {

    /** Beijing time, fixed at UTC+08:00 (China has no daylight saving time). */
    public static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);

    private ProviderTimes() {}

    /** v2 {@code time_end}, {@code yyyyMMddHHmmss} in Beijing time. */
    public static Instant wechatV2(String text) {
        if (text == null || text.length() != 14) {
            return null;
        }
        return local(text, 0, 4, 6, 8, 10, 12);
    }

    /** Alipay {@code gmt_payment}, {@code yyyy-MM-dd HH:mm:ss} in Beijing time. */
    public static Instant alipay(String text) {
        if (text == null
                || text.length() != 19
                || text.charAt(4) != '-'
                || text.charAt(7) != '-'
                || text.charAt(10) != ' '
                || text.charAt(13) != ':'
                || text.charAt(16) != ':') {
            return null;
        }
        return local(text, 0, 5, 8, 11, 14, 17);
    }

    /** v3 {@code success_time}, RFC 3339 with its own offset. */
    public static Instant rfc3339(String text) {
        if (text == null || text.length() > 40) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Fixed-width ASCII digits at the given offsets, validated like a STRICT {@code DateTimeFormatter} (no day 30 in
     * February, no hour 24). Hand-parsed because the formatter cost more than the rest of a notification's mapping
     * (JFR, bench/ issue 6).
     */
    private static Instant local(String t, int year, int month, int day, int hour, int minute, int second) {
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
            return LocalDateTime.of(y, mo, d, h, mi, s).toInstant(BEIJING);
        } catch (DateTimeException e) {
            return null;
        }
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
