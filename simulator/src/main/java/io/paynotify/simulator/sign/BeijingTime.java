package io.paynotify.simulator.sign;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The providers write their times in Beijing time (UTC+08:00, no daylight saving); these are their formats. */
public final class BeijingTime {

    public static final ZoneOffset OFFSET = ZoneOffset.ofHours(8);

    /** WeChat v2 {@code time_end}: {@code 20141030133525}. */
    public static final DateTimeFormatter COMPACT =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(OFFSET);

    /**
     * Alipay's times and request {@code timestamp}, WeChat v2 refund {@code success_time}: {@code 2014-11-27 15:45:57}.
     */
    public static final DateTimeFormatter PLAIN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(OFFSET);

    /** Alipay {@code gmt_refund}, with milliseconds as in Alipay's field table: {@code 2014-11-27 15:45:57.123}. */
    public static final DateTimeFormatter MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(OFFSET);

    /** WeChat v3 times, RFC 3339 with the offset, whole seconds: {@code 2018-06-08T10:34:56+08:00}. */
    public static final DateTimeFormatter RFC3339 =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").withZone(OFFSET);

    private BeijingTime() {}

    public static String compact(Instant t) {
        return COMPACT.format(t);
    }

    public static String plain(Instant t) {
        return PLAIN.format(t);
    }

    public static String withMillis(Instant t) {
        return MILLIS.format(t);
    }

    public static String rfc3339(Instant t) {
        return RFC3339.format(t);
    }
}
