package io.paynotify.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestCertificates;
import io.paynotify.testing.TestKeys;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link PublishedSecrets} knows every key and secret this repository ships (docs/operations.md "Start-up checks"):
 * read from {@code simulator/keys/} and the {@code %dev.} lines of application.properties, so that a key added
 * there without its fingerprint fails here.
 */
@Tag("unit")
class PublishedSecretsTest {

    @Test
    void everyFileOfSimulatorKeysIsAKnownKey() {
        var keys = new ArrayList<String>();
        var certificates = new ArrayList<String>();
        for (Path file : ShippedSecrets.keyFiles()) {
            String name = file.getFileName().toString();
            if (name.equals("README.md")) {
                continue;
            }
            String text = ShippedSecrets.keyFile(name);
            if (name.endsWith(".crt")) {
                // certificate mode's chain files and root bundle: one of their certificates holds a published key
                assertTrue(text.contains("BEGIN CERTIFICATE"), name);
                assertTrue(PublishedSecrets.rsaKey(text), name + ": no certificate of it is in PublishedSecrets");
                certificates.add(name);
                continue;
            }
            assertNotNull(PublishedSecrets.modulus(text), name + " is an RSA key (PEM, public or PKCS#8 private)");
            assertTrue(PublishedSecrets.rsaKey(text), name + " is missing from PublishedSecrets.RSA_MODULI");
            assertTrue(
                    PublishedSecrets.rsaKey(ShippedSecrets.bareBase64(text)),
                    name + " spelled as bare base64 is recognised too");
            keys.add(name);
        }
        assertEquals(20, keys.size(), "ten key pairs, both halves: " + keys);
        assertEquals(4, certificates.size(), "the certificate-mode files: " + certificates);
    }

    @Test
    void everyCertificateOfTheCertificateModeFilesIsKnown() {
        // the leaf alone, the intermediate after it, and the leaf after the intermediate: whatever the file order
        String chain = ShippedSecrets.keyFile("alipay-cert-dev-alipay.crt");
        int second = chain.indexOf("-----BEGIN CERTIFICATE-----", 1);
        String leaf = chain.substring(0, second);
        String intermediate = chain.substring(second);
        assertTrue(PublishedSecrets.rsaKey(leaf));
        assertTrue(PublishedSecrets.rsaKey(intermediate + "\n" + leaf), "the leaf second");
        assertFalse(PublishedSecrets.rsaKey(intermediate), "the intermediate's key is nobody's secret");
        String roots = ShippedSecrets.keyFile("alipay-cert-dev-root.crt");
        assertTrue(PublishedSecrets.rsaKey(roots), "the dev RSA root is refused as a trust anchor");
        assertTrue(PublishedSecrets.rsaKey(ShippedSecrets.keyFile("alipay-cert-dev-app.crt")));
        assertTrue(PublishedSecrets.rsaKey(ShippedSecrets.keyFile("alipay-cert-dev-alipay-reissued.crt")));
    }

    @Test
    void everySecretOfTheDevProfileIsKnown() {
        Map<String, String> dev = ShippedSecrets.devPaynotify();
        int secrets = 0;
        for (Map.Entry<String, String> e : dev.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            ShippedSecrets.Kind kind = ShippedSecrets.kind(key);
            assertNotNull(kind, key + ": classify it in ShippedSecrets (a secret, or not one)");
            switch (kind) {
                case TEXT -> {
                    for (String entry : value.split(",")) {
                        assertTrue(PublishedSecrets.text(entry), key + " is missing from PublishedSecrets.SECRETS");
                    }
                }
                case WEBHOOK -> {
                    assertTrue(PublishedSecrets.text(value), key + " (its text) is missing from PublishedSecrets");
                    byte[] decoded = Base64.getDecoder().decode(value.substring("whsec_".length()));
                    assertTrue(
                            PublishedSecrets.bytes(decoded), key + " (its HMAC key) is missing from PublishedSecrets");
                }
                case RSA -> assertTrue(PublishedSecrets.rsaKey(value), key + " is missing from PublishedSecrets");
                case NOT_SECRET -> {
                    continue;
                }
            }
            secrets++;
        }
        // wx-dev api-key, wx3-dev api-v3-key, platform key and merchant key, ali-dev public and private key,
        // dev-shop secret and webhook secret, the admin token (9); wx-sp-dev api-key, wx3-sp-dev api-v3-key,
        // platform key and merchant key (4); ali-isv-dev public and private key and two app-auth-tokens (4);
        // ali-cert-dev alipay-public-key, app-cert, alipay-root-cert and private key (4)
        assertEquals(21, secrets, "the dev profile's secrets: " + dev.keySet());
    }

    @Test
    void aPublishedKeyIsRecognisedHoweverItIsSpelled() {
        String pem = ShippedSecrets.keyFile("wechatpay-v3-dev-platform-public.pem");
        String certificate = TestCertificates.pem(
                ShippedSecrets.pair("wechatpay-v3-dev-platform"),
                "dev platform",
                Instant.parse("2025-01-01T00:00:00Z"),
                Instant.parse("2035-01-01T00:00:00Z"));
        for (String spelling : new String[] {
            pem, ShippedSecrets.bareBase64(pem), pem.replace("\n", "\r\n"), "  " + pem + "  ", certificate
        }) {
            assertTrue(PublishedSecrets.rsaKey(spelling), spelling);
        }
        assertTrue(PublishedSecrets.text("  " + ShippedSecrets.dev("paynotify.admin.tokens") + " "));
    }

    @Test
    void otherKeysAndSecretsAreNotPublished() {
        assertFalse(PublishedSecrets.rsaKey(TestKeys.publicPem(TestKeys.STRANGER)));
        assertFalse(PublishedSecrets.rsaKey(TestKeys.privatePem(TestKeys.STRANGER)));
        assertFalse(PublishedSecrets.rsaKey("not a key"));
        assertFalse(PublishedSecrets.text("0123456789abcdef0123456789abcdef"));
        String devKey = ShippedSecrets.dev("paynotify.channels.wx-dev.api-key");
        assertFalse(PublishedSecrets.text(devKey.substring(1) + "x"), "one character off is another key");
    }
}
