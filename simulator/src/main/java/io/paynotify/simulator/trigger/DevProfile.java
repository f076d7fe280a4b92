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

    /** The dev channels of the account modes (CONTRACT §10), in the order the demo shows them. */
    public static final List<String> MODE_CHANNELS = List.of("wx-sp-dev", "wx3-sp-dev", "ali-isv-dev", "ali-cert-dev");

    /** wx-sp-dev's sub-merchants ({@code sub_mch_id}), shop A first. */
    public static final List<String> WX_SP_SUB_MERCHANTS = List.of("1900000201", "1900000202");

    /** wx3-sp-dev's sub-merchants ({@code sub_mchid}), shop A first. */
    public static final List<String> WX3_SP_SUB_MERCHANTS = List.of("1900000203", "1900000204");

    /** ali-isv-dev's authorising merchants ({@code auth_app_id}), each with an app_auth_token in the dev profile. */
    public static final List<String> ALI_ISV_MERCHANTS = List.of("2021000000000021", "2021000000000022");

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
        Channel wxSp = new Channel(
                "wx-sp-dev",
                Provider.WECHATPAY_V2,
                "wxdevsp0000000001",
                "1900000101",
                "devSPdevSPdevSPdevSPdevSPdevSP32",
                List.of("MD5", "HMAC-SHA256"),
                null,
                null,
                null,
                null,
                null,
                Channel.Mode.PARTNER,
                WX_SP_SUB_MERCHANTS,
                false);
        Channel wx3Sp = new Channel(
                "wx3-sp-dev",
                Provider.WECHATPAY_V3,
                "wxdevsp0000000003",
                "1900000103",
                null,
                List.of(),
                "devSPv3devSPv3devSPv3devSPv3dev3",
                "PUB_KEY_ID_00000000000000000000000000DEVSP3",
                DevKeys.privateKey(DevKeys.WECHATPAY_V3_SP_PLATFORM),
                null,
                null,
                Channel.Mode.PARTNER,
                WX3_SP_SUB_MERCHANTS,
                false);
        Channel aliIsv = new Channel(
                "ali-isv-dev",
                Provider.ALIPAY,
                "2021000000000002",
                null,
                null,
                List.of(),
                null,
                null,
                null,
                DevKeys.privateKey(DevKeys.ALIPAY_ISV_PLATFORM),
                null,
                Channel.Mode.ISV,
                ALI_ISV_MERCHANTS,
                false);
        Channel aliCert = new Channel(
                "ali-cert-dev",
                Provider.ALIPAY,
                "2021000000000003",
                null,
                null,
                List.of(),
                null,
                null,
                null,
                DevKeys.privateKey(DevKeys.ALIPAY_CERT_PLATFORM),
                "2088000000000003",
                Channel.Mode.DIRECT,
                List.of(),
                true);
        List<String> all = new java.util.ArrayList<>(CHANNELS);
        all.addAll(MODE_CHANNELS);
        Client shop = new Client(CLIENT_ID, CLIENT_SECRET, all);
        Map<String, Channel> channels = new java.util.LinkedHashMap<>();
        for (Channel c : List.of(wx, wx3, ali, wxSp, wx3Sp, aliIsv, aliCert)) {
            channels.put(c.name(), c);
        }
        return new ChannelTable(Map.copyOf(channels), Map.of(shop.id(), shop));
    }
}
