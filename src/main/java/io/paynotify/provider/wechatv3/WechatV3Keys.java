package io.paynotify.provider.wechatv3;

import io.paynotify.channel.ChannelKeyParser;
import io.paynotify.channel.ChannelKeys;
import io.paynotify.channel.ChannelSettings;
import io.paynotify.channel.PaynotifyConfig;
import io.paynotify.core.notify.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A WeChat Pay v3 channel's keys (CONTRACT.md §5).
 *
 * @param appIds the accepted {@code appid}s
 * @param mchId the {@code mchid}
 * @param apiV3Key the 32 bytes of the API v3 key (AES-256-GCM)
 * @param platformKeys the platform certificates' or public keys' RSA keys, by {@code Wechatpay-Serial}
 */
public record WechatV3Keys(Set<String> appIds, String mchId, byte[] apiV3Key, Map<String, PublicKey> platformKeys)
        implements ChannelKeys {

    static final int API_V3_KEY_BYTES = 32;

    /** WeChat's {@code out_trade_no} is at most 32 characters. */
    static final int MAX_OUT_TRADE_NO = 32;

    @Override
    public Set<String> notificationIdentities() {
        var ids = new LinkedHashSet<String>();
        appIds.forEach(a -> ids.add(mchId + "/" + a));
        return ids;
    }

    @Override
    public String toString() {
        return "WechatV3Keys[" + mchId + ", " + appIds + ", serials " + platformKeys.keySet() + "]";
    }

    /** Reads {@code app-id}, {@code mch-id}, {@code api-v3-key} and {@code platform-keys."<serial>"}. */
    @ApplicationScoped
    public static class Parser implements ChannelKeyParser {

        @Override
        public Provider provider() {
            return Provider.WECHATPAY_V3;
        }

        @Override
        public int maxOutTradeNo() {
            return MAX_OUT_TRADE_NO;
        }

        @Override
        public WechatV3Keys parse(ChannelSettings s) {
            PaynotifyConfig.ChannelConfig c = s.config();
            Set<String> appIds = s.list(s.required(c.appId(), "app-id"), "app-id");
            String mchId = s.single(s.required(c.mchId(), "mch-id"), "mch-id");
            byte[] v3Key = s.required(c.apiV3Key(), "api-v3-key").getBytes(StandardCharsets.UTF_8);
            if (v3Key.length != API_V3_KEY_BYTES) {
                throw s.problem("api-v3-key", "must be exactly 32 bytes");
            }
            if (c.platformKeys().isEmpty()) {
                throw s.problem("platform-keys", "is required");
            }
            var keys = new LinkedHashMap<String, PublicKey>();
            c.platformKeys()
                    .forEach((serial, text) ->
                            keys.put(serial, s.rsaPublicKey(text, "platform-keys.\"" + serial + "\"")));
            return new WechatV3Keys(appIds, mchId, v3Key, Collections.unmodifiableMap(keys));
        }
    }
}
