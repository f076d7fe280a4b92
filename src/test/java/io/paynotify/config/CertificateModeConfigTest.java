package io.paynotify.config;

import static io.paynotify.config.ChannelRegistryTest.build;
import static io.paynotify.config.ChannelRegistryTest.failure;
import static io.paynotify.config.ChannelRegistryTest.validV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.simulator.sign.AlipayPki;
import io.paynotify.testing.TestKeys;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The start-time rules of Alipay's public-key-certificate mode (docs/operations.md "Start-up checks"): both
 * certificate keys or neither, only on Alipay channels, every chain verified up to a root (else the start fails
 * naming the key), an expired certificate only warns; every configured certificate is reported for the expiry metric.
 */
@Tag("unit")
class CertificateModeConfigTest {

    static final String APP_ID = "2021000000000777";
    static final Instant NOW = Instant.now();
    static final AlipayPki PKI = AlipayPki.issue(
            APP_ID,
            TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
            TestKeys.pair(TestKeys.ALIPAY).getPublic(),
            NOW,
            5);

    static Map<String, String> certMode() {
        var m = validV2();
        m.put("paynotify.channels.ali-cert.provider", "ALIPAY");
        m.put("paynotify.channels.ali-cert.app-id", APP_ID);
        m.put("paynotify.channels.ali-cert.alipay-public-key", PKI.alipayPem());
        m.put("paynotify.channels.ali-cert.alipay-root-cert", PKI.rootPem());
        m.put("paynotify.channels.ali-cert.app-cert", PKI.appPem());
        return m;
    }

    @Test
    void everyChainVerifiesUpToARootAndEveryCertificateIsReported() {
        Channel c = build(certMode()).channel("ali-cert").orElseThrow();
        Set<String> reported = c.keys().certificates().stream()
                .map(k -> k.key() + ":" + k.sn())
                .collect(Collectors.toSet());
        assertTrue(reported.contains("alipay-public-key:" + AlipayPki.sn(PKI.alipay())), reported.toString());
        assertTrue(reported.contains("app-cert:" + AlipayPki.sn(PKI.app())));
        assertTrue(
                reported.contains("alipay-root-cert:" + AlipayPki.sn(PKI.roots().get(0))));
        assertTrue(
                reported.contains("alipay-root-cert:" + AlipayPki.sn(PKI.roots().get(1))), "the EC root too");
        assertEquals(2 + 2 + 2, c.keys().certificates().size(), "each chain's leaf and intermediate, both roots");
    }

    @Test
    void aChainFromAnotherRootStopsTheStartNamingTheKey() {
        var props = certMode();
        props.put("paynotify.channels.ali-cert.alipay-public-key", PKI.foreignChainPem());
        String msg = failure(props);
        assertTrue(
                msg.contains("\"ali-cert\".alipay-public-key does not verify up to a certificate of alipay-root-cert"),
                msg);
        assertFalse(msg.contains("BEGIN CERTIFICATE"));

        var app = certMode();
        app.put("paynotify.channels.ali-cert.app-cert", PKI.foreignChainPem());
        assertTrue(failure(app).contains("\"ali-cert\".app-cert does not verify"));
    }

    @Test
    void bothCertificateKeysOrNeither() {
        var props = certMode();
        props.remove("paynotify.channels.ali-cert.app-cert");
        assertTrue(failure(props).contains("\"ali-cert\".app-cert is required with alipay-root-cert"));
        var root = certMode();
        root.remove("paynotify.channels.ali-cert.alipay-root-cert");
        assertTrue(failure(root).contains("\"ali-cert\".alipay-root-cert is required with app-cert"));
    }

    @Test
    void certificateKeysAreOnlyForAlipayChannels() {
        var props = validV2();
        props.put("paynotify.channels.wx-main.alipay-root-cert", PKI.rootPem());
        assertTrue(failure(props).contains("\"wx-main\".alipay-root-cert is only for ALIPAY channels"));
    }

    @Test
    void anExpiredCertificateOnlyWarnsAndItsKeyStillLoads() {
        AlipayPki expired = AlipayPki.issue(
                APP_ID,
                TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
                TestKeys.pair(TestKeys.ALIPAY).getPublic(),
                NOW.minus(Duration.ofDays(400)),
                NOW.plus(Duration.ofDays(400)),
                NOW.minus(Duration.ofDays(400)),
                NOW.minus(Duration.ofDays(1)));
        var props = certMode();
        props.put("paynotify.channels.ali-cert.alipay-public-key", expired.alipayPem());
        props.put("paynotify.channels.ali-cert.alipay-root-cert", expired.rootPem());
        props.put("paynotify.channels.ali-cert.app-cert", expired.appPem());
        Channel c = build(props).channel("ali-cert").orElseThrow();
        assertTrue(c.keys().certificates().stream()
                .anyMatch(
                        k -> k.key().equals("alipay-public-key") && k.notAfter().isBefore(NOW)));
    }

    @Test
    void queryEnabledIsAllowedInCertificateMode() {
        var props = certMode();
        props.put("paynotify.channels.ali-cert.query-enabled", "true");
        props.put("paynotify.channels.ali-cert.merchant-private-key", TestKeys.privateBase64(TestKeys.ALIPAY_APP));
        assertTrue(build(props).channel("ali-cert").orElseThrow().keys().queryEnabled());
    }
}
