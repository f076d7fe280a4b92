package io.paynotify.core.statement;

import java.math.BigDecimal;

/**
 * Amounts as bills write them. Compared amounts are yuan as §1's Alipay amounts ({@code [0-9]{1,9}(\.[0-9]{1,2})?})
 * turned into fen exactly; fees are signed decimals summed exactly and never compared. ASCII only, checked by hand
 * before any number parser sees the text.
 */
public final class BillAmounts {

    private BillAmounts() {}

    /**
     * Yuan in fen: "42.00" is 4200, "0.1" is 10, "178" is 17800.
     *
     * @param signAllowed whether a leading {@code -} is accepted (and ignored): refund lines
     * @return the amount in fen, or null when malformed
     */
    public static Long yuanToFen(String text, boolean signAllowed) {
        if (text == null) {
            return null;
        }
        int start = 0;
        if (signAllowed && text.startsWith("-")) {
            start = 1;
        }
        int n = text.length();
        int dot = text.indexOf('.', start);
        int intEnd = dot < 0 ? n : dot;
        int intLen = intEnd - start;
        if (intLen < 1 || intLen > 9 || (dot >= 0 && (n - dot - 1 < 1 || n - dot - 1 > 2))) {
            return null;
        }
        long yuan = 0;
        for (int i = start; i < intEnd; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            yuan = yuan * 10 + (c - '0');
        }
        long fen = 0;
        if (dot >= 0) {
            for (int i = dot + 1; i < n; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    return null;
                }
            }
            fen = (text.charAt(dot + 1) - '0') * 10L + (n - dot - 1 == 2 ? text.charAt(dot + 2) - '0' : 0);
        }
        return yuan * 100 + fen;
    }

    /**
     * A fee, {@code ^-?[0-9]{1,9}(\.[0-9]{1,6})?$}, exactly.
     *
     * @return the fee, or null when unreadable (that line's fee is then null; the bill is not an error)
     */
    public static BigDecimal fee(String text) {
        if (text == null) {
            return null;
        }
        int n = text.length();
        int start = text.startsWith("-") ? 1 : 0;
        int dot = text.indexOf('.', start);
        int intEnd = dot < 0 ? n : dot;
        int intLen = intEnd - start;
        if (intLen < 1 || intLen > 9 || (dot >= 0 && (n - dot - 1 < 1 || n - dot - 1 > 6))) {
            return null;
        }
        for (int i = start; i < n; i++) {
            char c = text.charAt(i);
            if (i != dot && (c < '0' || c > '9')) {
                return null;
            }
        }
        return new BigDecimal(text);
    }
}
