package io.paynotify.provider.alipay;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * The certificate files of Alipay's public-key-certificate mode (公钥证书模式; docs/api.md "Account modes"): reading a
 * PEM chain file, finding its entity certificate, checking a chain's signatures up to a root, and the serial numbers
 * (SN) requests carry, computed exactly as Alipay's SDK does ({@code AntCertificationUtil.getCertSN} and
 * {@code getRootCertSN}): MD5 over the UTF-8 bytes of the issuer's RFC 2253 name followed by the decimal serial,
 * lowercase hex left-padded with {@code 0} to 32 digits; the root SN joins, in file order, the SNs of the roots whose
 * signature algorithm is RSA ({@code 1.2.840.113549.1.1…}) with {@code _}.
 */
final class AlipayCertificates {

    /** The OID prefix of the RSA signature algorithms (PKCS#1). */
    static final String RSA_OID_PREFIX = "1.2.840.113549.1.1";

    private AlipayCertificates() {}

    /** Every certificate of a PEM text, in file order; never empty. */
    static List<X509Certificate> read(String pem) {
        if (pem == null || !pem.contains("BEGIN CERTIFICATE")) {
            throw new IllegalArgumentException("is not PEM certificates");
        }
        try {
            var out = new ArrayList<X509Certificate>();
            for (Certificate c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.strip().getBytes(StandardCharsets.US_ASCII)))) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException("holds no certificate");
            }
            return List.copyOf(out);
        } catch (GeneralSecurityException | RuntimeException e) {
            if (e instanceof IllegalArgumentException i && "holds no certificate".equals(i.getMessage())) {
                throw i;
            }
            throw new IllegalArgumentException("is not PEM certificates");
        }
    }

    /**
     * The entity certificate of a chain file: the one that issued none of the others. A file with no such
     * certificate, or with more than one, is refused.
     */
    static X509Certificate leaf(List<X509Certificate> chain) {
        X509Certificate leaf = null;
        for (X509Certificate c : chain) {
            boolean issuedAnother = false;
            for (X509Certificate other : chain) {
                if (other != c
                        && other.getIssuerX500Principal().equals(c.getSubjectX500Principal())
                        && signedBy(other, c)) {
                    issuedAnother = true;
                    break;
                }
            }
            if (!issuedAnother) {
                if (leaf != null) {
                    throw new IllegalArgumentException(
                            "holds more than one entity certificate (give one chain per value)");
                }
                leaf = c;
            }
        }
        if (leaf == null) {
            throw new IllegalArgumentException("holds no entity certificate");
        }
        return leaf;
    }

    /**
     * True when {@code leaf}'s signature, and those of the intermediates it goes through, verify up to one of the
     * roots (names and signatures only: validity dates are the caller's business).
     */
    static boolean chainsTo(X509Certificate leaf, List<X509Certificate> intermediates, List<X509Certificate> roots) {
        X509Certificate current = leaf;
        // each step uses up one intermediate, so a loop of certificates ends
        for (int step = 0; step <= intermediates.size(); step++) {
            for (X509Certificate root : roots) {
                if (current.getIssuerX500Principal().equals(root.getSubjectX500Principal())
                        && signedBy(current, root)) {
                    return true;
                }
            }
            X509Certificate next = null;
            for (X509Certificate i : intermediates) {
                if (i != current
                        && current.getIssuerX500Principal().equals(i.getSubjectX500Principal())
                        && signedBy(current, i)) {
                    next = i;
                    break;
                }
            }
            if (next == null) {
                return false;
            }
            current = next;
        }
        return false;
    }

    /** True when {@code now} is within the certificate's validity period. */
    static boolean valid(X509Certificate c, Instant now) {
        try {
            c.checkValidity(Date.from(now));
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static boolean signedBy(X509Certificate c, X509Certificate issuer) {
        try {
            c.verify(issuer.getPublicKey());
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** A certificate's SN ({@code AntCertificationUtil.getCertSN}). */
    static String sn(X509Certificate c) {
        return md5Hex(c.getIssuerX500Principal().getName() + c.getSerialNumber());
    }

    /** {@code alipay_root_cert_sn} ({@code AntCertificationUtil.getRootCertSN}): RSA roots only, in file order. */
    static String rootSn(List<X509Certificate> roots) {
        var out = new StringBuilder();
        for (X509Certificate c : roots) {
            if (c.getSigAlgOID().startsWith(RSA_OID_PREFIX)) {
                if (out.length() > 0) {
                    out.append('_');
                }
                out.append(sn(c));
            }
        }
        return out.toString();
    }

    private static String md5Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            String hex = new BigInteger(1, digest).toString(16);
            return "0".repeat(32 - hex.length()) + hex;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks MD5", e);
        }
    }
}
