package io.paynotify.provider.alipay;

import io.paynotify.config.AccountMode;
import io.paynotify.config.ChannelKeyParser;
import io.paynotify.config.ChannelKeys;
import io.paynotify.config.ChannelSettings;
import io.paynotify.config.ConfiguredCertificate;
import io.paynotify.config.KeyParsing;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.core.notify.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * An Alipay channel's keys (docs/operations.md "Configuration", docs/api.md "Active query" and "Account modes").
 *
 * @param appId the {@code app_id} (on an {@code isv} channel, the ISV application's)
 * @param publicKeys the Alipay public keys, several during a rotation (in certificate mode, the entity certificates'
 *     keys)
 * @param signTypes the allowed {@code sign_type}s: {@code RSA2} by default, {@code RSA} (SHA1) only by opt-in
 * @param sellerId the {@code seller_id} to require, or null
 * @param queryEnabled whether the service queries this channel's PENDING orders (docs/api.md "Active query")
 * @param gatewayUrl the gateway queries are POSTed to
 * @param appPrivateKey the app private key that signs queries (null when not configured)
 * @param certMode the certificate mode's SNs and certificates, or null in public-key mode
 * @param appAuthTokens an {@code isv} channel's {@code app_auth_token} per authorising merchant's
 *     {@code auth_app_id} (secrets: never in a log or an error)
 * @param certificates every configured certificate, for the expiry metric
 */
public record AlipayKeys(
        String appId,
        List<PublicKey> publicKeys,
        Set<String> signTypes,
        String sellerId,
        boolean queryEnabled,
        String gatewayUrl,
        PrivateKey appPrivateKey,
        AlipayCertMode certMode,
        Map<String, String> appAuthTokens,
        List<ConfiguredCertificate> certificates)
        implements ChannelKeys {

    private static final Logger LOG = Logger.getLogger(AlipayKeys.class);

    /** Alipay's {@code out_trade_no} is at most 64 characters. */
    static final int MAX_OUT_TRADE_NO = 64;

    /** Alipay's documented OpenAPI gateway; a channel's {@code api-base-url} replaces it. */
    static final String DEFAULT_GATEWAY_URL = "https://openapi.alipay.com/gateway.do";

    static final String PUBLIC_KEY = "alipay-public-key";
    static final String ROOT_CERT = "alipay-root-cert";
    static final String APP_CERT = "app-cert";

    /** A public-key-mode channel with no ISV tokens (tests, and the shape of every channel before issue 22). */
    public AlipayKeys(
            String appId,
            List<PublicKey> publicKeys,
            Set<String> signTypes,
            String sellerId,
            boolean queryEnabled,
            String gatewayUrl,
            PrivateKey appPrivateKey) {
        this(
                appId,
                publicKeys,
                signTypes,
                sellerId,
                queryEnabled,
                gatewayUrl,
                appPrivateKey,
                null,
                Map.of(),
                List.of());
    }

    public AlipayKeys {
        publicKeys = List.copyOf(publicKeys);
        appAuthTokens = Map.copyOf(appAuthTokens);
        certificates = List.copyOf(certificates);
    }

    @Override
    public Set<String> notificationIdentities() {
        return Set.of(appId);
    }

    @Override
    public String billAccount() {
        return sellerId;
    }

    @Override
    public String toString() {
        return "AlipayKeys[" + appId + ", " + signTypes + (certMode != null ? ", certificates" : "")
                + (appAuthTokens.isEmpty() ? "" : ", " + appAuthTokens.size() + " app auth tokens")
                + (queryEnabled ? ", query " + gatewayUrl : "") + "]";
    }

    /**
     * Reads {@code app-id}, {@code alipay-public-key}, {@code sign-types} and {@code seller-id}, for queries
     * {@code query-enabled}, {@code api-base-url} and {@code merchant-private-key}, for certificate mode
     * {@code alipay-root-cert} and {@code app-cert}, and an ISV's {@code app-auth-tokens}.
     */
    @ApplicationScoped
    public static class Parser implements ChannelKeyParser {

        private final Clock clock;

        @Inject
        public Parser(Clock clock) {
            this.clock = clock;
        }

        /** For tests and tools: the system clock. */
        public Parser() {
            this(Clock.systemUTC());
        }

        @Override
        public Provider provider() {
            return Provider.ALIPAY;
        }

        @Override
        public java.util.Set<AccountMode> modes() {
            return java.util.Set.of(AccountMode.DIRECT, AccountMode.ISV);
        }

        @Override
        public boolean certificateMode() {
            return true;
        }

        @Override
        public int maxOutTradeNo() {
            return MAX_OUT_TRADE_NO;
        }

        @Override
        public AlipayKeys parse(ChannelSettings s) {
            PaynotifyConfig.ChannelConfig c = s.config();
            String appId = s.single(s.required(c.appId(), "app-id"), "app-id");
            String rootText = c.alipayRootCert().filter(v -> !v.isBlank()).orElse(null);
            String appCertText = c.appCert().filter(v -> !v.isBlank()).orElse(null);
            if ((rootText == null) != (appCertText == null)) {
                throw s.problem(
                        rootText == null ? ROOT_CERT : APP_CERT,
                        "is required with " + (rootText == null ? APP_CERT : ROOT_CERT)
                                + " (certificate mode needs both)");
            }
            var keys = new ArrayList<PublicKey>();
            var certificates = new ArrayList<ConfiguredCertificate>();
            AlipayCertMode certMode = null;
            boolean certificate = false;
            if (rootText != null) {
                certMode = certMode(s, rootText, appCertText, keys, certificates);
            } else {
                for (String text : s.list(s.required(c.alipayPublicKey(), PUBLIC_KEY), PUBLIC_KEY)) {
                    KeyParsing.PublicKeyInfo info = s.rsaPublicKeyInfo(text, PUBLIC_KEY);
                    keys.add(info.key());
                    certificate |= info.certificate();
                }
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
            if (s.callsApi()) {
                if (appPrivateKey == null) {
                    throw s.problem("merchant-private-key", "is required when " + s.apiKeyReason() + " is true");
                }
                if (certificate) {
                    // answers name alipay_cert_sn and requests must carry app_cert_sn and alipay_root_cert_sn:
                    // without the root and app certificates neither can be done
                    throw s.problem(
                            s.apiKeyReason(),
                            "cannot be true while alipay-public-key is a certificate and alipay-root-cert and app-cert"
                                    + " are not set (certificate mode needs all three)");
                }
            }
            var tokens = new LinkedHashMap<String, String>();
            c.appAuthTokens().forEach((authAppId, token) -> {
                if (token == null || token.isBlank()) {
                    throw s.problem("app-auth-tokens.\"" + authAppId + "\"", "is empty");
                }
                tokens.put(authAppId, token.strip());
            });
            return new AlipayKeys(
                    appId,
                    List.copyOf(keys),
                    signTypes,
                    sellerId,
                    c.queryEnabled(),
                    gatewayUrl,
                    appPrivateKey,
                    certMode,
                    tokens,
                    certificates);
        }

        /**
         * Certificate mode: every chain file of {@code alipay-public-key} and {@code app-cert} must verify up to a
         * certificate of {@code alipay-root-cert}; a certificate outside its validity period only warns.
         */
        private AlipayCertMode certMode(
                ChannelSettings s,
                String rootText,
                String appCertText,
                List<PublicKey> keys,
                List<ConfiguredCertificate> certificates) {
            List<X509Certificate> roots = certificates(s, rootText, ROOT_CERT);
            for (X509Certificate root : roots) {
                certificates.add(configured(s, ROOT_CERT, root));
            }
            var intermediates = new ArrayList<X509Certificate>();
            X509Certificate app = chain(s, appCertText, APP_CERT, roots, intermediates, certificates);
            var alipayKeys = new LinkedHashMap<String, PublicKey>();
            String value = s.required(s.config().alipayPublicKey(), PUBLIC_KEY);
            for (String text : chainFiles(s, value)) {
                X509Certificate leaf = chain(s, text, PUBLIC_KEY, roots, intermediates, certificates);
                rsa(s, leaf, PUBLIC_KEY);
                keys.add(leaf.getPublicKey());
                alipayKeys.put(AlipayCertificates.sn(leaf), leaf.getPublicKey());
            }
            rsa(s, app, APP_CERT);
            return new AlipayCertMode(
                    AlipayCertificates.sn(app), AlipayCertificates.rootSn(roots), roots, intermediates, alipayKeys);
        }

        /**
         * The chain files of {@code alipay-public-key}: comma-separated values, each one PEM chain (a comma never
         * occurs in PEM).
         */
        private static List<String> chainFiles(ChannelSettings s, String value) {
            var out = new ArrayList<String>();
            for (String part : value.split(",")) {
                if (part.isBlank()) {
                    throw s.problem(PUBLIC_KEY, "has an empty entry");
                }
                out.add(part.strip());
            }
            return out;
        }

        private X509Certificate chain(
                ChannelSettings s,
                String text,
                String key,
                List<X509Certificate> roots,
                List<X509Certificate> intermediates,
                List<ConfiguredCertificate> certificates) {
            List<X509Certificate> chain = certificates(s, text, key);
            X509Certificate leaf;
            try {
                leaf = AlipayCertificates.leaf(chain);
            } catch (IllegalArgumentException e) {
                throw s.problem(key, e.getMessage());
            }
            var own = new ArrayList<X509Certificate>();
            for (X509Certificate c : chain) {
                certificates.add(configured(s, key, c));
                if (c != leaf) {
                    own.add(c);
                    intermediates.add(c);
                }
            }
            if (!AlipayCertificates.chainsTo(leaf, own, roots)) {
                throw s.problem(key, "does not verify up to a certificate of " + ROOT_CERT);
            }
            return leaf;
        }

        private static List<X509Certificate> certificates(ChannelSettings s, String text, String key) {
            try {
                return AlipayCertificates.read(text);
            } catch (IllegalArgumentException e) {
                throw s.problem(key, e.getMessage());
            }
        }

        private static void rsa(ChannelSettings s, X509Certificate leaf, String key) {
            if (!(leaf.getPublicKey() instanceof RSAPublicKey rsa)) {
                throw s.problem(key, "is not a certificate of an RSA key");
            }
            if (rsa.getModulus().bitLength() < KeyParsing.MIN_RSA_BITS) {
                throw s.problem(key, "is an RSA key shorter than " + KeyParsing.MIN_RSA_BITS + " bits");
            }
        }

        /** The certificate for the expiry metric; a warning when it is outside its validity period now. */
        private ConfiguredCertificate configured(ChannelSettings s, String key, X509Certificate c) {
            String sn = AlipayCertificates.sn(c);
            if (!AlipayCertificates.valid(c, clock.instant())) {
                LOG.warnf(
                        "%s: the certificate with sn %s is outside its validity period (not after %s); its key still"
                                + " verifies, replace it",
                        s.key(key), sn, c.getNotAfter().toInstant());
            }
            return new ConfiguredCertificate(key, sn, c.getNotAfter().toInstant());
        }
    }
}
