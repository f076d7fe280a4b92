package io.paynotify.testing;

import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.simulator.sign.AlipayPki;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The channels, clients and tokens every @QuarkusTest runs with; all keys are test-only. */
public final class TestChannels {

    public static final String WX = "wx-test";
    public static final String WX_APPID = "wx2421b1c4370ec43b";
    public static final String WX_APPID_2 = "wxd930ea5d5a258f4f";
    public static final String WX_MCH = "10000100";
    public static final String WX_KEY = "192006250b4c09247ec02edce69f6a2d";
    /** The second key of a rotation on {@link #WX}. */
    public static final String WX_KEY_NEXT = "abcdefghijklmnopqrstuvwxyz012345";

    /** A v2 channel that allows HMAC-SHA256 only: MD5 is a downgrade there. */
    public static final String WX_HMAC = "wx-hmac";

    public static final String WX_HMAC_APPID = "wxhmac0000000001";
    public static final String WX_HMAC_MCH = "10000200";
    public static final String WX_HMAC_KEY = "hmachmachmachmachmachmachmac32ch";

    public static final String ALI = "ali-test";
    public static final String ALI_APPID = "2021000000000099";

    /** An Alipay channel that also accepts RSA (SHA1) and requires a seller id. */
    public static final String ALI_RSA = "ali-rsa";

    public static final String ALI_RSA_APPID = "2021000000000098";
    public static final String ALI_RSA_SELLER = "2088000000000001";

    public static final String WX3 = "wx3-test";
    public static final String WX3_APPID = "wxv3app000000001";
    public static final String WX3_MCH = "1900000109";
    public static final String WX3_API_V3_KEY = "a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb";
    public static final String WX3_CERT_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
    public static final String WX3_PUBKEY_ID = "PUB_KEY_ID_0000000000000024101100397200000006";

    public static final String CLIENT_A = "merchant-a";
    public static final String CLIENT_A_SECRET = "client-a-secret-0123456789abcdefghij";
    public static final String CLIENT_B = "merchant-b";
    public static final String CLIENT_B_SECRET = "client-b-secret-0123456789abcdefghij";

    public static final String ADMIN_TOKEN = "admin-token-0123456789abcdefghijklmnop";

    /** The second configured admin token (operators name tokens by their position in the list). */
    public static final String ADMIN_TOKEN_2 = "admin-token-second-0123456789abcdefghij";

    /** A v2 channel whose orders produce webhook deliveries (no other test channel has subscribers with webhooks). */
    public static final String WX_HOOK = "wx-hook";

    public static final String WX_HOOK_APPID = "wxhook0000000001";
    public static final String WX_HOOK_MCH = "10000300";
    public static final String WX_HOOK_KEY = "hookhookhookhookhookhookhookho32";

    /** A client with a webhook at /a of the test receiver, signed with two secrets (a rotation). */
    public static final String HOOK_A = "hook-a";

