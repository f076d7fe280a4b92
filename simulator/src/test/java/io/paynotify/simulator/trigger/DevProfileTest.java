package io.paynotify.simulator.trigger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.paynotify.simulator.sign.Pem;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The simulator's dev table agrees with the {@code %dev.} lines of paynotify's application.properties: the ids and
 * shared secrets are the same, and the simulator's private keys are the halves of the public keys paynotify holds.
 */
class DevProfileTest {

    private static final Path SERVICE_PROPERTIES = Path.of("..", "src", "main", "resources", "application.properties");

    private static Properties service() throws IOException {
        assumeTrue(Files.isRegularFile(SERVICE_PROPERTIES), "run inside the paynotify repository");
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(SERVICE_PROPERTIES, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        return p;
    }

    private static String dev(Properties p, String key) {
        return p.getProperty("%dev.paynotify." + key);
    }

    @Test
    void idsAndSharedSecretsMatch() throws IOException {
        Properties p = service();
        assertEquals(dev(p, "channels.wx-dev.app-id"), TestKeys.WX.appId());
        assertEquals(dev(p, "channels.wx-dev.mch-id"), TestKeys.WX.mchId());
        assertEquals(dev(p, "channels.wx-dev.api-key"), TestKeys.WX.apiKey());
        assertEquals(dev(p, "channels.wx3-dev.app-id"), TestKeys.WX3.appId());
        assertEquals(dev(p, "channels.wx3-dev.mch-id"), TestKeys.WX3.mchId());
        assertEquals(dev(p, "channels.wx3-dev.api-v3-key"), TestKeys.WX3.apiV3Key());
        assertEquals(dev(p, "channels.ali-dev.app-id"), TestKeys.ALI.appId());
        assertEquals(dev(p, "clients.dev-shop.secret"), DevProfile.CLIENT_SECRET);
        assertEquals(dev(p, "clients.dev-shop.webhook-secret"), DevProfile.WEBHOOK_SECRET);
        assertEquals(dev(p, "admin.tokens"), DevProfile.ADMIN_TOKEN);
        assertEquals(
                dev(p, "clients.dev-shop.webhook-url"), "http://127.0.0.1:" + DevProfile.WEBHOOK_PORT + "/webhooks");
    }

    @Test
    void theSimulatorsPrivateKeysPairWithTheServicesPublicKeys() throws IOException {
        Properties p = service();
        String v3 = dev(p, "channels.wx3-dev.platform-keys.\"" + TestKeys.WX3.platformSerial() + "\"");
        assertEquals(modulus(v3), ((RSAPrivateCrtKey) TestKeys.WX3.platformKey()).getModulus());
        String ali = dev(p, "channels.ali-dev.alipay-public-key");
        assertEquals(modulus(ali), ((RSAPrivateCrtKey) TestKeys.ALI.alipayKey()).getModulus());
    }

    @Test
    void theAccountModeChannelsMatch() throws IOException {
        Properties p = service();
        for (String name : DevProfile.MODE_CHANNELS) {
            Channel c = TestKeys.DEV.channel(name).orElseThrow();
            assertEquals(dev(p, "channels." + name + ".app-id"), c.appId(), name);
            assertEquals(
                    c.mode() == Channel.Mode.DIRECT ? null : c.mode().name().toLowerCase(java.util.Locale.ROOT),
                    dev(p, "channels." + name + ".mode"),
                    name);
            assertEquals(dev(p, "channels." + name + ".alipay-root-cert") != null, c.certificateMode(), name);
            assertTrue(dev(p, "clients.dev-shop.channels").contains(name), "dev-shop may use " + name);
        }
        Channel wxSp = TestKeys.DEV.channel("wx-sp-dev").orElseThrow();
        assertEquals(dev(p, "channels.wx-sp-dev.mch-id"), wxSp.mchId());
        assertEquals(dev(p, "channels.wx-sp-dev.api-key"), wxSp.apiKey());
        Channel wx3Sp = TestKeys.DEV.channel("wx3-sp-dev").orElseThrow();
        assertEquals(dev(p, "channels.wx3-sp-dev.mch-id"), wx3Sp.mchId());
        assertEquals(dev(p, "channels.wx3-sp-dev.api-v3-key"), wx3Sp.apiV3Key());
        String platform = dev(p, "channels.wx3-sp-dev.platform-keys.\"" + wx3Sp.platformSerial() + "\"");
        assertEquals(modulus(platform), ((RSAPrivateCrtKey) wx3Sp.platformKey()).getModulus());
        // the ISV's merchants are the ones with an app_auth_token
        for (String merchant : DevProfile.ALI_ISV_MERCHANTS) {
            assertTrue(dev(p, "channels.ali-isv-dev.app-auth-tokens.\"" + merchant + "\"") != null, merchant);
        }
        Channel isv = TestKeys.DEV.channel("ali-isv-dev").orElseThrow();
        assertEquals(
                modulus(dev(p, "channels.ali-isv-dev.alipay-public-key")),
                ((RSAPrivateCrtKey) isv.alipayKey()).getModulus());
        // certificate mode: the simulator's key is the one inside the leaf of alipay-public-key
        Channel cert = TestKeys.DEV.channel("ali-cert-dev").orElseThrow();
        String chain = dev(p, "channels.ali-cert-dev.alipay-public-key");
        assertEquals(DevKeys.pem("alipay-cert-dev-alipay.crt").strip(), chain.strip(), "the committed chain file");
        assertEquals(modulus(chain), ((RSAPrivateCrtKey) cert.alipayKey()).getModulus());
        assertEquals(DevKeys.pem("alipay-cert-dev-app.crt").strip(), dev(p, "channels.ali-cert-dev.app-cert").strip());
        assertEquals(
                DevKeys.pem("alipay-cert-dev-root.crt").strip(),
                dev(p, "channels.ali-cert-dev.alipay-root-cert").strip());
    }

    /** The modulus of a public key, or of the first certificate of a PEM file. */
    private static java.math.BigInteger modulus(String publicKey) {
        if (publicKey.contains("BEGIN CERTIFICATE")) {
            try {
                var cert = java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(new java.io.ByteArrayInputStream(
                                publicKey.getBytes(StandardCharsets.US_ASCII)));
                return ((RSAPublicKey) cert.getPublicKey()).getModulus();
            } catch (java.security.cert.CertificateException e) {
                throw new AssertionError(e);
            }
        }
        return ((RSAPublicKey) Pem.publicKey(publicKey)).getModulus();
    }
}
