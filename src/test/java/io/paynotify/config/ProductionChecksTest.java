package io.paynotify.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.simulator.sign.AlipayPki;
import io.paynotify.testing.KeyParsers;
import io.paynotify.testing.TestCertificates;
import io.paynotify.testing.TestKeys;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The prod profile's start-up checks (docs/operations.md "Start-up checks"): a key, secret or token published in the
 * repository, {@code allow-loopback=true} and a plain-http {@code api-base-url} beyond loopback stop the start,
 * naming the key and never the value; the same configuration starts in any other profile.
 */
@Tag("unit")
class ProductionChecksTest {

    static final List<String> PROD = List.of("prod");
    static final List<String> TEST = List.of("test");

    static final String V2_KEY = "192006250b4c09247ec02edce69f6a2d";
    static final String V3_KEY = "a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb";

    /** A valid configuration of every provider, with keys of this test only. */
    static Map<String, String> valid() {
        var m = new HashMap<String, String>();
        m.put("paynotify.channels.wx.provider", "WECHATPAY_V2");
        m.put("paynotify.channels.wx.app-id", "wxapp1");
        m.put("paynotify.channels.wx.mch-id", "1000");
        m.put("paynotify.channels.wx.api-key", V2_KEY);
        m.put("paynotify.channels.wx.sign-types", "MD5");
        m.put("paynotify.channels.wx3.provider", "WECHATPAY_V3");
        m.put("paynotify.channels.wx3.app-id", "wxapp3");
        m.put("paynotify.channels.wx3.mch-id", "3000");
        m.put("paynotify.channels.wx3.api-v3-key", V3_KEY);
        m.put("paynotify.channels.wx3.platform-keys.\"PUB_KEY_ID_01\"", TestKeys.publicPem(TestKeys.WECHAT_V3_PUBKEY));
        m.put("paynotify.channels.wx3.merchant-private-key", TestKeys.privatePem(TestKeys.WECHAT_V3_MERCHANT));
        m.put("paynotify.channels.wx3.merchant-serial", "MCHSERIAL01");
        m.put("paynotify.channels.ali.provider", "ALIPAY");
        m.put("paynotify.channels.ali.app-id", "2021");
        m.put("paynotify.channels.ali.alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        m.put("paynotify.channels.ali.merchant-private-key", TestKeys.privateBase64(TestKeys.ALIPAY_APP));
        m.put("paynotify.clients.shop.secret", "shop-secret-of-this-test-0123456789");
        m.put("paynotify.clients.shop.channels", "wx,wx3,ali");
        m.put("paynotify.clients.shop.webhook-url", "https://shop.example/hooks");
        m.put("paynotify.clients.shop.webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        m.put("paynotify.admin.tokens", "admin-token-of-this-test-0123456789");
        return m;
    }

    static ChannelRegistry build(Map<String, String> props, List<String> profiles) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(props, "test", 500))
                .build();
        return new ChannelRegistry(config.getConfigMapping(PaynotifyConfig.class), KeyParsers.all(), profiles);
    }

    /**
     * Sets {@code key} to {@code value}: the prod profile refuses it with a message that names the key and shows
     * no part of the value; the test profile accepts the same configuration.
     */
    static String refusedInProdOnly(String key, String value) {
        var props = valid();
        props.put(key, value);
        build(props, TEST);
        String message =
                assertThrows(ConfigProblem.class, () -> build(props, PROD)).getMessage();
        for (String part : value.split("[\\s,]+")) {
            if (part.length() >= 8 && !part.startsWith("-----")) {
                assertFalse(message.contains(part), message);
            }
        }
        return message;
    }

    static void publishedRefused(String key, String value) {
        String message = refusedInProdOnly(key, value);
        assertEquals(
                key.replaceFirst("^paynotify\\.(channels|clients)\\.([^.]+)\\.", "paynotify.$1.\"$2\".")
                        + " is a key or secret published in this repository (simulator/keys, the dev profile of"
                        + " application.properties): the prod profile never accepts it, configure your own",
                message);
    }

    @Test
    void theValidConfigurationStartsInProd() {
        ChannelRegistry registry = build(valid(), PROD);
        assertEquals(3, registry.channels().size());
    }

