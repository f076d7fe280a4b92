package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.AlipayPki;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An Alipay app in public-key-certificate mode (公钥证书模式, PROTOCOLS §12): the SNs its requests must carry and
 * the Alipay certificates the gateway answers with, SNs computed as alipay-sdk-java's {@code AntCertificationUtil}
 * does ({@link AlipayPki#sn}).
 *
 * @param appCertSn the {@code app_cert_sn} requests must carry: the SN of the app certificate file's leaf
 * @param rootCertSn the {@code alipay_root_cert_sn} requests must carry: the RSA roots' SNs joined with {@code _}
 * @param alipayCertSn the {@code alipay_cert_sn} of the Alipay certificate that signs answers
 * @param reissuedSn the SN answers name once the certificate is rotated (the same key re-issued), or null
 * @param chainsBySn each Alipay certificate's chain file (PEM) by its leaf's SN, what
 *     {@code alipay.open.app.alipaycert.download} hands out
 */
record AlipayCertMode(
        String appCertSn, String rootCertSn, String alipayCertSn, String reissuedSn, Map<String, String> chainsBySn) {

    private static final String RSA_OID_PREFIX = "1.2.840.113549.1.1";

    AlipayCertMode {
        Objects.requireNonNull(appCertSn, "appCertSn");
        Objects.requireNonNull(rootCertSn, "rootCertSn");
        Objects.requireNonNull(alipayCertSn, "alipayCertSn");
        chainsBySn = Map.copyOf(chainsBySn);
        if (!chainsBySn.containsKey(alipayCertSn) || (reissuedSn != null && !chainsBySn.containsKey(reissuedSn))) {
            throw new IllegalArgumentException("every answering SN needs its certificate");
        }
    }

    /**
     * From the PEM files as Alipay's open platform hands them out: {@code appCertPublicKey_<app_id>.crt},
     * {@code alipayRootCert.crt}, {@code alipayCertPublicKey_RSA2.crt} and, optionally, its re-issue.
     */
    static AlipayCertMode of(String appCertPem, String rootPem, String alipayCertPem, String reissuedPem) {
        String alipaySn = AlipayPki.sn(leaf(certificates(alipayCertPem)));
        Map<String, String> chains = new LinkedHashMap<>();
        chains.put(alipaySn, alipayCertPem);
        String reissuedSn = null;
        if (reissuedPem != null) {
            reissuedSn = AlipayPki.sn(leaf(certificates(reissuedPem)));
            chains.put(reissuedSn, reissuedPem);
        }
        return new AlipayCertMode(
                AlipayPki.sn(leaf(certificates(appCertPem))), rootSn(certificates(rootPem)), alipaySn, reissuedSn, chains);
    }

    /** {@code alipay_root_cert_sn}: the SNs of the RSA-signed certificates, in file order, joined with {@code _}. */
    static String rootSn(List<X509Certificate> roots) {
        StringBuilder out = new StringBuilder();
        for (X509Certificate c : roots) {
            if (c.getSigAlgOID().startsWith(RSA_OID_PREFIX)) {
                out.append(out.length() == 0 ? "" : "_").append(AlipayPki.sn(c));
            }
        }
        return out.toString();
    }

    /** The chain file's entity certificate: the one that issued none of the others. */
    static X509Certificate leaf(List<X509Certificate> chain) {
        for (X509Certificate c : chain) {
            boolean issuedAnother = chain.stream()
                    .anyMatch(o -> o != c && o.getIssuerX500Principal().equals(c.getSubjectX500Principal()));
            if (!issuedAnother) {
                return c;
            }
        }
        throw new IllegalArgumentException("a chain file without a leaf");
    }

    static List<X509Certificate> certificates(String pem) {
        try {
            List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException("no certificate in the PEM text");
            }
            return out;
        } catch (CertificateException e) {
            throw new IllegalArgumentException("unreadable certificate: " + e.getMessage(), e);
        }
    }
}
