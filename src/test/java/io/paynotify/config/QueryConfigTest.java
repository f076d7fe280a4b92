package io.paynotify.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.provider.alipay.AlipayKeys;
import io.paynotify.provider.wechatv2.WechatV2Keys;
import io.paynotify.provider.wechatv3.WechatV3Keys;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestCertificates;
import io.paynotify.testing.TestKeys;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The start-time rules of the active-query keys (docs/operations.md "Active query (reconciliation)" and docs/api.md "Active query"): {@code query-enabled},
 * {@code api-base-url}, {@code merchant-private-key}, {@code merchant-serial}. Every problem names the channel and
 * the key, never the value.
 */
@Tag("unit")
class QueryConfigTest {

    static final String V2 = QueryChannels.V2;
    static final String V3 = QueryChannels.V3;
    static final String ALI = QueryChannels.ALI;

    static String failure(Map<String, String> props) {
        return assertThrows(ConfigProblem.class, () -> QueryChannels.registry(props))
                .getMessage();
    }

    static <K extends ChannelKeys> K keys(Map<String, String> props, String channel, Class<K> type) {
        return QueryChannels.channel(props, channel).keys(type);
    }

    static String key(String channel, String key) {
        return "paynotify.channels.\"" + channel + "\"." + key;
    }

    // ------------------------------------------------------------------ defaults, api-base-url

    @Test
    void queryIsOffAndTheProvidersApiIsTheDefault() {
        var props = QueryChannels.v2("https://x.example", "MD5");
        QueryChannels.remove(props, V2, "query-enabled");
        QueryChannels.remove(props, V2, "api-base-url");
        props.putAll(QueryChannels.alipay("https://x.example"));
        QueryChannels.remove(props, ALI, "query-enabled");
        QueryChannels.remove(props, ALI, "api-base-url");
        QueryChannels.remove(props, ALI, "merchant-private-key");
        ChannelRegistry r = QueryChannels.registry(props);

        WechatV2Keys v2 = r.channel(V2).orElseThrow().keys(WechatV2Keys.class);
        assertFalse(v2.queryEnabled());
        assertFalse(r.channel(V2).orElseThrow().keys().queryEnabled(), "the record overrides ChannelKeys' default");
        assertEquals("https://api.mch.weixin.qq.com", v2.apiBaseUrl());
        AlipayKeys ali = r.channel(ALI).orElseThrow().keys(AlipayKeys.class);
        assertFalse(ali.queryEnabled());
        assertEquals("https://openapi.alipay.com/gateway.do", ali.gatewayUrl());
        assertNull(ali.appPrivateKey());
    }