    @Test
    void publishedTextSecretsAreRefused() {
        String devV2 = ShippedSecrets.dev("paynotify.channels.wx-dev.api-key");
        publishedRefused("paynotify.channels.wx.api-key", devV2);
        publishedRefused("paynotify.channels.wx.api-key", V2_KEY + "," + devV2); // the second key of a rotation
        publishedRefused(
                "paynotify.channels.wx3.api-v3-key", ShippedSecrets.dev("paynotify.channels.wx3-dev.api-v3-key"));
        String clientSecret = ShippedSecrets.dev("paynotify.clients.dev-shop.secret");
        publishedRefused("paynotify.clients.shop.secret", clientSecret);
        String webhookSecret = ShippedSecrets.dev("paynotify.clients.dev-shop.webhook-secret");
        publishedRefused("paynotify.clients.shop.webhook-secret", webhookSecret);
        // the same HMAC key with its base64 written without padding
        publishedRefused("paynotify.clients.shop.webhook-secret", webhookSecret.replace("=", ""));
        publishedRefused(
                "paynotify.admin.tokens",
                "admin-token-of-this-test-0123456789," + ShippedSecrets.dev("paynotify.admin.tokens"));
        // a published secret reused under another key counts too
        publishedRefused("paynotify.admin.tokens", clientSecret);
    }

    @Test
    void publishedRsaKeysAreRefusedHoweverTheyAreSpelled() {
        String platformPem = ShippedSecrets.keyFile("wechatpay-v3-dev-platform-public.pem");
        String platformKey = "paynotify.channels.wx3.platform-keys.\"PUB_KEY_ID_01\"";
        publishedRefused(platformKey, platformPem);
        publishedRefused(platformKey, ShippedSecrets.bareBase64(platformPem));
        publishedRefused(
                platformKey,
                TestCertificates.pem(
                        ShippedSecrets.pair("wechatpay-v3-dev-platform"),
                        "dev platform",
                        Instant.parse("2025-01-01T00:00:00Z"),
                        Instant.parse("2035-01-01T00:00:00Z")));
        publishedRefused(
                "paynotify.channels.wx3.merchant-private-key",
                ShippedSecrets.keyFile("wechatpay-v3-dev-merchant-private.pem"));
        publishedRefused(
                "paynotify.channels.wx3.merchant-private-key",
                ShippedSecrets.dev("paynotify.channels.wx3-dev.merchant-private-key"));
        publishedRefused(
                "paynotify.channels.ali.alipay-public-key",
                TestKeys.publicBase64(TestKeys.ALIPAY) + ","
                        + ShippedSecrets.bareBase64(ShippedSecrets.keyFile("alipay-dev-public.pem")));
        publishedRefused(
                "paynotify.channels.ali.merchant-private-key", ShippedSecrets.keyFile("alipay-dev-app-private.pem"));
    }

    @Test
    void theWholeDevProfileStartsInDevAndNeverInProd() {
        Map<String, String> dev = ShippedSecrets.devPaynotify();
        ChannelRegistry registry = build(dev, List.of("dev"));
        assertEquals(
                List.of("ali-cert-dev", "ali-dev", "ali-isv-dev", "wx-dev", "wx-sp-dev", "wx3-dev", "wx3-sp-dev"),
                registry.channels().keySet().stream().sorted().toList());
        assertThrows(ConfigProblem.class, () -> build(dev, PROD));
    }

    @Test
    void theAccountModeChannelsOfTheDevProfileAreRefused() {
        publishedRefused("paynotify.channels.wx.api-key", ShippedSecrets.dev("paynotify.channels.wx-sp-dev.api-key"));
        publishedRefused(
                "paynotify.channels.wx3.api-v3-key", ShippedSecrets.dev("paynotify.channels.wx3-sp-dev.api-v3-key"));
        publishedRefused(
                "paynotify.channels.wx3.platform-keys.\"PUB_KEY_ID_01\"",
                ShippedSecrets.keyFile("wechatpay-v3-dev-sp-platform-public.pem"));
        publishedRefused(
                "paynotify.channels.wx3.merchant-private-key",
                ShippedSecrets.dev("paynotify.channels.wx3-sp-dev.merchant-private-key"));
        publishedRefused(
                "paynotify.channels.ali.alipay-public-key",
                ShippedSecrets.dev("paynotify.channels.ali-isv-dev.alipay-public-key"));
        publishedRefused(
                "paynotify.channels.ali.merchant-private-key",
                ShippedSecrets.dev("paynotify.channels.ali-isv-dev.merchant-private-key"));
    }

    @Test
    void aPublishedAppAuthTokenIsRefusedNamingItsMerchant() {
        var props = valid();
        props.put("paynotify.channels.ali.mode", "isv");
        props.put("paynotify.channels.ali.app-auth-tokens.\"2021000000000031\"", "202601BBtokenofthistest00000031");
        build(props, PROD);
        String token = ShippedSecrets.dev("paynotify.channels.ali-isv-dev.app-auth-tokens.\"2021000000000021\"");
        props.put("paynotify.channels.ali.app-auth-tokens.\"2021000000000032\"", token);
        build(props, TEST);
        String message =
                assertThrows(ConfigProblem.class, () -> build(props, PROD)).getMessage();
        assertTrue(
                message.startsWith("paynotify.channels.\"ali\".app-auth-tokens.\"2021000000000032\" is a key or secret"
                        + " published in this repository"),
                message);
        assertFalse(message.contains(token), message);
    }

