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
 * @param mode the channel's account mode (CONTRACT §10): direct, a WeChat service provider, an Alipay ISV
 * @param subMerchants the sub-merchants the simulator knows on a partner or ISV channel (WeChat {@code sub_mch_id},
 *     Alipay {@code auth_app_id}), the first being the default; empty on a direct channel
 * @param certificateMode Alipay public-key-certificate mode ({@code alipay-root-cert} and {@code app-cert} set)
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
        String sellerId,
        Mode mode,
        List<String> subMerchants,
        boolean certificateMode) {

    /** The account modes of {@code paynotify.channels."<name>".mode}. */
    public enum Mode {
        DIRECT,
        PARTNER,
        ISV;

        /** Parses the configuration value ({@code direct}, {@code partner}, {@code isv}; absent is direct). */
        public static Mode parse(String value) {
            return value == null || value.isBlank()
                    ? DIRECT
                    : Mode.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
        }
    }

    public Channel {
        subMerchants = List.copyOf(subMerchants);
    }

    /** A direct channel in public-key mode. */
    public Channel(
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
        this(
                name,
                provider,
                appId,
                mchId,
                apiKey,
                signTypes,
                apiV3Key,
                platformSerial,
                platformKey,
                alipayKey,
                sellerId,
                Mode.DIRECT,
                List.of(),
                false);
    }

    /** Whether notices and orders of this channel name a sub-merchant. */
    public boolean hasSubMerchants() {
        return mode != Mode.DIRECT;
    }

    /** The default sub-merchant ({@code --sub-merchant} overrides it), or null on a direct channel or none known. */
    public String defaultSubMerchant() {
        return subMerchants.isEmpty() ? null : subMerchants.get(0);
    }

    /**
     * Another sub-merchant of the same provider account than {@code subMerchant}: the next known one, else one made
     * up in the mode's shape (WeChat {@code sub_mch_id} digits, Alipay a 16-digit {@code auth_app_id}).
     */
    public String otherSubMerchant(String subMerchant) {
        for (String s : subMerchants) {
            if (!s.equals(subMerchant)) {
                return s;
            }
        }
        String made = mode == Mode.ISV ? "2021000000009999" : "1900009999";
        return made.equals(subMerchant) ? made.substring(0, made.length() - 1) + "8" : made;
    }

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