    @Test
    void aWechatBaseUrlLosesItsTrailingSlashAndKeepsItsPath() {
        var props = QueryChannels.v2("http://127.0.0.1:8081/wechat/", "MD5");
        props.putAll(QueryChannels.v3("https://api.mch.weixin.qq.com/"));
        assertEquals(
                "http://127.0.0.1:8081/wechat",
                keys(props, V2, WechatV2Keys.class).apiBaseUrl());
        assertEquals(
                "https://api.mch.weixin.qq.com",
                keys(props, V3, WechatV3Keys.class).apiBaseUrl());

        var ali = QueryChannels.alipay("http://127.0.0.1:8082/gateway.do");
        assertEquals(
                "http://127.0.0.1:8082/gateway.do",
                keys(ali, ALI, AlipayKeys.class).gatewayUrl());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "api.mch.weixin.qq.com",
                "/pay",
                "ftp://api.example/",
                "https://",
                "https://user:secret-pw@api.example",
                "https://api.example/?a=b",
                "https://api.example/#f",
                "https://bad host/"
            })
    void anApiBaseUrlThatIsNotAnAbsoluteHttpUrlStopsTheStart(String url) {
        for (Map<String, String> props :
                new Map[] {QueryChannels.v2(url, "MD5"), QueryChannels.v3(url), QueryChannels.alipay(url)}) {
            String msg = failure(props);
            assertTrue(msg.contains(".api-base-url must be"), msg);
            assertTrue(msg.startsWith("paynotify.channels.\""), msg);
            assertFalse(msg.contains("secret-pw"), msg);
        }
    }

    @Test
    void aBadBaseUrlStopsTheStartEvenWithQueryOff() {
        var props = QueryChannels.v2("not a url", "MD5");
        props.put(key(V2, "query-enabled"), "false");
        assertEquals(key(V2, "api-base-url") + " must be an absolute http or https URL", failure(props));
    }

    // ------------------------------------------------------------------ WeChat v2

    @Test
    void aV2QueryNeedsOnlyItsApiKey() {
        WechatV2Keys k = keys(QueryChannels.v2("http://127.0.0.1:1", "MD5,HMAC-SHA256"), V2, WechatV2Keys.class);
        assertTrue(k.queryEnabled());
        assertFalse(k.toString().contains(QueryChannels.V2_KEY));
    }

    // ------------------------------------------------------------------ WeChat v3

    @Test
    void aV3QueryNeedsTheMerchantKeyAndSerial() {
        var props = QueryChannels.v3("http://127.0.0.1:1");
        WechatV3Keys k = keys(props, V3, WechatV3Keys.class);
        assertTrue(k.queryEnabled());
        assertNotNull(k.merchantPrivateKey());
        assertEquals(QueryChannels.V3_MERCHANT_SERIAL, k.merchantSerial());
        String privateBase64 = TestKeys.privateBase64(TestKeys.WECHAT_V3_MERCHANT);
        assertFalse(k.toString().contains(privateBase64.substring(40, 80)));
        assertFalse(k.toString().contains(QueryChannels.V3_API_V3_KEY));

        QueryChannels.remove(props, V3, "merchant-private-key");
        assertEquals(key(V3, "merchant-private-key") + " is required when query-enabled is true", failure(props));

        props = QueryChannels.v3("http://127.0.0.1:1");
        QueryChannels.remove(props, V3, "merchant-serial");
        assertEquals(key(V3, "merchant-serial") + " is required when query-enabled is true", failure(props));

        // with the query off, neither is needed
        props.put(key(V3, "query-enabled"), "false");
        QueryChannels.remove(props, V3, "merchant-private-key");
        assertFalse(keys(props, V3, WechatV3Keys.class).queryEnabled());
    }

    @Test
    void theMerchantKeyMayBeBareBase64() {
        var props = QueryChannels.v3("http://127.0.0.1:1");
        props.put(key(V3, "merchant-private-key"), TestKeys.privateBase64(TestKeys.WECHAT_V3_MERCHANT));
        assertEquals(
                TestKeys.pair(TestKeys.WECHAT_V3_MERCHANT).getPrivate(),
                keys(props, V3, WechatV3Keys.class).merchantPrivateKey());
    }

    @Test
    void aMerchantKeyThatIsNoPkcs8RsaKeyOfAtLeast2048BitsStopsTheStart() throws Exception {
        var props = QueryChannels.v3("http://127.0.0.1:1");
        props.put(key(V3, "merchant-private-key"), "c2VjcmV0LWtleS1ieXRlcw==");
        String msg = failure(props);
        assertTrue(msg.startsWith(key(V3, "merchant-private-key") + " is not"), msg);
        assertFalse(msg.contains("c2VjcmV0"), msg);

        String pkcs1 = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----\n";
        props.put(key(V3, "merchant-private-key"), pkcs1);
        assertTrue(failure(props).contains("is a PKCS#1 key"));

        // a public key is not a private key
        props.put(key(V3, "merchant-private-key"), TestKeys.publicPem(TestKeys.WECHAT_V3_MERCHANT));
        assertTrue(failure(props).contains("merchant-private-key is not an RSA private key"));

        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(1024);
        props.put(
                key(V3, "merchant-private-key"),
                Base64.getEncoder()
                        .encodeToString(g.generateKeyPair().getPrivate().getEncoded()));
        assertEquals(key(V3, "merchant-private-key") + " is an RSA key shorter than 2048 bits", failure(props));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab\"cd", "SERIAL WITH SPACE", "序列号"})
    void aMerchantSerialMustBeLettersAndDigits(String serial) {
        var props = QueryChannels.v3("http://127.0.0.1:1");
        props.put(key(V3, "merchant-serial"), serial);
        String msg = failure(props);
        assertTrue(msg.startsWith(key(V3, "merchant-serial") + " must be"), msg);
        assertFalse(msg.contains(serial), msg);
    }

    @Test
    void theWechatpaySerialIsThePublicKeyIdWhenThereIsOne() {
        var props = QueryChannels.v3("http://127.0.0.1:1");
        assertEquals(
                QueryChannels.V3_PUBKEY_ID, keys(props, V3, WechatV3Keys.class).querySerial());

        // several public keys (a rotation): the lexicographically first, whatever the order of the configuration
        props.put(
                key(V3, "platform-keys.\"PUB_KEY_ID_0000000000000024101100397200000005\""),
                TestKeys.publicBase64(TestKeys.STRANGER));
        assertEquals(
                "PUB_KEY_ID_0000000000000024101100397200000005",
                keys(props, V3, WechatV3Keys.class).querySerial());
    }

    @Test
    void theWechatpaySerialOfAChannelWithOnePlatformKeyIsThatKeysSerial() {
        var props = QueryChannels.v3("http://127.0.0.1:1");
        QueryChannels.remove(props, V3, "platform-keys.\"" + QueryChannels.V3_PUBKEY_ID + "\"");
        assertEquals(
                QueryChannels.V3_CERT_SERIAL,
                keys(props, V3, WechatV3Keys.class).querySerial());
    }

    @Test
    void theWechatpaySerialAmongCertificatesIsTheOneThatExpiresLast() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        var props = QueryChannels.v3("http://127.0.0.1:1");
        QueryChannels.remove(props, V3, "platform-keys.\"" + QueryChannels.V3_CERT_SERIAL + "\"");
        QueryChannels.remove(props, V3, "platform-keys.\"" + QueryChannels.V3_PUBKEY_ID + "\"");
        props.put(
                key(V3, "platform-keys.\"1111\""),
                TestCertificates.pem(
                        TestKeys.pair(TestKeys.WECHAT_V3_CERT),
                        "old",
                        now.minus(900, ChronoUnit.DAYS),
                        now.plus(30, ChronoUnit.DAYS)));
        props.put(
                key(V3, "platform-keys.\"2222\""),
                TestCertificates.pem(TestKeys.pair(TestKeys.STRANGER), "new", now, now.plus(1800, ChronoUnit.DAYS)));
        props.put(
                key(V3, "platform-keys.\"3333\""),
                TestCertificates.pem(
                        TestKeys.pair(TestKeys.ALIPAY_NEXT), "middle", now, now.plus(900, ChronoUnit.DAYS)));
        assertEquals("2222", keys(props, V3, WechatV3Keys.class).querySerial());
    }

    @Test
    void severalPlatformKeysWithABareKeyAndNoPublicKeyIdStopAQueryEnabledStart() {
        Instant now = Instant.now();
        var props = QueryChannels.v3("http://127.0.0.1:1");
        QueryChannels.remove(props, V3, "platform-keys.\"" + QueryChannels.V3_PUBKEY_ID + "\"");
        props.put(
                key(V3, "platform-keys.\"" + QueryChannels.V3_CERT_SERIAL + "\""),
                TestCertificates.pem(
                        TestKeys.pair(TestKeys.WECHAT_V3_CERT), "cert", now, now.plus(30, ChronoUnit.DAYS)));
        props.put(key(V3, "platform-keys.\"ABCD\""), TestKeys.publicPem(TestKeys.STRANGER));
        String msg = failure(props);
        assertTrue(msg.startsWith(key(V3, "platform-keys") + " has several keys"), msg);
        assertTrue(msg.contains("PUB_KEY_ID_"), msg);

        // the same keys are fine for notifications only
        props.put(key(V3, "query-enabled"), "false");
        assertNull(keys(props, V3, WechatV3Keys.class).querySerial());
    }

    // ------------------------------------------------------------------ Alipay

    @Test
    void anAlipayQueryNeedsTheAppPrivateKey() {
        var props = QueryChannels.alipay("http://127.0.0.1:1");
        AlipayKeys k = keys(props, ALI, AlipayKeys.class);
        assertTrue(k.queryEnabled());
        assertEquals(TestKeys.pair(TestKeys.ALIPAY_APP).getPrivate(), k.appPrivateKey());
        assertFalse(k.toString()
                .contains(TestKeys.privateBase64(TestKeys.ALIPAY_APP).substring(40, 80)));

        props.put(key(ALI, "merchant-private-key"), TestKeys.privatePem(TestKeys.ALIPAY_APP));
        assertEquals(
                TestKeys.pair(TestKeys.ALIPAY_APP).getPrivate(),
                keys(props, ALI, AlipayKeys.class).appPrivateKey());

        QueryChannels.remove(props, ALI, "merchant-private-key");
        assertEquals(key(ALI, "merchant-private-key") + " is required when query-enabled is true", failure(props));
    }

    @Test
    void anAlipayChannelWithACertificateKeyButNoRootAndAppCertCannotBeQueried() {
        Instant now = Instant.now();
        String certificate =
                TestCertificates.pem(TestKeys.pair(TestKeys.ALIPAY), "alipay", now, now.plus(365, ChronoUnit.DAYS));
        var props = QueryChannels.alipay("http://127.0.0.1:1");
        props.put(key(ALI, "alipay-public-key"), TestKeys.publicBase64(TestKeys.ALIPAY_NEXT) + "," + certificate);
        String msg = failure(props);
        assertTrue(msg.startsWith(key(ALI, "query-enabled") + " cannot be true"), msg);
        assertTrue(msg.contains("alipay-root-cert and app-cert are not set"), msg);

        // notifications verify with a certificate's key as before
        props.put(key(ALI, "query-enabled"), "false");
        assertEquals(2, keys(props, ALI, AlipayKeys.class).publicKeys().size());
    }

    // ------------------------------------------------------------------ KeyParsing

    @Test
    void keyParsingTellsACertificateFromABareKey() {
        Instant notAfter = Instant.parse("2031-01-02T03:04:05Z");
        String pem = TestCertificates.pem(TestKeys.pair(TestKeys.STRANGER), "x", Instant.EPOCH, notAfter);
        KeyParsing.PublicKeyInfo cert = KeyParsing.rsaPublicKeyInfo(pem);
        assertTrue(cert.certificate());
        assertEquals(notAfter, cert.notAfter());
        assertEquals(TestKeys.pair(TestKeys.STRANGER).getPublic(), cert.key());

        // the bare base64 of a certificate is still a certificate
        String bare = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s+", "");
        assertEquals(notAfter, KeyParsing.rsaPublicKeyInfo(bare).notAfter());

        assertFalse(KeyParsing.rsaPublicKeyInfo(TestKeys.publicPem(TestKeys.STRANGER))
                .certificate());
        assertFalse(KeyParsing.rsaPublicKeyInfo(TestKeys.publicBase64(TestKeys.STRANGER))
                .certificate());
    }
}
