package io.paynotify.config;

import java.util.Set;

/**
 * One channel's keys and ids, parsed once at start by its provider's {@link ChannelKeyParser}. Each provider
 * package has its own record; only that package reads its fields. {@code toString()} must never show a key.
 */
public interface ChannelKeys {

    /**
     * The account identities a notification of this channel carries (for WeChat each {@code mch-id}/{@code appid}
     * pair, for Alipay the {@code app_id}). Two channels of one provider that share one could both accept the same
     * notification: the registry refuses to start then.
     */
    Set<String> notificationIdentities();

    /** Whether the channel's {@code query-enabled} is true (docs/api.md "Active query"); its keys then hold what the query needs. */
    default boolean queryEnabled() {
        return false;
    }

    /** The certificates of the channel's configuration whose expiry the service reports (none by default). */
    default java.util.List<ConfiguredCertificate> certificates() {
        return java.util.List.of();
    }

    /**
     * The app ids a WeChat bill line's {@code 公众账号ID} must be one of to belong to this channel (CONTRACT.md §11);
     * empty where bills carry none (Alipay).
     */
    default Set<String> appIds() {
        return Set.of();
    }

    /**
     * The account a bill is checked against (CONTRACT.md §11): WeChat's {@code mch-id}, Alipay's {@code seller-id}
     * when set; null when there is none to check.
     */
    default String billAccount() {
        return null;
    }
}