    @Test
    void theCertificateModeFilesOfTheDevProfileAreRefused() {
        var props = valid();
        for (String key : List.of("alipay-public-key", "app-cert", "alipay-root-cert", "merchant-private-key")) {
            props.put("paynotify.channels.ali." + key, ShippedSecrets.dev("paynotify.channels.ali-cert-dev." + key));
        }
        props.put("paynotify.channels.ali.app-id", "2021000000000003");
        build(props, TEST);
        assertTrue(assertThrows(ConfigProblem.class, () -> build(props, PROD))
                .getMessage()
                .startsWith("paynotify.channels.\"ali\".alipay-public-key is a key or secret published"));

        // the app's own certificate alone, under a root of this test: refused by its key
        Instant now = Instant.now();
        AlipayPki pki = AlipayPki.issue(
                "2021000000000003",
                ShippedSecrets.pair("alipay-cert-dev-app").getPublic(),
                TestKeys.pair(TestKeys.ALIPAY).getPublic(),
                now,
                5);
        var own = valid();
        own.put("paynotify.channels.ali.app-id", "2021000000000003");
        own.put("paynotify.channels.ali.alipay-public-key", pki.alipayPem());
        own.put("paynotify.channels.ali.alipay-root-cert", pki.rootPem());
        own.put("paynotify.channels.ali.app-cert", pki.appPem());
        own.remove("paynotify.channels.ali.merchant-private-key");
        build(own, TEST);
        assertTrue(assertThrows(ConfigProblem.class, () -> build(own, PROD))
                .getMessage()
                .startsWith("paynotify.channels.\"ali\".app-cert is a key or secret published"));
    }

    @Test
    void allowLoopbackIsRefused() {
        assertEquals(
                "paynotify.webhooks.allow-loopback must not be true in the prod profile: it lets a webhook reach"
                        + " this pod's own ports and the cloud metadata service (dev and tests only)",
                refusedInProdOnly("paynotify.webhooks.allow-loopback", "true"));
        build(Map.of("paynotify.webhooks.allow-loopback", "false"), PROD);
    }

    @Test
    void plainHttpApiBaseUrlsAreRefusedBeyondLoopback() {
        for (String url : List.of("http://api.mch.example", "HTTP://10.0.0.8:8080", "http://127.example")) {
            assertEquals(
                    "paynotify.channels.\"wx\".api-base-url must be https in the prod profile (plain http only to a"
                            + " loopback address)",
                    refusedInProdOnly("paynotify.channels.wx.api-base-url", url),
                    url);
        }
        assertTrue(refusedInProdOnly("paynotify.channels.ali.api-base-url", "http://gateway.example/gateway.do")
                .startsWith("paynotify.channels.\"ali\".api-base-url must be https"));
        for (String url : List.of(
                "https://api.mch.example",
                "http://127.0.0.1:8090",
                "http://127.1.2.3:8090",
                "http://localhost:8090",
                "http://[::1]:8090")) {
            var props = valid();
            props.put("paynotify.channels.wx.api-base-url", url);
            build(props, PROD);
        }
    }

    @Test
    void theChecksRunWhereverProdIsActive() {
        var props = valid();
        props.put("paynotify.webhooks.allow-loopback", "true");
        // a profile whose parent is prod (quarkus.config.profile.parent=prod), and a list naming prod
        for (List<String> profiles : List.of(List.of("bench", "prod"), List.of("eu", "prod"))) {
            assertThrows(ConfigProblem.class, () -> build(props, profiles), profiles.toString());
        }
        for (List<String> profiles : List.of(List.of("dev"), List.of("it"), List.of("test"), List.<String>of())) {
            build(props, profiles);
        }
    }

    @Test
    void anyOtherProfileSaysAtStartThatTheChecksAreOff() {
        assertEquals(Optional.empty(), ProductionChecks.startWarning(PROD, true));
        assertEquals(Optional.empty(), ProductionChecks.startWarning(List.of("bench", "prod"), true));
        String dev = ProductionChecks.startWarning(List.of("dev"), true).orElseThrow();
        assertTrue(dev.startsWith("The dev profile is active: it configures keys, secrets and tokens published"), dev);
        assertEquals(Optional.of(dev), ProductionChecks.startWarning(List.of("dev"), false), "quarkus:dev warns too");
        assertEquals(
                Optional.of("Profile [it] is active, not prod: the prod profile's start-up checks (published keys,"
                        + " paynotify.webhooks.allow-loopback, plain-http api-base-url) are off."),
                ProductionChecks.startWarning(List.of("it"), true));
        assertEquals(Optional.empty(), ProductionChecks.startWarning(TEST, false), "a @QuarkusTest run stays quiet");
    }
}
