package io.paynotify.provider;

/** Shape checks shared by the adapters for ids that are stored or looked up. */
public final class Fields {

    private Fields() {}

    /**
     * True for 1 to 64 visible ASCII characters (provider ids and statuses: bounded, never a control character that
     * PostgreSQL refuses). A loop rather than a regex: it runs several times per notification.
     */
    public static boolean isToken(String value) {
        return value != null && isVisibleAscii(value, 64);
    }

    /** True for 1 to {@code max} characters, each in {@code 0x21..0x7E}. */
    public static boolean isVisibleAscii(String value, int max) {
        int n = value.length();
        if (n == 0 || n > max) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /** The value when it is a token, else null (for optional fields, which never reject). */
    public static String tokenOrNull(String value) {
        return isToken(value) ? value : null;
    }

    /** Present and not empty. */
    public static boolean present(String value) {
        return value != null && !value.isEmpty();
    }

    /** The currency as sent when it looks like one, else a marker that matches no order. */
    public static String currencyOrInvalid(String value) {
        if (value == null || value.isEmpty() || value.length() > 8) {
            return "INVALID";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z')) {
                return "INVALID";
            }
        }
        return value;
    }
}
