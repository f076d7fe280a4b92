package io.paynotify.core.notify;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;

/**
 * Provider time formats. WeChat v2 and Alipay send Beijing time without an offset; v3 sends RFC 3339 with one. The
 * JVM default time zone is never used. A malformed time is null: times are optional fields.
 */
public final class ProviderTimes {

    /** Beijing time, fixed at UTC+08:00 (China has no daylight saving time). */
    public static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);

    private static final DateTimeFormatter WECHAT_V2 =
            DateTimeFormatter.ofPattern("uuuuMMddHHmmss").withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter ALIPAY =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);

    private ProviderTimes() {}

    /** v2 {@code time_end}, {@code yyyyMMddHHmmss} in Beijing time. */
    public static Instant wechatV2(String text) {
        return local(text, WECHAT_V2, 14);
    }

    /** Alipay {@code gmt_payment}, {@code yyyy-MM-dd HH:mm:ss} in Beijing time. */
    public static Instant alipay(String text) {
        return local(text, ALIPAY, 19);
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

    private static Instant local(String text, DateTimeFormatter format, int length) {
        if (text == null || text.length() != length) {
            return null;
        }
        try {
            return LocalDateTime.parse(text, format).toInstant(BEIJING);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
