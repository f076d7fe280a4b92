package io.paynotify.provider.alipay;

import io.paynotify.core.statement.BillAmounts;
import io.paynotify.provider.BeijingTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Alipay's amount and time formats, as its notification fields carry them. */
final class AlipayFormats {

    /** The gateway's {@code timestamp}: {@code yyyy-MM-dd HH:mm:ss} in Beijing time (the SDK's {@code GMT+8}). */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);

    private AlipayFormats() {}

    /** A request's {@code timestamp} at that instant, in UTC+08:00 whatever the JVM's zone. */
    static String timestamp(Instant at) {
        return TIMESTAMP.format(LocalDateTime.ofInstant(at, BeijingTime.OFFSET));
    }

    /**
     * An amount in yuan ({@code total_amount}, {@code refund_fee}) in fen, exactly: "42.00" is 4200, "0.1" is 10,
     * "178" is 17800. ASCII only; {@code 1E+5} and full-width digits are refused.
     *
     * @return the amount in fen, or null when the text is not {@code [0-9]{1,9}(.[0-9]{1,2})?}
     */
    static Long yuanToFen(String text) {
        return BillAmounts.yuanToFen(text, false);
    }

    /** {@code gmt_payment}, {@code yyyy-MM-dd HH:mm:ss} in Beijing time; null when absent or malformed. */
    static Instant time(String text) {
        return text == null || text.length() != 19 ? null : BeijingTime.dashed(text);
    }

    /** {@code gmt_refund}: {@code yyyy-MM-dd HH:mm:ss}, optionally with a fraction, in Beijing time. */
    static Instant refundTime(String text) {
        return BeijingTime.dashed(text);
    }
}
