package io.paynotify.testing;

import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.PaynotifyConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Query-enabled channels (docs/api.md "Active query") for the query clients' unit tests, each pointed at a {@link FakeGateway}.
 * Built through the real registry, so that they are exactly what the start would make of that configuration. Not
 * part of {@link TestChannels}: the Quarkus tests would query them.
 */
public final class QueryChannels {

    public static final String V2 = "wx2-query";
    public static final String V2_APPID = "wxq2app000000001";
    public static final String V2_APPID_2 = "wxq2app000000002";
    public static final String V2_MCH = "1230000109";
    public static final String V2_KEY = "192006250b4c09247ec02edce69f6a2d";
    public static final String V2_KEY_NEXT = "abcdefghijklmnopqrstuvwxyz012345";

    public static final String V3 = "wx3-query";
    public static final String V3_APPID = "wxq3app000000001";
    public static final String V3_MCH = "1900000109";
    public static final String V3_API_V3_KEY = "a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb";
    public static final String V3_MERCHANT_SERIAL = "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C";
    public static final String V3_CERT_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
    public static final String V3_PUBKEY_ID = "PUB_KEY_ID_0000000000000024101100397200000006";

    public static final String ALI = "ali-query";
    public static final String ALI_APPID = "2021000000000777";

    public static final String ALI_ISV = "ali-isv-query";
    public static final String ALI_ISV_APPID = "2021000000000778";

    private QueryChannels() {}

    /** A WeChat v2 channel with these sign types, its API at {@code baseUrl}. */
    public static Map<String, String> v2(String baseUrl, String signTypes) {
        var c = new HashMap<String, String>();
        put(c, V2, "provider", "WECHATPAY_V2");
        put(c, V2, "app-id", V2_APPID + "," + V2_APPID_2);
        put(c, V2, "mch-id", V2_MCH);
        put(c, V2, "api-key", V2_KEY + "," + V2_KEY_NEXT);
        put(c, V2, "sign-types", signTypes);
        put(c, V2, "query-enabled", "true");
        put(c, V2, "api-base-url", baseUrl);
        return c;
    }

    /**
     * A WeChat v3 channel with a platform certificate's key ({@link TestKeys#WECHAT_V3_CERT}) and the WeChat Pay
     * public key ({@link TestKeys#WECHAT_V3_PUBKEY}), signing queries with {@link TestKeys#WECHAT_V3_MERCHANT}.
     */
    public static Map<String, String> v3(String baseUrl) {
        var c = new HashMap<String, String>();
        put(c, V3, "provider", "WECHATPAY_V3");
        put(c, V3, "app-id", V3_APPID);
        put(c, V3, "mch-id", V3_MCH);
        put(c, V3, "api-v3-key", V3_API_V3_KEY);
        put(c, V3, "platform-keys.\"" + V3_CERT_SERIAL + "\"", TestKeys.publicPem(TestKeys.WECHAT_V3_CERT));
        put(c, V3, "platform-keys.\"" + V3_PUBKEY_ID + "\"", TestKeys.publicBase64(TestKeys.WECHAT_V3_PUBKEY));
        put(c, V3, "query-enabled", "true");
        put(c, V3, "api-base-url", baseUrl);
        put(c, V3, "merchant-private-key", TestKeys.privatePem(TestKeys.WECHAT_V3_MERCHANT));
        put(c, V3, "merchant-serial", V3_MERCHANT_SERIAL);
        return c;
    }

    /** An Alipay channel verifying with {@link TestKeys#ALIPAY}, signing queries with {@link TestKeys#ALIPAY_APP}. */
    public static Map<String, String> alipay(String gatewayUrl) {
        var c = new HashMap<String, String>();
        put(c, ALI, "provider", "ALIPAY");
        put(c, ALI, "app-id", ALI_APPID);
        put(c, ALI, "alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        put(c, ALI, "query-enabled", "true");
        put(c, ALI, "api-base-url", gatewayUrl);
        put(c, ALI, "merchant-private-key", TestKeys.privateBase64(TestKeys.ALIPAY_APP));
        return c;
    }

    /**
     * An Alipay ISV channel (mode=isv) as {@link #alipay}, with each authorising merchant's {@code app_auth_token}
     * ({@code auth_app_id → token}).
     */
    public static Map<String, String> alipayIsv(String gatewayUrl, Map<String, String> tokens) {
        var c = new HashMap<String, String>();
        put(c, ALI_ISV, "provider", "ALIPAY");
        put(c, ALI_ISV, "mode", "isv");
        put(c, ALI_ISV, "app-id", ALI_ISV_APPID);
        put(c, ALI_ISV, "alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        put(c, ALI_ISV, "query-enabled", "true");
        put(c, ALI_ISV, "api-base-url", gatewayUrl);
        put(c, ALI_ISV, "merchant-private-key", TestKeys.privateBase64(TestKeys.ALIPAY_APP));
        tokens.forEach((id, token) -> put(c, ALI_ISV, "app-auth-tokens.\"" + id + "\"", token));
        return c;
    }

    /** The registry the start would build from this configuration (throws its ConfigProblem). */
    public static ChannelRegistry registry(Map<String, String> props) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(props, "query-channels", 500))
                .build();
        return new ChannelRegistry(config.getConfigMapping(PaynotifyConfig.class), KeyParsers.all());
    }

    /** One channel of that configuration. */
    public static Channel channel(Map<String, String> props, String name) {
        return registry(props).channel(name).orElseThrow();
    }

    /** Sets {@code paynotify.channels."<channel>".<key>}. */
    public static void put(Map<String, String> c, String channel, String key, String value) {
        c.put("paynotify.channels.\"" + channel + "\"." + key, value);
    }

    /** Removes {@code paynotify.channels."<channel>".<key>}. */
    public static void remove(Map<String, String> c, String channel, String key) {
        c.remove("paynotify.channels.\"" + channel + "\"." + key);
    }
}