    public static final String HOOK_A_SECRET = "hook-a-secret-0123456789abcdefghijklmn";
    public static final String HOOK_A_WHSEC_1 = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    public static final String HOOK_A_WHSEC_2 = "whsec_"
            + java.util.Base64.getEncoder()
                    .encodeToString("a second webhook secret, 40 bytes long!!"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    /** A second client on the same channel, webhook at /b of the test receiver, one secret. */
    public static final String HOOK_B = "hook-b";

    public static final String HOOK_B_SECRET = "hook-b-secret-0123456789abcdefghijklmn";
    public static final String HOOK_B_WHSEC = "whsec_"
            + java.util.Base64.getEncoder()
                    .encodeToString("the webhook secret of client hook-b 1234"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    /**
     * A v2 channel for the webhook isolation tests ({@code events/WebhookIsolationTest}): its events go to three
     * clients of its own, so that no other test's deliveries change.
     */
    public static final String WX_ISO = "wx-iso";

    public static final String WX_ISO_APPID = "wxiso00000000001";
    public static final String WX_ISO_MCH = "10000400";
    public static final String WX_ISO_KEY = "isoisoisoisoisoisoisoisoisoiso32";

    /** A client whose webhook is the {@link StallingEndpoint}: it sends its headers and never the body. */
    public static final String HOOK_HANG = "hook-hang";

    /** A client whose webhook's host name takes as long to resolve as a test scripts it. */
    public static final String HOOK_SLOW_DNS = "hook-slow-dns";

    /**
     * A client whose webhook answers at once: path /steady of the test receiver, by the name {@code localhost}, which
     * the system resolver answers (through the application's resolver pool, unless a test scripts it).
     */
    public static final String HOOK_STEADY = "hook-steady";

    /** The host name of {@link #HOOK_SLOW_DNS}, answered by ScriptedWebhookResolver. */
    public static final String SLOW_DNS_HOST = "slow" + ScriptedWebhookResolver.DOMAIN;

    /** The host name of {@link #HOOK_STEADY}. */
    public static final String STEADY_HOST = "localhost";

    // ---- account modes (docs/api.md "Account modes"): a WeChat service provider on v2 and v3, an Alipay ISV

    /** A WeChat Pay v2 service-provider channel (mode=partner). */
    public static final String WX_SP = "wx-sp";

    public static final String WX_SP_APPID = "wxsp000000000001";
    public static final String WX_SP_MCH = "10000900";
    public static final String WX_SP_KEY = "spspspspspspspspspspspspspsp32ch";

    /** A WeChat Pay v3 service-provider channel (mode=partner). */
    public static final String WX3_SP = "wx3-sp";

    public static final String WX3_SP_APPID = "wxsp3app00000001";
    public static final String WX3_SP_MCH = "1900000900";
    public static final String WX3_SP_API_V3_KEY = "sp3sp3sp3sp3sp3sp3sp3sp3sp3sp332";
    public static final String WX3_SP_PUBKEY_ID = "PUB_KEY_ID_0000000000000024101100397200000900";

    /** An Alipay third-party application channel (mode=isv). */
    public static final String ALI_ISV = "ali-isv";

    public static final String ALI_ISV_APPID = "2021000000000900";

    /**
     * An Alipay channel in public-key-certificate mode (docs/api.md "Account modes"), not query-enabled: its chains
     * are checked at start and its certificates' expiry exported ({@code paynotify_certificate_expiry_seconds}).
     */
    public static final String ALI_CERT = "ali-cert";

    public static final String ALI_CERT_APPID = "2021000000000950";

    /** The certificates of {@link #ALI_CERT}: Alipay's key is {@link TestKeys#ALIPAY}, the app's {@link TestKeys#ALIPAY_APP}. */
    public static AlipayPki aliCertPki() {
        synchronized (TestChannels.class) {
            if (aliCertPki == null) {
                aliCertPki = AlipayPki.issue(
                        ALI_CERT_APPID,
                        TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
                        TestKeys.pair(TestKeys.ALIPAY).getPublic(),
                        java.time.Instant.now(),
                        5);
            }
            return aliCertPki;
        }
    }

    private static AlipayPki aliCertPki;

    /** Two sub-merchants of the WeChat service provider (sub_mch_id / sub_mchid). */
    public static final String SUB_A = "1900000901";

    public static final String SUB_B = "1900000902";

    /** Two merchants that authorised the Alipay ISV application (auth_app_id). */
    public static final String AUTH_A = "2021000000000901";

    public static final String AUTH_B = "2021000000000902";

    /** A platform's client for every sub-merchant of the three channels. */
    public static final String CLIENT_SP = "merchant-sp";

    public static final String CLIENT_SP_SECRET = "client-sp-secret-0123456789abcdefghi";

    /** A client of the same channels limited to sub-merchant A ({@link #SUB_A}, {@link #AUTH_A}). */
    public static final String CLIENT_SP_A = "merchant-sp-a";

    public static final String CLIENT_SP_A_SECRET = "client-sp-a-secret-0123456789abcdefg";

    private TestChannels() {}

    /** Statements (CONTRACT.md §11): a WeChat v2 channel that fetches its bills (no active query). */
    public static final String WX_STMT = "wx-stmt";

    public static final String WX_STMT_APPID = "wxstmt0000000001";
    public static final String WX_STMT_MCH = "10000700";
    public static final String WX_STMT_KEY = "stmtstmtstmtstmtstmtstmtstmtst32";

    /** Statements on a WeChat service provider's channel (uploads only). */
    public static final String WX_STMT_SP = "wx-stmt-sp";

    public static final String WX_STMT_SP_APPID = "wxstmtsp00000001";
    public static final String WX_STMT_SP_MCH = "10000710";

    /** Statements on an Alipay channel that fetches its bills, with a seller id the bills are checked against. */
    public static final String ALI_STMT = "ali-stmt";

    public static final String ALI_STMT_APPID = "2021000000000700";
    public static final String ALI_STMT_SELLER = "2088000000000700";

    /**
     * The registry the application builds from {@link #config()}, built without Quarkus: for unit tests of the
     * adapters, which take a {@link Channel} and need nothing else.
     */
    public static ChannelRegistry registry() {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(config(), "test-channels", 500))
                .build();
        return new ChannelRegistry(config.getConfigMapping(PaynotifyConfig.class), KeyParsers.all());
    }

    /** One channel of {@link #registry()}. */
    public static Channel channel(String name) {
        return REGISTRY.channel(name).orElseThrow();
    }

    private static final ChannelRegistry REGISTRY = registry();

    public static Map<String, String> config() {
        var c = new HashMap<String, String>();
        put(c, WX, "provider", "WECHATPAY_V2");
        put(c, WX, "app-id", WX_APPID + "," + WX_APPID_2);
        put(c, WX, "mch-id", WX_MCH);
        put(c, WX, "api-key", WX_KEY + "," + WX_KEY_NEXT);
        put(c, WX, "sign-types", "MD5,HMAC-SHA256");

        put(c, WX_HMAC, "provider", "WECHATPAY_V2");
        put(c, WX_HMAC, "app-id", WX_HMAC_APPID);
        put(c, WX_HMAC, "mch-id", WX_HMAC_MCH);
        put(c, WX_HMAC, "api-key", WX_HMAC_KEY);
        put(c, WX_HMAC, "sign-types", "HMAC-SHA256");

        put(c, ALI, "provider", "ALIPAY");
        put(c, ALI, "app-id", ALI_APPID);
        put(
                c,
                ALI,
                "alipay-public-key",
                TestKeys.publicBase64(TestKeys.ALIPAY) + "," + TestKeys.publicBase64(TestKeys.ALIPAY_NEXT));

        put(c, ALI_RSA, "provider", "ALIPAY");
        put(c, ALI_RSA, "app-id", ALI_RSA_APPID);
        put(c, ALI_RSA, "alipay-public-key", TestKeys.publicPem(TestKeys.ALIPAY));
        put(c, ALI_RSA, "sign-types", "RSA2,RSA");
        put(c, ALI_RSA, "seller-id", ALI_RSA_SELLER);

        put(c, WX3, "provider", "WECHATPAY_V3");
        put(c, WX3, "app-id", WX3_APPID);
        put(c, WX3, "mch-id", WX3_MCH);
        put(c, WX3, "api-v3-key", WX3_API_V3_KEY);
        c.put(
                "paynotify.channels.\"" + WX3 + "\".platform-keys.\"" + WX3_CERT_SERIAL + "\"",
                TestKeys.publicPem(TestKeys.WECHAT_V3_CERT));
        c.put(
                "paynotify.channels.\"" + WX3 + "\".platform-keys.\"" + WX3_PUBKEY_ID + "\"",
                TestKeys.publicBase64(TestKeys.WECHAT_V3_PUBKEY));

        c.put("paynotify.clients.\"" + CLIENT_A + "\".secret", CLIENT_A_SECRET);
        c.put("paynotify.clients.\"" + CLIENT_A + "\".channels", WX + "," + ALI + "," + WX3);
        c.put("paynotify.clients.\"" + CLIENT_B + "\".secret", CLIENT_B_SECRET);
        c.put("paynotify.clients.\"" + CLIENT_B + "\".channels", WX_HMAC + "," + ALI_RSA);
        c.put("paynotify.admin.tokens", ADMIN_TOKEN + "," + ADMIN_TOKEN_2);

        put(c, WX_HOOK, "provider", "WECHATPAY_V2");
        put(c, WX_HOOK, "app-id", WX_HOOK_APPID);
        put(c, WX_HOOK, "mch-id", WX_HOOK_MCH);
        put(c, WX_HOOK, "api-key", WX_HOOK_KEY);
        put(c, WX_HOOK, "sign-types", "MD5,HMAC-SHA256");
        String receiver = "http://127.0.0.1:" + System.getProperty(WebhookReceiver.PORT, "9");
        c.put("paynotify.clients.\"" + HOOK_A + "\".secret", HOOK_A_SECRET);
        c.put("paynotify.clients.\"" + HOOK_A + "\".channels", WX_HOOK);
        c.put("paynotify.clients.\"" + HOOK_A + "\".webhook-url", receiver + "/a");
        c.put("paynotify.clients.\"" + HOOK_A + "\".webhook-secret", HOOK_A_WHSEC_1 + "," + HOOK_A_WHSEC_2);
        c.put("paynotify.clients.\"" + HOOK_B + "\".secret", HOOK_B_SECRET);
        c.put("paynotify.clients.\"" + HOOK_B + "\".channels", WX_HOOK);
        c.put("paynotify.clients.\"" + HOOK_B + "\".webhook-url", receiver + "/b");
        c.put("paynotify.clients.\"" + HOOK_B + "\".webhook-secret", HOOK_B_WHSEC);
        put(c, WX_ISO, "provider", "WECHATPAY_V2");
        put(c, WX_ISO, "app-id", WX_ISO_APPID);
        put(c, WX_ISO, "mch-id", WX_ISO_MCH);
        put(c, WX_ISO, "api-key", WX_ISO_KEY);
        put(c, WX_ISO, "sign-types", "MD5");
        String receiverPort = System.getProperty(WebhookReceiver.PORT, "9");
        isolationClient(c, HOOK_HANG, "http://127.0.0.1:" + System.getProperty(StallingEndpoint.PORT, "9") + "/hang");
        isolationClient(c, HOOK_SLOW_DNS, "http://" + SLOW_DNS_HOST + ":" + receiverPort + "/slow");
        isolationClient(c, HOOK_STEADY, "http://" + STEADY_HOST + ":" + receiverPort + "/steady");
        put(c, WX_SP, "provider", "WECHATPAY_V2");
        put(c, WX_SP, "mode", "partner");
        put(c, WX_SP, "app-id", WX_SP_APPID);
        put(c, WX_SP, "mch-id", WX_SP_MCH);
        put(c, WX_SP, "api-key", WX_SP_KEY);
        put(c, WX_SP, "sign-types", "MD5,HMAC-SHA256");
        put(c, WX3_SP, "provider", "WECHATPAY_V3");
        put(c, WX3_SP, "mode", "partner");
        put(c, WX3_SP, "app-id", WX3_SP_APPID);
        put(c, WX3_SP, "mch-id", WX3_SP_MCH);
        put(c, WX3_SP, "api-v3-key", WX3_SP_API_V3_KEY);
        c.put(
                "paynotify.channels.\"" + WX3_SP + "\".platform-keys.\"" + WX3_SP_PUBKEY_ID + "\"",
                TestKeys.publicBase64(TestKeys.WECHAT_V3_PUBKEY));
        put(c, ALI_ISV, "provider", "ALIPAY");
        put(c, ALI_ISV, "mode", "isv");
        put(c, ALI_ISV, "app-id", ALI_ISV_APPID);
        put(c, ALI_ISV, "alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        AlipayPki pki = aliCertPki();
        put(c, ALI_CERT, "provider", "ALIPAY");
        put(c, ALI_CERT, "app-id", ALI_CERT_APPID);
        put(c, ALI_CERT, "alipay-public-key", pki.alipayPem());
        put(c, ALI_CERT, "alipay-root-cert", pki.rootPem());
        put(c, ALI_CERT, "app-cert", pki.appPem());
        String spChannels = WX_SP + "," + WX3_SP + "," + ALI_ISV;
        c.put("paynotify.clients.\"" + CLIENT_SP + "\".secret", CLIENT_SP_SECRET);
        c.put("paynotify.clients.\"" + CLIENT_SP + "\".channels", spChannels);
        c.put("paynotify.clients.\"" + CLIENT_SP_A + "\".secret", CLIENT_SP_A_SECRET);
        c.put("paynotify.clients.\"" + CLIENT_SP_A + "\".channels", spChannels);
        c.put("paynotify.clients.\"" + CLIENT_SP_A + "\".sub-merchants", SUB_A + "," + AUTH_A);
        c.put("paynotify.clients.\"" + CLIENT_SP_A + "\".webhook-url", receiver + "/sp-a");
        c.put(
                "paynotify.clients.\"" + CLIENT_SP_A + "\".webhook-secret",
                "whsec_" + java.util.Base64.getEncoder().encodeToString("sp-a webhook secret, 32 bytes..".getBytes()));

        put(c, WX_STMT, "provider", "WECHATPAY_V2");
        put(c, WX_STMT, "app-id", WX_STMT_APPID);
        put(c, WX_STMT, "mch-id", WX_STMT_MCH);
        put(c, WX_STMT, "api-key", WX_STMT_KEY);
        put(c, WX_STMT, "sign-types", "MD5");
        put(c, WX_STMT, "statements-enabled", "true");
        put(c, WX_STMT, "statements-order-pattern", "ST[0-9A-Za-z_-]+");
        put(c, WX_STMT_SP, "provider", "WECHATPAY_V2");
        put(c, WX_STMT_SP, "mode", "partner");
        put(c, WX_STMT_SP, "app-id", WX_STMT_SP_APPID);
        put(c, WX_STMT_SP, "mch-id", WX_STMT_SP_MCH);
        put(c, WX_STMT_SP, "api-key", WX_STMT_KEY);
        put(c, WX_STMT_SP, "sign-types", "MD5");
        put(c, ALI_STMT, "provider", "ALIPAY");
        put(c, ALI_STMT, "app-id", ALI_STMT_APPID);
        put(c, ALI_STMT, "seller-id", ALI_STMT_SELLER);
        put(c, ALI_STMT, "alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        put(c, ALI_STMT, "merchant-private-key", TestKeys.privateBase64(TestKeys.ALIPAY_APP));
        put(c, ALI_STMT, "statements-enabled", "true");
        // tests run the statement scheduler by hand, with their own clock
        c.put("paynotify.statements.scheduler-enabled", "false");

        // short schedules, so that retries, failures and lapsed leases happen within a test
        c.put("paynotify.webhooks.allow-loopback", "true");
        c.put("paynotify.webhooks.retry-schedule", "1s,2s");
        c.put("paynotify.webhooks.lease", "3s");
        // the tests' fixed receive times lie months back: the hourly retention job must not erase or drop them;
        // NotificationRetentionTest runs the retention itself with cutoffs of its own
        c.put("paynotify.notifications.retention", "36500d");
        c.put("paynotify.notifications.personal-data-retention", "36500d");
        return c;
    }

    private static void isolationClient(Map<String, String> c, String client, String webhookUrl) {
        c.put("paynotify.clients.\"" + client + "\".secret", client + "-secret-0123456789abcdefghijklmn");
        c.put("paynotify.clients.\"" + client + "\".channels", WX_ISO);
        c.put("paynotify.clients.\"" + client + "\".webhook-url", webhookUrl);
        c.put(
                "paynotify.clients.\"" + client + "\".webhook-secret",
                "whsec_"
                        + java.util.Base64.getEncoder()
                                .encodeToString((client + " webhook secret, 40 bytes long........")
                                        .substring(0, 40)
                                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    private static void put(Map<String, String> c, String channel, String key, String value) {
        c.put("paynotify.channels.\"" + channel + "\"." + key, value);
    }
}
