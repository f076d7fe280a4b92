package io.paynotify.simulator.gateway;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The port and the merchants a {@link Gateway} serves: immutable, built with {@link #builder()} or {@link #dev()}. */
public final class GatewayConfig {

    /** The port {@link #dev()} binds, the simulator's default. */
    static final int DEV_PORT = 8090;

    private final int port;
    private final List<WechatV2Merchant> wechatV2;
    private final List<WechatV3Merchant> wechatV3;
    private final List<AlipayApp> alipay;
    private final AccountModes modes;

    private GatewayConfig(
            int port, List<WechatV2Merchant> v2, List<WechatV3Merchant> v3, List<AlipayApp> alipay, AccountModes modes) {
        this.port = port;
        this.wechatV2 = List.copyOf(v2);
        this.wechatV3 = List.copyOf(v3);
        this.alipay = List.copyOf(alipay);
        this.modes = modes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Port 8090 and the merchants of paynotify's dev profile, keys from the classpath
     * {@code io/paynotify/simulator/devkeys/*.pem} (the repository's {@code simulator/keys}).
     *
     * @throws IllegalStateException when a dev key is missing from the classpath or unreadable
     */
    public static GatewayConfig dev() {
        return DevMerchants.config(DEV_PORT);
    }

    public int port() {
        return port;
    }

    /** The same merchants on another port (the CLI's {@code --port}). */
    public GatewayConfig withPort(int otherPort) {
        return new GatewayConfig(otherPort, wechatV2, wechatV3, alipay, modes);
    }

    List<WechatV2Merchant> wechatV2() {
        return wechatV2;
    }

    List<WechatV3Merchant> wechatV3() {
        return wechatV3;
    }

    List<AlipayApp> alipay() {
        return alipay;
    }

    Optional<WechatV2Merchant> wechatV2(String mchId) {
        return wechatV2.stream().filter(m -> m.mchId().equals(mchId)).findFirst();
    }

    Optional<WechatV3Merchant> wechatV3(String mchId) {
        return wechatV3.stream().filter(m -> m.mchId().equals(mchId)).findFirst();
    }

    Optional<AlipayApp> alipay(String appId) {
        return alipay.stream().filter(a -> a.appId().equals(appId)).findFirst();
    }

    /** The service-provider, ISV and certificate-mode accounts (CONTRACT §10). */
    AccountModes modes() {
        return modes;
    }

    /** Collects merchants; each kind is repeatable, one entry per merchant id or app id. */
    public static final class Builder {
        private int port = 0;
        private final List<WechatV2Merchant> wechatV2 = new ArrayList<>();
        private final List<WechatV3Merchant> wechatV3 = new ArrayList<>();
        private final List<AlipayApp> alipay = new ArrayList<>();
        private final Map<String, List<String>> v2SubMerchants = new LinkedHashMap<>();
        private final Map<String, List<String>> v3SubMerchants = new LinkedHashMap<>();
        private final Map<String, Map<String, String>> isvTokens = new LinkedHashMap<>();
        private final Map<String, AlipayCertMode> certModes = new LinkedHashMap<>();

        private Builder() {}

        /** The port on 127.0.0.1; 0 (the default) picks a free one, so that gateways built in tests never clash. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /** A WeChat Pay v2 merchant: requests and answers are signed with {@code apiKey} (MD5 or HMAC-SHA256). */
        public Builder wechatV2(String mchId, String appId, String apiKey) {
            requireNew(mchId, wechatV2.stream().map(WechatV2Merchant::mchId).toList(), "WeChat v2 mch_id");
            wechatV2.add(new WechatV2Merchant(mchId, appId, apiKey));
            return this;
        }

        /**
         * A WeChat Pay v3 merchant. Requests must carry {@code merchantSerial} and verify with
         * {@code merchantPublicKey}; answers are signed with the platform key the request's {@code Wechatpay-Serial}
         * names, when held, else with {@code defaultPlatformSerial}'s.
         */
        public Builder wechatV3(
                String mchId,
                String appId,
                String merchantSerial,
                PublicKey merchantPublicKey,
                Map<String, PrivateKey> platformKeysBySerial,
                String defaultPlatformSerial) {
            requireNew(mchId, wechatV3.stream().map(WechatV3Merchant::mchId).toList(), "WeChat v3 mchid");
            wechatV3.add(new WechatV3Merchant(
                    mchId, appId, merchantSerial, merchantPublicKey, platformKeysBySerial, defaultPlatformSerial));
            return this;
        }

        /**
         * An Alipay app: requests verify with {@code appPublicKey}; answers are signed with {@code alipayPrivateKey}.
         */
        public Builder alipay(String appId, PublicKey appPublicKey, PrivateKey alipayPrivateKey) {
            requireNew(appId, alipay.stream().map(AlipayApp::appId).toList(), "Alipay app_id");
            alipay.add(new AlipayApp(appId, appPublicKey, alipayPrivateKey));
            return this;
        }

        /**
         * Makes the WeChat v2 merchant {@code mchId} a service provider (服务商): its queries must name one of these
         * {@code sub_mch_id}s, and a trade answers only under the sub-merchant it belongs to.
         */
        public Builder wechatV2SubMerchants(String mchId, List<String> subMchIds) {
            v2SubMerchants.put(Objects.requireNonNull(mchId, "mchId"), List.copyOf(subMchIds));
            return this;
        }

        /** Makes the WeChat v3 merchant {@code spMchId} a service provider with these {@code sub_mchid}s. */
        public Builder wechatV3SubMerchants(String spMchId, List<String> subMchIds) {
            v3SubMerchants.put(Objects.requireNonNull(spMchId, "spMchId"), List.copyOf(subMchIds));
            return this;
        }

        /**
         * Makes the Alipay app {@code appId} an ISV application (第三方应用): each authorising merchant's
         * {@code auth_app_id} with the {@code app_auth_token} it granted.
         */
        public Builder alipayIsvTokens(String appId, Map<String, String> tokensByAuthAppId) {
            isvTokens.put(Objects.requireNonNull(appId, "appId"), Map.copyOf(tokensByAuthAppId));
            return this;
        }

        /**
         * Puts the Alipay app {@code appId} in public-key-certificate mode, from the PEM files: the app certificate,
         * the root bundle, Alipay's certificate (whose key must be the app's {@code alipayPrivateKey}'s) and,
         * optionally (null), its re-issue with the same key (a rotation, {@code PUT /_sim/alipay/cert}).
         */
        public Builder alipayCertMode(
                String appId, String appCertPem, String rootPem, String alipayCertPem, String reissuedPem) {
            certModes.put(
                    Objects.requireNonNull(appId, "appId"),
                    AlipayCertMode.of(appCertPem, rootPem, alipayCertPem, reissuedPem));
            return this;
        }

        public GatewayConfig build() {
            return new GatewayConfig(
                    port,
                    wechatV2,
                    wechatV3,
                    alipay,
                    new AccountModes(v2SubMerchants, v3SubMerchants, isvTokens, certModes));
        }

        private static void requireNew(String id, List<String> existing, String what) {
            Objects.requireNonNull(id, what);
            if (existing.contains(id)) {
                throw new IllegalArgumentException(what + " configured twice: " + id);
            }
        }
    }

    /** A WeChat Pay v2 merchant. */
    record WechatV2Merchant(String mchId, String appId, String apiKey) {
        WechatV2Merchant {
            Objects.requireNonNull(mchId, "mchId");
            Objects.requireNonNull(appId, "appId");
            Objects.requireNonNull(apiKey, "apiKey");
        }
    }

    /** A WeChat Pay v3 merchant with the platform keys that sign its answers. */
    record WechatV3Merchant(
            String mchId,
            String appId,
            String merchantSerial,
            PublicKey merchantPublicKey,
            Map<String, PrivateKey> platformKeys,
            String defaultPlatformSerial) {
        WechatV3Merchant {
            Objects.requireNonNull(mchId, "mchId");
            Objects.requireNonNull(appId, "appId");
            Objects.requireNonNull(merchantSerial, "merchantSerial");
            Objects.requireNonNull(merchantPublicKey, "merchantPublicKey");
            platformKeys = Map.copyOf(platformKeys);
            if (!platformKeys.containsKey(defaultPlatformSerial)) {
                throw new IllegalArgumentException("the default platform serial " + defaultPlatformSerial
                        + " is not among the platform keys of mchid " + mchId);
            }
        }

        /** The serial whose key signs an answer to a request that named {@code requestedSerial} (may be null). */
        String signingSerial(String requestedSerial) {
            return requestedSerial != null && platformKeys.containsKey(requestedSerial)
                    ? requestedSerial
                    : defaultPlatformSerial;
        }
    }

    /** An Alipay app and the Alipay key that signs its answers. */
    record AlipayApp(String appId, PublicKey appPublicKey, PrivateKey alipayPrivateKey) {
        AlipayApp {
            Objects.requireNonNull(appId, "appId");
            Objects.requireNonNull(appPublicKey, "appPublicKey");
            Objects.requireNonNull(alipayPrivateKey, "alipayPrivateKey");
        }
    }
}
