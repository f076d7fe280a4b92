package io.paynotify.provider.alipay;

import io.paynotify.config.AccountMode;
import io.paynotify.config.ChannelKeyParser;
import io.paynotify.config.ChannelKeys;
import io.paynotify.config.ChannelSettings;
import io.paynotify.config.KeyParsing;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.core.notify.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An Alipay channel's keys (docs/operations.md "Configuration", docs/api.md "Active query").
 *
 * @param appId the {@code app_id}
 * @param publicKeys the Alipay public keys, several during a rotation
 * @param signTypes the allowed {@code sign_type}s: {@code RSA2} by default, {@code RSA} (SHA1) only by opt-in
 * @param sellerId the {@code seller_id} to require, or null
 * @param queryEnabled whether the service queries this channel's PENDING orders (docs/api.md "Active query")
 * @param gatewayUrl the gateway queries are POSTed to
 * @param appPrivateKey the app private key that signs queries (null when not configured)
 */
public record AlipayKeys(
        String appId,
        List<PublicKey> publicKeys,
        Set<String> signTypes,
        String sellerId,
        boolean queryEnabled,
        String gatewayUrl,
        PrivateKey appPrivateKey)
        implements ChannelKeys {

    /** Alipay's {@code out_trade_no} is at most 64 characters. */
    static final int MAX_OUT_TRADE_NO = 64;

    /** Alipay's documented OpenAPI gateway; a channel's {@code api-base-url} replaces it. */
    static final String DEFAULT_GATEWAY_URL = "https://openapi.alipay.com/gateway.do";

    @Override
    public Set<String> notificationIdentities() {
        return Set.of(appId);
    }

    @Override
    public String toString() {
        return "AlipayKeys[" + appId + ", " + signTypes + (queryEnabled ? ", query " + gatewayUrl : "") + "]";
    }

    /**
     * Reads {@code app-id}, {@code alipay-public-key}, {@code sign-types} and {@code seller-id}, and for queries
     * {@code query-enabled}, {@code api-base-url} and {@code merchant-private-key}.
     */
    @ApplicationScoped
    public static class Parser implements ChannelKeyParser {

        @Override
        public Provider provider() {
            return Provider.ALIPAY;
        }

        @Override
        public java.util.Set<AccountMode> modes() {
            return java.util.Set.of(AccountMode.DIRECT, AccountMode.ISV);
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
            boolean certificate = false;
            for (String text : s.list(s.required(c.alipayPublicKey(), "alipay-public-key"), "alipay-public-key")) {
                KeyParsing.PublicKeyInfo info = s.rsaPublicKeyInfo(text, "alipay-public-key");
                keys.add(info.key());
                certificate |= info.certificate();
            }
            Set<String> signTypes = s.oneOf(
                    s.list(c.signTypes().orElse("RSA2"), "sign-types"),
                    Set.of("RSA2", "RSA"),
                    "sign-types",
                    "RSA2, RSA");
            String sellerId =
                    c.sellerId().map(String::strip).filter(v -> !v.isEmpty()).orElse(null);
            String gatewayUrl = s.httpUrl(c.apiBaseUrl(), "api-base-url", DEFAULT_GATEWAY_URL)
                    .toString();
            PrivateKey appPrivateKey = c.merchantPrivateKey()
                    .map(String::strip)
                    .filter(v -> !v.isEmpty())
                    .map(text -> s.rsaPrivateKey(text, "merchant-private-key"))
                    .orElse(null);
            if (c.queryEnabled()) {
                if (appPrivateKey == null) {
                    throw s.problem("merchant-private-key", "is required when query-enabled is true");
                }
                if (certificate) {
                    // certificate mode signs requests with app_cert_sn and alipay_root_cert_sn and answers carry
                    // alipay_cert_sn (Alipay's public-key-certificate mode): not in this version
                    throw s.problem(
                            "query-enabled",
                            "cannot be true while alipay-public-key is a certificate"
                                    + " (certificate mode is not supported in this version: give the public key)");
                }
            }
            return new AlipayKeys(
                    appId, List.copyOf(keys), signTypes, sellerId, c.queryEnabled(), gatewayUrl, appPrivateKey);
        }
    }
}
