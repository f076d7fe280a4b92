package io.paynotify.core.money;

import java.util.regex.Pattern;

/**
 * Amounts in fen (the minor unit of CNY), as {@code long}. Parsing is strict and ASCII only: the JDK's
 * {@code Long.parseLong} accepts full-width and Arabic-Indic digits, and {@code BigDecimal} accepts
 * {@code 1E+5000000}, whose scaling burns seconds of CPU. The regular expression runs
 * first, so no number parser ever sees anything else.
 */
public final class MinorUnits {

    /** The largest amount an order may have: 10,000,000,000 fen. */
    public static final long MAX_ORDER_AMOUNT = 10_000_000_000L;

    private static final Pattern FEN = Pattern.compile("[0-9]{1,10}");

    private MinorUnits() {}

    /**
     * Parses an integer amount in fen written as 1 to 10 ASCII digits (WeChat's {@code total_fee},
     * {@code amount.total}).
     *
     * @return the amount, or null for anything else
     */
    public static Long parseFen(String text) {
        if (text == null || !FEN.matcher(text).matches()) {
            return null;
        }
        return Long.parseLong(text);
    }
}
