package io.paynotify.config;

import io.paynotify.core.notify.Provider;

/**
 * What the registry asks of a provider package: which provider it serves, how long an {@code outTradeNo} may be
 * there, and how to read and validate a channel's keys. One implementation per provider package; the registry
 * never switches on the provider.
 */
public interface ChannelKeyParser {

    /** The provider this parser serves. */
    Provider provider();

    /** The longest {@code outTradeNo} the provider accepts (64, or 32 on WeChat channels; docs/api.md "Edge cases and how they are decided"). */
    int maxOutTradeNo();

    /** The account modes the provider has ({@link AccountMode#DIRECT} and at most one other). */
    default java.util.Set<AccountMode> modes() {
        return java.util.Set.of(AccountMode.DIRECT);
    }

    /**
     * Whether the provider has Alipay's public-key-certificate mode ({@code alipay-root-cert}, {@code app-cert});
     * the registry refuses those keys on a channel of any other provider.
     */
    default boolean certificateMode() {
        return false;
    }

    /**
     * Reads and validates the channel's keys (for the mode {@link ChannelSettings#mode()} says).
     *
     * @throws ConfigProblem naming the channel and the key, never a value
     */
    ChannelKeys parse(ChannelSettings settings);
}
