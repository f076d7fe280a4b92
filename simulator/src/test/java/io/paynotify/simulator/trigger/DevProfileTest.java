package io.paynotify.simulator.trigger;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    private static java.math.BigInteger modulus(String publicKey) {
        return ((RSAPublicKey) Pem.publicKey(publicKey)).getModulus();
    }
}
