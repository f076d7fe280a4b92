package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.simulator.sign.AlipayPki;
import io.paynotify.testing.TestKeys;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Chain files, the entity certificate, the chain check and the SNs of Alipay's certificate mode. */
@Tag("unit")
class AlipayCertificatesTest {

    static final AlipayPki PKI = AlipayPki.issue(
            "2021000000000777",
            TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
            TestKeys.pair(TestKeys.ALIPAY).getPublic(),
            Instant.now(),
            5);

    @Test
    void theSnIsMd5OfTheRfc2253IssuerAndTheDecimalSerialPaddedTo32() {
        String sn = AlipayCertificates.sn(PKI.alipay());
        assertEquals(32, sn.length());
        assertTrue(sn.matches("[0-9a-f]{32}"));
        assertEquals(AlipayPki.sn(PKI.alipay()), sn);
    }

    @Test
    void theRootSnJoinsOnlyTheRsaRootsInFileOrder() {
        List<java.security.cert.X509Certificate> roots = AlipayCertificates.read(PKI.rootPem());
        assertEquals(2, roots.size());
        String rootSn = AlipayCertificates.rootSn(roots);
        assertEquals(AlipayCertificates.sn(roots.get(0)), rootSn, "the EC root is left out");
        assertEquals(PKI.rootSn(), rootSn);
    }

    @Test
    void theLeafIsTheCertificateThatIssuedNoneOfTheOthersAndItMustChainToARoot() {
        var chain = AlipayCertificates.read(PKI.alipayPem());
        var leaf = AlipayCertificates.leaf(chain);
        assertEquals(PKI.alipay(), leaf);
        List<java.security.cert.X509Certificate> roots = PKI.roots();
        assertTrue(AlipayCertificates.chainsTo(leaf, List.of(PKI.intermediate()), roots));
        assertFalse(AlipayCertificates.chainsTo(leaf, List.of(), roots), "not without its intermediate");
        assertFalse(AlipayCertificates.chainsTo(PKI.foreign(), List.of(PKI.foreignIntermediate()), roots));
        assertFalse(AlipayCertificates.chainsTo(
                PKI.foreign(), List.of(PKI.foreignIntermediate(), PKI.intermediate()), roots));
    }

    /**
     * The service's SNs equal alipay-sdk-java's for the committed dev certificate files ({@code simulator/keys}, on
     * the test class path as {@code io/paynotify/simulator/devkeys/}): the constants are what
     * {@code AlipaySignature.getCertSN} and {@code AntCertificationUtil.getRootCertSN} compute for the same files in
     * the simulator's {@code AccountModesSdkTest}, which asserts them against the SDK.
     */
    @Test
    void theSnsOfTheDevCertificateFilesAreTheOnesAlipaysSdkComputes() throws java.io.IOException {
        assertEquals(
                "8048a70217ac8c1f6769eae03eb9ea59",
                AlipayCertificates.sn(
                        AlipayCertificates.leaf(AlipayCertificates.read(devFile("alipay-cert-dev-app.crt")))));
        assertEquals(
                "4e89dc8c5a9e6d749324aef6d2da5eba",
                AlipayCertificates.sn(
                        AlipayCertificates.leaf(AlipayCertificates.read(devFile("alipay-cert-dev-alipay.crt")))));
        assertEquals(
                "31151ecd6225d744b1321d44274ead80",
                AlipayCertificates.sn(AlipayCertificates.leaf(
                        AlipayCertificates.read(devFile("alipay-cert-dev-alipay-reissued.crt")))));
        List<java.security.cert.X509Certificate> roots = AlipayCertificates.read(devFile("alipay-cert-dev-root.crt"));
        assertEquals(2, roots.size(), "an RSA and an EC root");
        assertEquals("321e2ee15e1a58d15c04deeb4da521ae", AlipayCertificates.rootSn(roots));
    }

    private static String devFile(String name) throws java.io.IOException {
        try (var in = AlipayCertificatesTest.class
                .getClassLoader()
                .getResourceAsStream("io/paynotify/simulator/devkeys/" + name)) {
            if (in == null) {
                throw new AssertionError("dev certificate not on the test class path: " + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
