package io.paynotify.provider.wechatv2;

import io.paynotify.config.AccountMode;
import io.paynotify.config.ChannelKeyParser;
import io.paynotify.config.ChannelKeys;
import io.paynotify.config.ChannelSettings;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.core.notify.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A WeChat Pay v2 channel's keys (docs/operations.md "Configuration").
 *
 * @param appIds the accepted {@code appid}s
 * @param mchId the {@code mch_id}
 * @param apiKeys the API keys as UTF-8 bytes, several during a rotation
 * @param signTypes the allowed sign types: {@code MD5} and/or {@code HMAC-SHA256}
 * @param queryEnabled whether the service queries this channel's PENDING orders (docs/api.md "Active query"); the API key is
 *     all a v2 query needs
 * @param apiBaseUrl the API root the query is sent to ({@code {apiBaseUrl}/pay/orderquery}), without a trailing
 *     {@code /}
 */
public record WechatV2Keys(
        Set<String> appIds,
        String mchId,
        List<byte[]> apiKeys,
        Set<String> signTypes,
        boolean queryEnabled,
        String apiBaseUrl)
        implements ChannelKeys {

    /** The v2 API key is exactly 32 characters (WeChat Pay v2 signing rules). */
    static final int API_KEY_LENGTH = 32;

    /** WeChat's {@code out_trade_no} is String(32). */
    static final int MAX_OUT_TRADE_NO = 32;

    /** WeChat Pay's documented API root; a channel's {@code api-base-url} replaces it. */
    static final String DEFAULT_API_BASE_URL = "https://api.mch.weixin.qq.com";

    /** The sign type of the requests this channel sends (queries, bills): HMAC-SHA256 where allowed, else MD5. */
    String requestSignType() {
        return signTypes.contains(WechatV2Signature.HMAC_SHA256)
                ? WechatV2Signature.HMAC_SHA256
                : WechatV2Signature.MD5;
    }

    @Override
    public Set<String> notificationIdentities() {
        var ids = new LinkedHashSet<String>();
        appIds.forEach(a -> ids.add(mchId + "/" + a));
        return ids;
    }

    @Override
    public String billAccount() {
        return mchId;
    }

    @Override
    public String toString() {
        return "WechatV2Keys[" + mchId + ", " + appIds + (queryEnabled ? ", query " + apiBaseUrl : "") + "]";
    }

    /**
     * Reads {@code app-id}, {@code mch-id}, {@code api-key}, {@code sign-types}, {@code query-enabled} and
     * {@code api-base-url}.
     */
    @ApplicationScoped
    public static class Parser implements ChannelKeyParser {

        @Override
        public Provider provider() {
            return Provider.WECHATPAY_V2;
        }

        @Override
        public java.util.Set<AccountMode> modes() {
            return java.util.Set.of(AccountMode.DIRECT, AccountMode.PARTNER);
        }

        @Override
        public int maxOutTradeNo() {
            return MAX_OUT_TRADE_NO;
        }

        @Override
        public WechatV2Keys parse(ChannelSettings s) {
            PaynotifyConfig.ChannelConfig c = s.config();
            Set<String> appIds = s.list(s.required(c.appId(), "app-id"), "app-id");
            String mchId = s.single(s.required(c.mchId(), "mch-id"), "mch-id");
            var keys = new ArrayList<byte[]>();
            for (String key : s.list(s.required(c.apiKey(), "api-key"), "api-key")) {
                if (key.length() != API_KEY_LENGTH) {
                    throw s.problem("api-key", "must be exactly 32 characters (every key of a rotation)");
                }
                keys.add(key.getBytes(StandardCharsets.UTF_8));
            }
            Set<String> signTypes = s.oneOf(
                    s.list(s.required(c.signTypes(), "sign-types"), "sign-types"),
                    Set.of(WechatV2Signature.MD5, WechatV2Signature.HMAC_SHA256),
                    "sign-types",
                    "MD5, HMAC-SHA256");
            String base = s.apiRoot(c.apiBaseUrl(), "api-base-url", DEFAULT_API_BASE_URL);
            return new WechatV2Keys(appIds, mchId, List.copyOf(keys), signTypes, c.queryEnabled(), base);
        }
    }
}
