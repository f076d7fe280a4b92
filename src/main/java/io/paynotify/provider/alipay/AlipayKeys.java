package io.paynotify.provider.alipay;

import io.paynotify.channel.ChannelKeyParser;
import io.paynotify.channel.ChannelKeys;
import io.paynotify.channel.ChannelSettings;
import io.paynotify.channel.PaynotifyConfig;
import io.paynotify.core.notify.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An Alipay channel's keys (CONTRACT.md §5).
 *
 * @param appId the {@code app_id}
 * @param publicKeys the Alipay public keys, several during a rotation
 * @param signTypes the allowed {@code sign_type}s: {@code RSA2} by default, {@code RSA} (SHA1) only by opt-in
 * @param sellerId the {@code seller_id} to require, or null
 */
public record AlipayKeys(String appId, List<PublicKey> publicKeys, Set<String> signTypes, String sellerId)
        implements ChannelKeys {

    /** Alipay's {@code out_trade_no} is at most 64 characters. */
    static final int MAX_OUT_TRADE_NO = 64;

    @Override
    public Set<String> notificationIdentities() {
        return Set.of(appId);
    }

    @Override
    public String toString() {
        return "AlipayKeys[" + appId + ", " + signTypes + "]";
    }

    /** Reads {@code app-id}, {@code alipay-public-key}, {@code sign-types} and {@code seller-id}. */
    @ApplicationScoped
    public static class Parser implements ChannelKeyParser {

        @Override
        public Provider provider() {
            return Provider.ALIPAY;
        }

        @Override
        public int maxOutTradeNo() {
            return MAX_OUT_TRADE_NO;
        }

        @Override
        public AlipayKeys parse(ChannelSettings s) {
            PaynotifyConfig.ChannelConfig c = s.config();
            String appId = s.single(s.required(c.appId(), "app-id"), "app-id");
            var keys = new ArrayList<PublicKey>();
            for (String text : s.list(s.required(c.alipayPublicKey(), "alipay-public-key"), "alipay-public-key")) {
                keys.add(s.rsaPublicKey(text, "alipay-public-key"));
            }
            Set<String> signTypes = s.oneOf(
                    s.list(c.signTypes().orElse("RSA2"), "sign-types"),
                    Set.of("RSA2", "RSA"),
                    "sign-types",
                    "RSA2, RSA");
            String sellerId =
                    c.sellerId().map(String::strip).filter(v -> !v.isEmpty()).orElse(null);
            return new AlipayKeys(appId, List.copyOf(keys), signTypes, sellerId);
        }
    }
}
