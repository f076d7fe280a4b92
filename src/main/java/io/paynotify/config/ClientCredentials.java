package io.paynotify.config;

import java.net.URI;
import java.util.List;
import java.util.Set;

/**
 * A merchant API client: its HMAC secrets (several during a rotation), the channels it may use, and where its
 * events are delivered, if anywhere. {@link #toString()} never shows a secret.
 *
 * @param webhook the client's webhook, or null when it only pulls events
 * @param subMerchants on service-provider and ISV channels, the only sub-merchants this client may use (empty: all)
 */
public record ClientCredentials(
        String id, List<byte[]> secrets, Set<String> channels, Webhook webhook, Set<String> subMerchants) {

    /**
     * A client's webhook (docs/api.md "Webhooks").
     *
     * @param url an absolute http or https URL
     * @param secrets the decoded bytes of each {@code whsec_} secret, several during a rotation
     */
    public record Webhook(URI url, List<byte[]> secrets) {
        @Override
        public String toString() {
            return "Webhook[" + url + ", " + secrets.size() + " secret(s)]";
        }
    }

    public ClientCredentials(String id, List<byte[]> secrets, Set<String> channels) {
        this(id, secrets, channels, null, Set.of());
    }

    public ClientCredentials(String id, List<byte[]> secrets, Set<String> channels, Webhook webhook) {
        this(id, secrets, channels, webhook, Set.of());
    }

    /**
     * Whether this client may use an order of that channel and sub-merchant (docs/api.md "Account modes"): the
     * channel is one of its own, and where its {@code sub-merchants} are set, an order with a sub-merchant is one of
     * theirs. An order of a direct channel has none.
     */
    public boolean mayUse(String channel, String subMerchantId) {
        return channels.contains(channel)
                && (subMerchants.isEmpty() || subMerchantId == null || subMerchants.contains(subMerchantId));
    }

    @Override
    public String toString() {
        return "Client[" + id + ", " + channels + (webhook == null ? "" : ", " + webhook.url()) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientCredentials c && c.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }
}
