package io.paynotify.simulator.trigger;

import java.security.PrivateKey;
import java.util.List;

/**
 * One channel as its provider sees it: the ids paynotify checks, and the secrets the provider signs or encrypts
 * with. The symmetric keys (v2 {@code api-key}, v3 {@code api-v3-key}) are shared with paynotify; the private keys
 * are the provider's own, whose public halves paynotify is configured with.
 *
 * @param name the channel name in paynotify's path
 * @param provider its protocol
 * @param appId the app id to send (WeChat: the first of the channel's app ids; Alipay: {@code app_id})
 * @param mchId WeChat {@code mch_id}/{@code mchid}; null for Alipay
 * @param apiKey WeChat v2 API key; null otherwise
 * @param signTypes WeChat v2 sign types the channel allows; empty otherwise
 * @param apiV3Key WeChat v3 API v3 key; null otherwise
 * @param platformSerial WeChat v3 {@code Wechatpay-Serial} of the platform key below; null otherwise
 * @param platformKey WeChat v3 platform private key; null otherwise
 * @param alipayKey Alipay's private key; null otherwise
 * @param sellerId Alipay {@code seller_id} to send
 */
public record Channel(
        String name,
        Provider provider,
        String appId,
        String mchId,
        String apiKey,
        List<String> signTypes,
        String apiV3Key,
        String platformSerial,
        PrivateKey platformKey,
        PrivateKey alipayKey,
        String sellerId) {

    /** paynotify's notification path for this channel. */
    public String notifyPath() {
        return provider.notifyPath(name);
    }

    @Override
    public String toString() {
        // never print a key
        return name + " (" + provider.displayName() + ")";
    }
}
