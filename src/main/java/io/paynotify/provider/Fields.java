package io.paynotify.provider;

import java.util.regex.Pattern;

/** Shape checks shared by the adapters for ids that are stored or looked up. */
public final class Fields {

    /** Provider ids and statuses: visible ASCII, bounded; never a control character that PostgreSQL refuses. */
    private static final Pattern TOKEN = Pattern.compile("[\\x21-\\x7E]{1,64}");

    private Fields() {}

    /** True for 1 to 64 visible ASCII characters. */
    public static boolean isToken(String value) {
        return value != null && TOKEN.matcher(value).matches();
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
        return value != null && value.matches("[A-Za-z]{1,8}") ? value : "INVALID";
    }
}
