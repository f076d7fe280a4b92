package io.paynotify.testing;

import io.paynotify.simulator.gateway.Gateway;
import io.paynotify.simulator.gateway.GatewayConfig;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Starts the provider simulator's fake gateway (simulator/, compiled into the test classes) on a free port of
 * 127.0.0.1 and configures three query-enabled channels against it, one per provider, with keys generated for the
 * run: the service signs its queries with the merchant keys, the gateway checks them like the provider and signs its
 * answers with the platform keys. Tests script the gateway over its control API ({@link Sim}).
 */
public class SimulatorResource implements QuarkusTestResourceLifecycleManager {

    public static final String WX = "wx-q";
    public static final String WX_APPID = "wxq0000000000001";
    public static final String WX_MCH = "1900000501";
    public static final String WX_KEY = "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqq32";

    public static final String WX3 = "wx3-q";
    public static final String WX3_APPID = "wxq0000000000003";
    public static final String WX3_MCH = "1900000503";
    public static final String WX3_API_V3_KEY = "q3q3q3q3q3q3q3q3q3q3q3q3q3q3q332";
    public static final String WX3_PLATFORM_SERIAL = "PUB_KEY_ID_0000000000000000000000000000000Q01";
    public static final String WX3_MERCHANT_SERIAL = "3775B6A45ACD588826D15E583A95F5DD00000Q01";

    public static final String ALI = "ali-q";
    public static final String ALI_APPID = "2021000000000501";

    /** A channel whose provider is the gateway's but which does not query. */
    public static final String WX_OFF = "wx-q-off";

    public static final String CLIENT = "merchant-q";
    public static final String CLIENT_SECRET = "merchant-q-secret-0123456789abcdefghij";

    /** Key names in {@link TestKeys}. */
    public static final String WX3_PLATFORM = "q-wx3-platform";

    public static final String WX3_MERCHANT = "q-wx3-merchant";
    public static final String ALI_PLATFORM = "q-ali-platform";
    public static final String ALI_APP = "q-ali-app";

    static final String PORT_PROPERTY = "pntest.sim.port";

    private Gateway gateway;
    private FakeGateway isv;

    @Override
    public Map<String, String> start() {
        try {
            gateway = Gateway.start(GatewayConfig.builder()
                    .port(0)
                    .wechatV2(WX_MCH, WX_APPID, WX_KEY)
                    .wechatV3(
                            WX3_MCH,
                            WX3_APPID,
                            WX3_MERCHANT_SERIAL,
                            TestKeys.pair(WX3_MERCHANT).getPublic(),
                            Map.of(
                                    WX3_PLATFORM_SERIAL,
                                    TestKeys.pair(WX3_PLATFORM).getPrivate()),
                            WX3_PLATFORM_SERIAL)
                    .alipay(
                            ALI_APPID,
                            TestKeys.pair(ALI_APP).getPublic(),
                            TestKeys.pair(ALI_PLATFORM).getPrivate())
                    .build());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the simulator's gateway did not start", e);
        }
        System.setProperty(PORT_PROPERTY, Integer.toString(gateway.port()));
        String base = gateway.baseUrl();
        var c = new HashMap<String, String>();
        channel(c, WX, "provider", "WECHATPAY_V2");
        channel(c, WX, "app-id", WX_APPID);
        channel(c, WX, "mch-id", WX_MCH);
        channel(c, WX, "api-key", WX_KEY);
        channel(c, WX, "sign-types", "MD5,HMAC-SHA256");
        channel(c, WX, "query-enabled", "true");
        channel(c, WX, "api-base-url", base);

        channel(c, WX_OFF, "provider", "WECHATPAY_V2");
        channel(c, WX_OFF, "app-id", "wxq0000000000009");
        channel(c, WX_OFF, "mch-id", "1900000509");
        channel(c, WX_OFF, "api-key", WX_KEY);
        channel(c, WX_OFF, "sign-types", "MD5");
        channel(c, WX_OFF, "api-base-url", base);

        channel(c, WX3, "provider", "WECHATPAY_V3");
        channel(c, WX3, "app-id", WX3_APPID);
        channel(c, WX3, "mch-id", WX3_MCH);
        channel(c, WX3, "api-v3-key", WX3_API_V3_KEY);
        channel(c, WX3, "platform-keys.\"" + WX3_PLATFORM_SERIAL + "\"", TestKeys.publicBase64(WX3_PLATFORM));
        channel(c, WX3, "query-enabled", "true");
        channel(c, WX3, "api-base-url", base);
        channel(c, WX3, "merchant-private-key", privateBase64(WX3_MERCHANT));
        channel(c, WX3, "merchant-serial", WX3_MERCHANT_SERIAL);

        channel(c, ALI, "provider", "ALIPAY");
        channel(c, ALI, "app-id", ALI_APPID);
        channel(c, ALI, "alipay-public-key", TestKeys.publicBase64(ALI_PLATFORM));
        channel(c, ALI, "query-enabled", "true");
        channel(c, ALI, "api-base-url", base + "/gateway.do");
        channel(c, ALI, "merchant-private-key", privateBase64(ALI_APP));

        // an Alipay ISV against its own stub (IsvGateway): four merchants' tokens, checked at start
        isv = IsvGateway.start();
        String isvChannel = IsvGateway.CHANNEL;
        channel(c, isvChannel, "provider", "ALIPAY");
        channel(c, isvChannel, "mode", "isv");
        channel(c, isvChannel, "app-id", IsvGateway.APP_ID);
        channel(c, isvChannel, "alipay-public-key", TestKeys.publicBase64(IsvGateway.ALIPAY_KEY));
        channel(c, isvChannel, "query-enabled", "true");
        channel(c, isvChannel, "api-base-url", isv.url() + "/gateway.do");
        channel(c, isvChannel, "merchant-private-key", privateBase64(IsvGateway.APP_KEY));
        IsvGateway.TOKENS.forEach((id, token) -> channel(c, isvChannel, "app-auth-tokens.\"" + id + "\"", token));

        c.put("paynotify.clients." + CLIENT + ".secret", CLIENT_SECRET);
        c.put("paynotify.clients." + CLIENT + ".channels", String.join(",", WX, WX3, ALI, WX_OFF));
        return c;
    }

    @Override
    public void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (isv != null) {
            isv.close();
        }
    }

    private static void channel(Map<String, String> c, String channel, String key, String value) {
        c.put("paynotify.channels." + channel + "." + key, value);
    }

    private static String privateBase64(String name) {
        return Base64.getEncoder()
                .encodeToString(TestKeys.pair(name).getPrivate().getEncoded());
    }
}
