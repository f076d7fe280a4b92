package io.paynotify.simulator.trigger;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The providers write their times in UTC+08:00; these are the formats, read from an injected clock. */
final class BeijingTime {

    static final ZoneOffset OFFSET = ZoneOffset.ofHours(8);
    private static final DateTimeFormatter COMPACT = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
    private static final DateTimeFormatter PLAIN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private BeijingTime() {}

    static OffsetDateTime now(Clock clock) {
        return OffsetDateTime.now(clock).withOffsetSameInstant(OFFSET);
    }

    /** WeChat v2 {@code time_end}: {@code yyyyMMddHHmmss}. */
    static String compact(Clock clock) {
        return now(clock).format(COMPACT);
    }

    /** WeChat v2 refund {@code success_time}, Alipay's times: {@code yyyy-MM-dd HH:mm:ss}. */
    static String plain(Clock clock) {
        return now(clock).format(PLAIN);
    }

    /** Alipay {@code gmt_refund}, written with milliseconds as in Alipay's field table. */
    static String withMillis(Clock clock) {
        return now(clock).format(MILLIS);
    }

    /** WeChat v3 times: RFC 3339 with the +08:00 offset, whole seconds. */
    static String rfc3339(Clock clock) {
        return now(clock).truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }
}
