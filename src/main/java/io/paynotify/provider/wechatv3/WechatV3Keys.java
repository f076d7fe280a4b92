package io.paynotify.provider.wechatv3;

import io.paynotify.config.AccountMode;
import io.paynotify.config.ChannelKeyParser;
import io.paynotify.config.ChannelKeys;
import io.paynotify.config.ChannelSettings;
import io.paynotify.config.KeyParsing;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.core.notify.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A WeChat Pay v3 channel's keys (docs/wechatpay-v3-setup.md "Properties form", docs/api.md "Active query").
 *
 * @param appIds the accepted {@code appid}s
 * @param mchId the {@code mchid}
 * @param apiV3Key the 32 bytes of the API v3 key (AES-256-GCM)
 * @param platformKeys the platform certificates' or public keys' RSA keys, by {@code Wechatpay-Serial}
 * @param queryEnabled whether the service queries this channel's PENDING orders (docs/api.md "Active query")
 * @param apiBaseUrl the API root queries go to, without a trailing {@code /}
 * @param merchantPrivateKey the merchant API private key that signs queries (null when not configured)
 * @param merchantSerial the serial of the merchant API certificate, the {@code serial_no} of a query's
 *     {@code Authorization} (null when not configured)
 * @param querySerial the {@code Wechatpay-Serial} a query sends: the platform key WeChat is asked to sign its
 *     answer with (null unless query-enabled)
 */
public record WechatV3Keys(
        Set<String> appIds,
        String mchId,
        byte[] apiV3Key,
        Map<String, PublicKey> platformKeys,
        boolean queryEnabled,
        String apiBaseUrl,
        PrivateKey merchantPrivateKey,
        String merchantSerial,
        String querySerial)
        implements ChannelKeys {

    static final int API_V3_KEY_BYTES = 32;

    /** WeChat's {@code out_trade_no} is at most 32 characters. */
    static final int MAX_OUT_TRADE_NO = 32;

    /** WeChat Pay's documented API root; a channel's {@code api-base-url} replaces it. */
    static final String DEFAULT_API_BASE_URL = "https://api.mch.weixin.qq.com";

    /** The id prefix of a WeChat Pay public key, as opposed to a platform certificate's serial (WeChat Pay's public key ids are {@code PUB_KEY_ID_…}; see docs/wechatpay-v3-setup.md "What you need from the WeChat Pay merchant platform"). */
    static final String PUBLIC_KEY_ID_PREFIX = "PUB_KEY_ID_";

    /**
     * A merchant certificate serial goes into the quoted {@code serial_no="…"} of the Authorization header: letters
     * and digits only (real ones are 40 hex digits).
     */
    private static final Pattern SERIAL = Pattern.compile("[0-9A-Za-z]{1,64}");

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
        return "WechatV3Keys[" + mchId + ", " + appIds + ", serials " + platformKeys.keySet()
                + (queryEnabled ? ", query " + apiBaseUrl : "") + "]";
    }

    /**
     * Reads {@code app-id}, {@code mch-id}, {@code api-v3-key}, {@code platform-keys."<serial>"}, and for queries
     * {@code query-enabled}, {@code api-base-url}, {@code merchant-private-key} and {@code merchant-serial}.
     */
    @ApplicationScoped
    public static class Parser implements ChannelKeyParser {

        @Override
        public Provider provider() {
            return Provider.WECHATPAY_V3;
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
            var infos = new TreeMap<String, KeyParsing.PublicKeyInfo>();
            c.platformKeys()
                    .forEach((serial, text) ->
                            infos.put(serial, s.rsaPublicKeyInfo(text, "platform-keys.\"" + serial + "\"")));
            var keys = new LinkedHashMap<String, PublicKey>();
            infos.forEach((serial, info) -> keys.put(serial, info.key()));

            String apiBaseUrl = s.apiRoot(c.apiBaseUrl(), "api-base-url", DEFAULT_API_BASE_URL);
            PrivateKey privateKey = present(c.merchantPrivateKey())
                    .map(text -> s.rsaPrivateKey(text, "merchant-private-key"))
                    .orElse(null);
            String serial = present(c.merchantSerial()).orElse(null);
            if (serial != null && !SERIAL.matcher(serial).matches()) {
                throw s.problem("merchant-serial", "must be the certificate serial: 1 to 64 letters and digits");
            }
            String querySerial = null;
            if (s.callsApi()) {
                if (privateKey == null) {
                    throw s.problem("merchant-private-key", "is required when " + s.apiKeyReason() + " is true");
                }
                if (serial == null) {
                    throw s.problem("merchant-serial", "is required when " + s.apiKeyReason() + " is true");
                }
                querySerial = querySerial(s, infos);
            }
            return new WechatV3Keys(
                    appIds,
                    mchId,
                    v3Key,
                    Collections.unmodifiableMap(keys),
                    c.queryEnabled(),
                    apiBaseUrl,
                    privateKey,
                    serial,
                    querySerial);
        }

        private static Optional<String> present(Optional<String> value) {
            return value.map(String::strip).filter(v -> !v.isEmpty());
        }
    }

    /**
     * The {@code Wechatpay-Serial} a query sends (docs/api.md "Active query"): WeChat signs its answer with the platform key that
     * header names. A {@code PUB_KEY_ID_…} key when there is one — WeChat Pay's public key, which replaces the
     * certificates; if several are configured (a rotation of public keys), the lexicographically first, so that
     * every replica asks for the same one —, else the only platform key, else the certificate that expires last (as
     * wechatpay-java's {@code InMemoryCertificateProvider} picks "the one usable longest"). Several keys with a bare
     * public key among them and no {@code PUB_KEY_ID_…} leave nothing to choose by: the start fails.
     *
     * @param infos the platform keys by serial, sorted
     */
    static String querySerial(ChannelSettings s, TreeMap<String, KeyParsing.PublicKeyInfo> infos) {
        for (String serial : infos.keySet()) {
            if (serial.startsWith(PUBLIC_KEY_ID_PREFIX)) {
                return serial;
            }
        }
        if (infos.size() == 1) {
            return infos.firstKey();
        }
        if (!infos.values().stream().allMatch(KeyParsing.PublicKeyInfo::certificate)) {
            throw s.problem(
                    "platform-keys",
                    "has several keys, one of them not a certificate, and no " + PUBLIC_KEY_ID_PREFIX
                            + " key: a query cannot choose its Wechatpay-Serial (configure the WeChat Pay public key"
                            + " under its " + PUBLIC_KEY_ID_PREFIX + "… id, or certificates only)");
        }
        // the certificate valid longest; on a tie the first serial (the map is sorted), so every replica agrees
        return infos.entrySet().stream()
                .max(Comparator.comparing((Map.Entry<String, KeyParsing.PublicKeyInfo> e) ->
                                e.getValue().notAfter())
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElseThrow()
                .getKey();
    }
}
