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
}
