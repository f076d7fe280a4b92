package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.KeyParsing;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.RawNotify;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The header signature and freshness checks on their own, with a fixed clock. */
@Tag("unit")
class WechatV3VerifierTest {

    static final long NOW = 1_800_000_000L;
    static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);

    final WechatV3Verifier verifier = new WechatV3Verifier(CLOCK);

    /** Both keys of the test channel: a certificate serial and a public-key id, live at once. */
    static Map<String, PublicKey> keys() {
        var keys = new LinkedHashMap<String, PublicKey>();
        keys.put(TestChannels.WX3_CERT_SERIAL, KeyParsing.rsaPublicKey(TestKeys.publicPem(TestKeys.WECHAT_V3_CERT)));
        keys.put(TestChannels.WX3_PUBKEY_ID, KeyParsing.rsaPublicKey(TestKeys.publicBase64(TestKeys.WECHAT_V3_PUBKEY)));
        return keys;
    }

    static Delivery delivery(String keyName, String serial, long timestamp) {
        return WechatV3Fixtures.signed(
                "{\"id\":\"EV-1\",\"summary\":\"支付成功\"}".getBytes(StandardCharsets.UTF_8), keyName, serial, timestamp);
    }

    static Delivery good() {
        return delivery(TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, NOW);
    }

    static RawNotify raw(Delivery d) {
        var headers = new LinkedHashMap<String, List<String>>();
        d.headers()
                .forEach((k, v) -> headers.computeIfAbsent(k.toLowerCase(Locale.ROOT), x -> new ArrayList<>())
                        .add(v));
        return new RawNotify(TestChannels.WX3, headers, d.body(), Instant.ofEpochSecond(NOW));
    }

    void assertRefused(Delivery d) {
        assertRefused(keys(), raw(d));
    }

    void assertRefused(Map<String, PublicKey> keys, RawNotify raw) {
        NotifyRejection r = assertThrows(NotifyRejection.class, () -> verifier.verify(keys, raw));
        assertEquals(401, r.kind().status());
    }

    @Test
    void acceptsBothLiveSerials() {
        assertDoesNotThrow(() -> verifier.verify(keys(), raw(good())));
        assertDoesNotThrow(() ->
                verifier.verify(keys(), raw(delivery(TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_PUBKEY_ID, NOW))));
    }

    @Test
    void signatureTypeHeaderIsOptional() {
        assertDoesNotThrow(() -> verifier.verify(keys(), raw(good().withoutHeader("Wechatpay-Signature-Type"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Wechatpay-Timestamp", "Wechatpay-Nonce", "Wechatpay-Signature", "Wechatpay-Serial"})
    void missingOrEmptyHeaderIsRefused(String header) {
        assertRefused(good().withoutHeader(header));
        assertRefused(good().withHeader(header, ""));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Wechatpay-Timestamp",
                "Wechatpay-Nonce",
                "Wechatpay-Signature",
                "Wechatpay-Serial",
                "Wechatpay-Signature-Type"
            })
    void repeatedHeaderIsRefusedEvenWithTheSameValue(String header) {
        RawNotify raw = raw(good());
        var headers = new LinkedHashMap<>(raw.headers());
        String key = header.toLowerCase(Locale.ROOT);
        headers.put(key, List.of(headers.get(key).get(0), headers.get(key).get(0)));
        assertRefused(keys(), new RawNotify(raw.channel(), headers, raw.body(), raw.receivedAt()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"WECHATPAY2-SM2-WITH-SM3", "wechatpay2-sha256-rsa2048", "WECHATPAY2-SHA256-RSA2048 "})
    void otherSignatureTypesAreRefused(String type) {
        assertRefused(good().withHeader("Wechatpay-Signature-Type", type));
    }

    @Test
    void unknownSerialIsRefused() {
        assertRefused(delivery(TestKeys.STRANGER, "7132D72A03E93CDDF8C03BBD1F37EEDF********".replace('*', '1'), NOW));
        // serials are matched exactly
        assertRefused(good().withHeader("Wechatpay-Serial", TestChannels.WX3_CERT_SERIAL.toLowerCase(Locale.ROOT)));
    }

    @Test
    void keyOfAnotherSerialIsRefused() {
        assertRefused(delivery(TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_CERT_SERIAL, NOW));
        assertRefused(delivery(TestKeys.STRANGER, TestChannels.WX3_PUBKEY_ID, NOW));
    }

    @Test
    void removedSerialIsRefusedWhileTheRemainingOneStillVerifies() {
        // the channel after a rotation: the old certificate serial is gone, the public key id stays
        Map<String, PublicKey> afterRotation =
                Map.of(TestChannels.WX3_PUBKEY_ID, keys().get(TestChannels.WX3_PUBKEY_ID));
        assertRefused(afterRotation, raw(good()));
        assertDoesNotThrow(() -> verifier.verify(
                afterRotation, raw(delivery(TestKeys.WECHAT_V3_PUBKEY, TestChannels.WX3_PUBKEY_ID, NOW))));
    }

    @Test
    void probeSignatureIsRefused() {
        assertRefused(good().withHeader("Wechatpay-Signature", "WECHATPAY/SIGNTEST/" + "A".repeat(300)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not base64!", "QUJD=", "QUJDRA==\n", "%%%%"})
    void badBase64SignatureIsRefused(String signature) {
        assertRefused(good().withHeader("Wechatpay-Signature", signature));
    }

    @Test
    void anyChangedByteOfTheSignedMessageIsRefused() {
        Delivery d = good();
        byte[] body = d.body().clone();
        body[body.length - 2] ^= 1;
        assertRefused(d.withBody(body));
        // a trailing line feed added to the body: the same bytes but one more
        byte[] longer = new byte[d.body().length + 1];
        System.arraycopy(d.body(), 0, longer, 0, d.body().length);
        longer[longer.length - 1] = '\n';
        assertRefused(d.withBody(longer));
        assertRefused(d.withHeader("Wechatpay-Nonce", d.headers().get("Wechatpay-Nonce") + "x"));
        assertRefused(d.withHeader("Wechatpay-Timestamp", Long.toString(NOW - 1)));
        String sig = d.headers().get("Wechatpay-Signature");
        assertRefused(d.withHeader("Wechatpay-Signature", (sig.charAt(0) == 'A' ? "B" : "A") + sig.substring(1)));
    }

    @Test
    void timestampWithin300SecondsEitherWayIsAccepted() {
        for (long ts : new long[] {NOW - 300, NOW - 299, NOW + 299, NOW + 300}) {
            assertDoesNotThrow(
                    () -> verifier.verify(
                            keys(), raw(delivery(TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, ts))),
                    "ts " + (ts - NOW));
        }
    }

    @Test
    void staleOrFutureTimestampIsRefusedAfterTheSignatureHeld() {
        for (long ts : new long[] {NOW - 301, NOW + 301, NOW - 86_400, 0}) {
            NotifyRejection r = assertThrows(
                    NotifyRejection.class,
                    () -> verifier.verify(
                            keys(), raw(delivery(TestKeys.WECHAT_V3_CERT, TestChannels.WX3_CERT_SERIAL, ts))));
            assertEquals(401, r.kind().status());
            assertEquals(NotifyRejection.Cause.STALE, r.rejectionCause(), "ts " + (ts - NOW));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "1800000000.5", " 1800000000", "18000000000000", "1800000000000"})
    void malformedTimestampIsRefused(String ts) {
        // signed as sent, so only the timestamp's shape can be what fails
        byte[] body = good().body();
        String nonce = "n0nce";
        PrivateKey key = TestKeys.pair(TestKeys.WECHAT_V3_CERT).getPrivate();
        Delivery d = good().withHeader("Wechatpay-Timestamp", ts)
                .withHeader("Wechatpay-Nonce", nonce)
                .withHeader("Wechatpay-Signature", WechatV3Fixtures.sign(key, ts, nonce, body));
        assertRefused(d);
    }

    @Test
    void nonceWithALineFeedIsRefusedEvenWhenSigned() {
        // "ts\na\nb\n{...}\n" could otherwise be re-split into another nonce and body under the same signature
        byte[] body = good().body();
        String ts = Long.toString(NOW);
        PrivateKey key = TestKeys.pair(TestKeys.WECHAT_V3_CERT).getPrivate();
        Delivery d = good().withHeader("Wechatpay-Timestamp", ts)
                .withHeader("Wechatpay-Nonce", "a\nb")
                .withHeader("Wechatpay-Signature", WechatV3Fixtures.sign(key, ts, "a\nb", body));
        assertRefused(d);
    }

    /**
     * A platform certificate as the console gives it (PEM, made here by keytool, self-signed) is accepted as a
     * platform key and verifies what its private key signed.
     */
    @Test
    void pemCertificateIsAcceptedAsAPlatformKey(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("platform.p12");
        Path pem = dir.resolve("wechatpay_platform.pem");
        String keytool =
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(
                keytool,
                "-genkeypair",
                "-alias",
                "platform",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-sigalg",
                "SHA256withRSA",
                "-dname",
                "CN=Tenpay.com Root CA, O=Tenpay.com, C=CN",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit");
        run(
                keytool,
                "-exportcert",
                "-rfc",
                "-alias",
                "platform",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-file",
                pem.toString());
        String certificate = Files.readString(pem, StandardCharsets.US_ASCII);
        assertTrue(certificate.contains("-----BEGIN CERTIFICATE-----"));

        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(store.toFile())) {
            ks.load(in, "changeit".toCharArray());
        }
        PrivateKey privateKey = (PrivateKey) ks.getKey("platform", "changeit".toCharArray());
        PublicKey parsed = KeyParsing.rsaPublicKey(certificate);
        assertEquals(ks.getCertificate("platform").getPublicKey(), parsed);

        String serial = "1F2E3D4C5B6A79881F2E3D4C5B6A79881F2E3D4C";
        Map<String, PublicKey> withCertificate = new LinkedHashMap<>(keys());
        withCertificate.put(serial, parsed);
        byte[] body = "{\"id\":\"EV-cert\"}".getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(NOW);
        String nonce = WechatV3Fixtures.random(32);
        var headers = new LinkedHashMap<String, List<String>>();
        headers.put("wechatpay-timestamp", List.of(ts));
        headers.put("wechatpay-nonce", List.of(nonce));
        headers.put("wechatpay-signature", List.of(WechatV3Fixtures.sign(privateKey, ts, nonce, body)));
        headers.put("wechatpay-serial", List.of(serial));
        RawNotify raw = new RawNotify(TestChannels.WX3, headers, body, Instant.ofEpochSecond(NOW));
        assertDoesNotThrow(() -> verifier.verify(withCertificate, raw));
        // the same signature under another serial of the channel does not verify
        var other = new LinkedHashMap<>(headers);
        other.put("wechatpay-serial", List.of(TestChannels.WX3_CERT_SERIAL));
        assertRefused(withCertificate, new RawNotify(TestChannels.WX3, other, body, Instant.ofEpochSecond(NOW)));
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool did not finish");
        assertEquals(0, p.exitValue(), "keytool failed: " + out);
    }
}
