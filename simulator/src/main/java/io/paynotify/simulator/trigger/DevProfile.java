package io.paynotify.simulator.trigger;

import java.util.List;
import java.util.Map;

/**
 * The values of paynotify's dev profile ({@code %dev.} lines of src/main/resources/application.properties) and the
 * dev-only provider keys in simulator/keys that match them. Public test values: never configure them anywhere else.
 */
public final class DevProfile {

    public static final String SERVICE = "http://localhost:8080";
    public static final String CLIENT_ID = "dev-shop";
    public static final String CLIENT_SECRET = "dev-shop-secret-0123456789abcdefgh";
    public static final String ADMIN_TOKEN = "dev-admin-token-0123456789abcdefghijkl";
    public static final String WEBHOOK_SECRET = "whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWZvci10aGUtZGVtbw==";
    public static final int WEBHOOK_PORT = 8089;
    public static final int GATEWAY_PORT = 8090;

    /** The dev channels in the order the demo uses them. */
    public static final List<String> CHANNELS = List.of("wx-dev", "wx3-dev", "ali-dev");

    private DevProfile() {}

    /** The dev channels and client, with the simulator's private keys loaded from its dev key files. */
    public static ChannelTable table() {
        Channel wx = new Channel(
                "wx-dev",
                Provider.WECHATPAY_V2,
                "wxdevapp000000001",
                "1900000001",
                "devdevdevdevdevdevdevdevdevdev32",
                List.of("MD5", "HMAC-SHA256"),
                null,
                null,
                null,
                null,
                null);
        Channel wx3 = new Channel(
                "wx3-dev",
                Provider.WECHATPAY_V3,
                "wxdevapp000000003",
                "1900000003",
                null,
                List.of(),
                "devV3devV3devV3devV3devV3devV332",
                "PUB_KEY_ID_0000000000000000000000000000DEV1",
                DevKeys.privateKey(DevKeys.WECHATPAY_V3_PLATFORM),
                null,
                null);
        Channel ali = new Channel(
                "ali-dev",
                Provider.ALIPAY,
                "2021000000000001",
                null,
                null,
                List.of(),
                null,
                null,
                null,
                DevKeys.privateKey(DevKeys.ALIPAY_PLATFORM),
                "2088000000000001");
        Client shop = new Client(CLIENT_ID, CLIENT_SECRET, CHANNELS);
        return new ChannelTable(Map.of(wx.name(), wx, wx3.name(), wx3, ali.name(), ali), Map.of(shop.id(), shop));
    }
}
