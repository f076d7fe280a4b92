package io.paynotify.config;

import io.paynotify.core.notify.Provider;

/**
 * One configured channel: its name, its provider, the provider's {@code outTradeNo} limit and its keys, parsed
 * once at start by the provider's {@link ChannelKeyParser}. Immutable. {@link #toString()} names the channel and
 * provider only: keys never reach a log.
 *
 * @param name the channel name, {@code [a-z0-9][a-z0-9-]{0,31}}
 * @param provider its provider
 * @param maxOutTradeNo the longest outTradeNo accepted on this channel
 * @param keys the provider-specific keys and ids, read only by that provider's package
 * @param mode the kind of account: direct, a WeChat service provider (partner) or an Alipay ISV
 */
public record Channel(String name, Provider provider, int maxOutTradeNo, ChannelKeys keys, AccountMode mode) {

    /** A direct channel. */
    public Channel(String name, Provider provider, int maxOutTradeNo, ChannelKeys keys) {
        this(name, provider, maxOutTradeNo, keys, AccountMode.DIRECT);
    }

    /** The keys as the provider package's own type. */
    public <K extends ChannelKeys> K keys(Class<K> type) {
        return type.cast(keys);
    }

    @Override
    public String toString() {
        return "Channel[" + name + ", " + provider + (mode == AccountMode.DIRECT ? "" : ", " + mode.value()) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Channel c && c.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
