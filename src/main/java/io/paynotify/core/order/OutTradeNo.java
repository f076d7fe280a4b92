package io.paynotify.core.order;

import java.util.regex.Pattern;

/**
 * The merchant's order number (docs/api.md "Edge cases and how they are decided"): {@code [A-Za-z0-9_\-|*]{1,64}}, matched exactly (case-sensitive,
 * no trimming). Providers may allow fewer characters; each channel knows its provider's limit.
 */
public final class OutTradeNo {

    /** The longest outTradeNo of any provider. */
    public static final int MAX_LENGTH = 64;

    /** The allowed shape, as merchants and operators read it in errors. */
    public static final String SHAPE = "[A-Za-z0-9_\\-|*]{1,64}";

    private static final Pattern PATTERN = Pattern.compile(SHAPE);

    private OutTradeNo() {}

    /** True when the value has the shape and at most {@code maxLength} characters. */
    public static boolean isValid(String value, int maxLength) {
        return value != null
                && value.length() <= maxLength
                && PATTERN.matcher(value).matches();
    }
}
