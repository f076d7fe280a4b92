package io.paynotify.core.money;

import java.util.regex.Pattern;

/**
 * Strict parsing of provider amounts into fen (CONTRACT.md §1 "amount compared"). ASCII digits only: the JDK's
 * {@code Integer.parseInt} accepts full-width and Arabic-Indic digits, and {@code BigDecimal} accepts
 * {@code 1E+5000000}, whose scaling burns seconds of CPU (THREATS.md AMT-03, AMT-04). The regular expressions run
 * first, so no number parser ever sees anything else.
 */
public final class MinorUnits {

    /** The largest amount an order may have: 10,000,000,000 fen. */
    public static final long MAX_ORDER_AMOUNT = 10_000_000_000L;

    private static final Pattern WECHAT_FEN = Pattern.compile("[0-9]{1,10}");
    private static final Pattern ALIPAY_YUAN = Pattern.compile("([0-9]{1,9})(?:\\.([0-9]{1,2}))?");

    private MinorUnits() {}

    /**
     * Parses a WeChat amount in fen ({@code total_fee}, {@code amount.total}).
     *
     * @return the amount, or null when the text is not 1 to 10 ASCII digits
     */
    public static Long parseWechatFen(String text) {
        if (text == null || !WECHAT_FEN.matcher(text).matches()) {
            return null;
        }
        return Long.parseLong(text);
    }

    /**
     * Parses an Alipay amount in yuan ({@code total_amount}, {@code refund_fee}) into fen, exactly:
     * "42.00" is 4200, "0.1" is 10, "178" is 17800.
     *
     * @return the amount in fen, or null when the text is not {@code [0-9]{1,9}(.[0-9]{1,2})?}
     */
    public static Long parseAlipayYuan(String text) {
        if (text == null) {
            return null;
        }
        var m = ALIPAY_YUAN.matcher(text);
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
}
