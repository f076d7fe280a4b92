package io.paynotify.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** The two time formats of the APIs, both in UTC whatever the JVM's default zone. */
public final class HttpDates {

    /** RFC 7231 IMF-fixdate, e.g. {@code Fri, 02 Jan 2026 03:04:05 GMT} (always two-digit days). */
    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** JSON times: UTC with exactly three fraction digits, e.g. {@code 2026-01-02T03:04:05.123Z}. */
    private static final DateTimeFormatter JSON_TIME = DateTimeFormatter.ofPattern(
                    "uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private HttpDates() {}

    /** An HTTP date header value. */
    public static String imfFixdate(Instant t) {
        return IMF_FIXDATE.format(t);
    }

    /** A JSON time value, truncated to milliseconds. */
    public static String jsonTime(Instant t) {
        return JSON_TIME.format(t.truncatedTo(ChronoUnit.MILLIS));
    }
}
