package io.paynotify.provider.alipay;

import io.paynotify.provider.BeijingTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Pattern;

/** Alipay's amount and time formats, as its notification fields carry them. */
final class AlipayFormats {

    private static final Pattern YUAN = Pattern.compile("([0-9]{1,9})(?:\\.([0-9]{1,2}))?");

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
        if (text == null) {
            return null;
        }
        var m = YUAN.matcher(text);
        if (!m.matches()) {
            return null;
        }
        long yuan = Long.parseLong(m.group(1));
        String frac = m.group(2);
        long fen = 0;
        if (frac != null) {
            fen = frac.length() == 1 ? (frac.charAt(0) - '0') * 10L : Long.parseLong(frac);
        }
        return yuan * 100 + fen;
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
