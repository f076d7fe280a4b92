package io.paynotify.channel;

import io.paynotify.core.notify.Provider;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One configured channel with its keys parsed once at start. Immutable. {@link #toString()} names the channel and
 * provider only: keys never reach a log.
 *
 * @param name the channel name, {@code [a-z0-9][a-z0-9-]{0,31}}
 * @param provider its provider
 * @param appIds WeChat: the accepted appids; Alipay: the one app_id
 * @param mchId WeChat merchant id, else null
 * @param apiKeys WeChat v2 API keys (UTF-8 bytes), several during a rotation; else empty
 * @param signTypes v2: MD5 / HMAC-SHA256; Alipay: RSA2 / RSA
 * @param apiV3Key WeChat v3 AES key bytes, else null
 * @param platformKeys WeChat v3 verification keys by Wechatpay-Serial
 * @param alipayPublicKeys Alipay public keys, several during a rotation
 * @param sellerId Alipay seller_id to require, or null
 */
public record Channel(
        String name,
        Provider provider,
        Set<String> appIds,
        String mchId,
        List<byte[]> apiKeys,
        Set<String> signTypes,
        byte[] apiV3Key,
        Map<String, PublicKey> platformKeys,
        List<PublicKey> alipayPublicKeys,
        String sellerId) {

    @Override
    public String toString() {
        return "Channel[" + name + ", " + provider + "]";
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
