package io.paynotify.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.Provider;
import io.paynotify.provider.alipay.AlipayKeys;
import io.paynotify.provider.wechatv2.WechatV2Keys;
import io.paynotify.provider.wechatv3.WechatV3Keys;
import io.paynotify.testing.KeyParsers;
import io.paynotify.testing.TestKeys;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The start-time validation of the configuration (docs/operations.md "Start-up checks"): every problem names the channel or client and the key, and never
 * the value (which may be a secret).
 */
@Tag("unit")
class ChannelRegistryTest {

    static final String V2_KEY = "192006250b4c09247ec02edce69f6a2d";

    static Map<String, String> validV2() {
        var m = new HashMap<String, String>();
        m.put("paynotify.channels.wx-main.provider", "WECHATPAY_V2");
        m.put("paynotify.channels.wx-main.app-id", "wxapp1,wxapp2");
        m.put("paynotify.channels.wx-main.mch-id", "1000");
        m.put("paynotify.channels.wx-main.api-key", V2_KEY);
        m.put("paynotify.channels.wx-main.sign-types", "MD5,HMAC-SHA256");
        return m;
    }

    static ChannelRegistry build(Map<String, String> props) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(props, "test", 500))
                .build();
        return new ChannelRegistry(config.getConfigMapping(PaynotifyConfig.class), KeyParsers.all());
    }

    static String failure(Map<String, String> props) {
        return assertThrows(ConfigProblem.class, () -> build(props)).getMessage();
    }

    @Test
    void validChannelsAreParsedOnce() {
        var props = validV2();
        props.put("paynotify.channels.ali-app.provider", "ALIPAY");
        props.put("paynotify.channels.ali-app.app-id", "2021");
        props.put("paynotify.channels.ali-app.alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        props.put("paynotify.clients.shop.secret", "s".repeat(32));
        props.put("paynotify.clients.shop.channels", "wx-main,ali-app");
        props.put("paynotify.admin.tokens", "t".repeat(32));
        ChannelRegistry r = build(props);

        Channel wx = r.channel("wx-main").orElseThrow();
        assertEquals(Provider.WECHATPAY_V2, wx.provider());
        assertEquals(2, wx.keys(WechatV2Keys.class).appIds().size());
        Channel ali = r.channel("ali-app").orElseThrow();
        assertEquals(java.util.Set.of("RSA2"), ali.keys(AlipayKeys.class).signTypes(), "Alipay defaults to RSA2 only");
        assertEquals(1, ali.keys(AlipayKeys.class).publicKeys().size());
        assertTrue(r.client("shop").isPresent());
        assertFalse(r.channel("nope").isPresent());
        assertFalse(wx.toString().contains(V2_KEY));
    }

    @Test
    void missingKeysNameChannelAndKey() {
        var props = validV2();
        props.remove("paynotify.channels.wx-main.mch-id");
        assertEquals("paynotify.channels.\"wx-main\".mch-id is required", failure(props));

        props = validV2();
        props.remove("paynotify.channels.wx-main.provider");
        assertTrue(failure(props).contains("\"wx-main\".provider"));
    }

    @Test
    void badValuesAreNamedButNeverShown() {
        var props = validV2();
        props.put("paynotify.channels.wx-main.api-key", "short-secret-value");
        String msg = failure(props);
        assertTrue(msg.contains("\"wx-main\".api-key"));
        assertFalse(msg.contains("short-secret-value"));

        props = validV2();
        props.put("paynotify.channels.wx-main.sign-types", "MD5,SHA1");
        assertTrue(failure(props).contains("sign-types"));

        props = validV2();
        props.put("paynotify.channels.wx-main.provider", "PAYPAL");
        assertTrue(failure(props).contains("provider"));

        props = validV2();
        props.put("paynotify.channels.Bad_Name.provider", "ALIPAY");
        assertTrue(failure(props).contains("Bad_Name"));
    }

    @Test
    void unparseableAndShortRsaKeysStopTheStart() throws Exception {
        var props = new HashMap<String, String>();
        props.put("paynotify.channels.ali.provider", "ALIPAY");
        props.put("paynotify.channels.ali.app-id", "2021");
        props.put("paynotify.channels.ali.alipay-public-key", "not-a-key!!");
        String msg = failure(props);
        assertTrue(msg.contains("\"ali\".alipay-public-key"));
        assertFalse(msg.contains("not-a-key"));

        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(1024);
        props.put(
                "paynotify.channels.ali.alipay-public-key",
                Base64.getEncoder()
                        .encodeToString(g.generateKeyPair().getPublic().getEncoded()));
        assertTrue(failure(props).contains("shorter than 2048"));
    }

    @Test
    void v3KeysAndLengthsAreChecked() {
        var props = new HashMap<String, String>();
        props.put("paynotify.channels.wx3.provider", "WECHATPAY_V3");
        props.put("paynotify.channels.wx3.app-id", "wxapp");
        props.put("paynotify.channels.wx3.mch-id", "1900");
        props.put("paynotify.channels.wx3.api-v3-key", "too-short");
        props.put("paynotify.channels.wx3.platform-keys.\"SERIAL1\"", TestKeys.publicPem(TestKeys.WECHAT_V3_CERT));
        assertTrue(failure(props).contains("api-v3-key"));

        props.put("paynotify.channels.wx3.api-v3-key", "a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb");
        ChannelRegistry r = build(props);
        assertEquals(
                1,
                r.channel("wx3")
                        .orElseThrow()
                        .keys(WechatV3Keys.class)
                        .platformKeys()
                        .size());

        props.put("paynotify.channels.wx3.platform-keys.\"SERIAL2\"", "garbage");
        assertTrue(failure(props).contains("platform-keys.\"SERIAL2\""));
    }

    @Test
    void overlappingChannelsAndUnknownClientChannelsStopTheStart() {
        var props = validV2();
        props.put("paynotify.channels.wx-other.provider", "WECHATPAY_V2");
        props.put("paynotify.channels.wx-other.app-id", "wxapp2");
        props.put("paynotify.channels.wx-other.mch-id", "1000");
        props.put("paynotify.channels.wx-other.api-key", V2_KEY);
        props.put("paynotify.channels.wx-other.sign-types", "MD5");
        assertTrue(failure(props).contains("could accept the same notification"));

        props.put("paynotify.channels.wx-other.mch-id", "2000");
        build(props); // another merchant with the same appid is fine

        props.put("paynotify.clients.shop.secret", "s".repeat(32));
        props.put("paynotify.clients.shop.channels", "wx-main,ghost");
        assertTrue(failure(props).contains("unknown channel \"ghost\""));

        props.put("paynotify.clients.shop.channels", "wx-main");
        props.put("paynotify.clients.shop.secret", "too-short");
        String msg = failure(props);
        assertTrue(msg.contains("\"shop\".secret"));
        assertFalse(msg.contains("too-short"));
    }

    @Test
    void adminTokensMustBeLong() {
        var props = validV2();
        props.put("paynotify.admin.tokens", "short-token");
        String msg = failure(props);
        assertTrue(msg.contains("paynotify.admin.tokens"));
        assertFalse(msg.contains("short-token"));
    }

    @Test
    void theQueryTickIsPositiveAndAtMostOneSecond() {
        var props = validV2();
        assertEquals(Duration.ofSeconds(1), build(props).queryTick(), "the default");
        props.put("paynotify.reconcile.tick", "2s");
        assertTrue(failure(props).contains("paynotify.reconcile.tick must be at most 1s"));
        props.put("paynotify.reconcile.tick", "0s");
        assertTrue(failure(props).contains("paynotify.reconcile.tick"));
        props.put("paynotify.reconcile.tick", "100ms");
        assertEquals(Duration.ofMillis(100), build(props).queryTick());
    }

    @Test
    void idempotencyRetentionDefaultsToOneDay() {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .build();
        assertEquals(
                Duration.ofHours(24),
                config.getConfigMapping(PaynotifyConfig.class).idempotency().retention());
    }

    /** The dev profile of application.properties (what `./mvnw quarkus:dev` starts with) passes every check. */
    @Test
    void theDevProfileStartsWithEveryDevChannelQuerying() throws java.io.IOException {
        var file = new java.util.Properties();
        try (var in = ChannelRegistryTest.class.getResourceAsStream("/application.properties")) {
            file.load(in);
        }
        var dev = new HashMap<String, String>();
        file.stringPropertyNames().stream()
                .filter(k -> k.startsWith("paynotify."))
                .forEach(k -> dev.put(k, file.getProperty(k)));
        file.stringPropertyNames().stream()
                .filter(k -> k.startsWith("%dev.paynotify."))
                .forEach(k -> dev.put(k.substring("%dev.".length()), file.getProperty(k)));

        ChannelRegistry registry = build(dev);

        for (String channel : java.util.List.of("wx-dev", "wx3-dev", "ali-dev")) {
            assertTrue(registry.channel(channel).orElseThrow().keys().queryEnabled(), channel + " queries");
        }
    }
}
