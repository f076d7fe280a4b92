package io.paynotify.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The kind of account a channel is (docs/operations.md "Account modes", {@code paynotify.channels."<name>".mode}): a
 * merchant collecting for itself, a WeChat Pay service provider collecting for its sub-merchants (服务商模式), or an
 * Alipay third-party application (ISV) collecting for the merchants that authorised it (第三方应用).
 */
public enum AccountMode {
    /** One merchant collecting for itself: orders carry no sub-merchant. */
    DIRECT(null, false),
    /** A WeChat Pay service provider: every order names its sub-merchant ({@code sub_mch_id}). */
    PARTNER(Pattern.compile("[1-9][0-9]{0,31}"), true),
    /** An Alipay ISV application: every order names the authorising merchant's app id ({@code auth_app_id}). */
    ISV(Pattern.compile("[0-9]{16}"), false);

    /** The shape of a sub-app id ({@code sub_appid}) on a partner channel. */
    public static final Pattern SUB_APP_ID = Pattern.compile("[A-Za-z0-9_]{1,32}");

    private final Pattern subMerchantId;
    private final boolean subAppIds;

    AccountMode(Pattern subMerchantId, boolean subAppIds) {
        this.subMerchantId = subMerchantId;
        this.subAppIds = subAppIds;
    }

    /** Whether orders of this mode carry a sub-merchant (required) — false for {@link #DIRECT}. */
    public boolean hasSubMerchants() {
        return subMerchantId != null;
    }

    /** The shape of a sub-merchant id in this mode, or null on a direct channel. */
    public Pattern subMerchantId() {
        return subMerchantId;
    }

    /** Whether orders of this mode may name a sub-app id ({@link #PARTNER} only). */
    public boolean allowsSubAppId() {
        return subAppIds;
    }

    /** The configuration value ({@code direct}, {@code partner}, {@code isv}). */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
