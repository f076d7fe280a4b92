package io.paynotify.simulator.gateway;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The providers' time formats, all in Beijing time (UTC+08:00, no daylight saving). */
final class ChinaTime {

    static final ZoneOffset OFFSET = ZoneOffset.ofHours(8);

    /** WeChat v2 {@code time_end}: {@code 20141030133525}. */
    static final DateTimeFormatter WECHAT_V2 =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(OFFSET);

    /** WeChat v3 {@code success_time}, RFC 3339: {@code 2018-06-08T10:34:56+08:00}. */
    static final DateTimeFormatter WECHAT_V3 =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").withZone(OFFSET);

    /** Alipay {@code send_pay_date} and request {@code timestamp}: {@code 2014-11-27 15:45:57}. */
    static final DateTimeFormatter ALIPAY =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(OFFSET);

    private ChinaTime() {}

    static String wechatV2(Instant t) {
        return WECHAT_V2.format(t);
    }

    static String wechatV3(Instant t) {
        return WECHAT_V3.format(t);
    }

    static String alipay(Instant t) {
        return ALIPAY.format(t);
    }
}
