package io.paynotify.simulator.sign;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A test PKI for Alipay's public-key-certificate mode (公钥证书模式), shaped like the files Alipay's open platform
 * hands out: {@code alipayRootCert.crt} (an RSA root and a non-RSA one, which {@code alipay_root_cert_sn} leaves
 * out), {@code appCertPublicKey_<app_id>.crt} and {@code alipayCertPublicKey_RSA2.crt} (each the entity certificate
 * followed by the intermediate that issued it). Also a re-issued Alipay certificate (the same key, a new serial, as
 * Alipay re-issues on expiry) and a chain with the same Alipay key under a foreign root, which must never be trusted.
 *
 * @param roots the root bundle, in file order: the RSA root, then the EC root
 * @param intermediate the intermediate CA under the RSA root that issued both entity certificates
 * @param app the app's certificate (its key is the app key, whose private half signs requests)
 * @param alipay Alipay's certificate (its key verifies notifications and answers)
 * @param reissued Alipay's certificate re-issued with the same key and a new serial, same intermediate
 * @param foreignIntermediate an intermediate under a root that is not in {@code roots}
 * @param foreign the Alipay key certified by {@code foreignIntermediate}
 */
public record AlipayPki(
        List<X509Certificate> roots,
        X509Certificate intermediate,
        X509Certificate app,
        X509Certificate alipay,
        X509Certificate reissued,
        X509Certificate foreignIntermediate,
        X509Certificate foreign) {

    public static final String ROOT_DN = "CN=Sim Ant Financial Certification Authority R1,OU=Certification Authority,"
            + "O=Sim Ant Financial,C=CN";
    public static final String ROOT_EC_DN = "CN=Sim Ant Financial Certification Authority E1,"
            + "OU=Certification Authority,O=Sim Ant Financial,C=CN";
    public static final String INTERMEDIATE_DN = "CN=Sim Ant Financial Certification Authority Class 2 R1,"
            + "OU=Certification Authority,O=Sim Ant Financial,C=CN";
    public static final String FOREIGN_ROOT_DN = "CN=Somebody Else Root,O=Somebody Else,C=CN";
    public static final String FOREIGN_INTERMEDIATE_DN = "CN=Somebody Else Class 2,O=Somebody Else,C=CN";

    /**
     * A PKI valid from an hour before {@code now} for {@code years}.
     *
     * @param appId the app's {@code app_id}, the app certificate's CN
     */
    public static AlipayPki issue(String appId, PublicKey appKey, PublicKey alipayKey, Instant now, int years) {
        Instant from = now.minus(Duration.ofHours(1));
        Instant to = now.plus(Duration.ofDays(365L * years));
        return issue(appId, appKey, alipayKey, from, to, from, to);
    }

    /**
     * A PKI whose CAs are valid from {@code from} to {@code to} and whose Alipay certificate is valid from
     * {@code alipayFrom} to {@code alipayTo} (in the past, for an expired one).
     */
    public static AlipayPki issue(
            String appId,
            PublicKey appKey,
            PublicKey alipayKey,
            Instant from,
            Instant to,
            Instant alipayFrom,
            Instant alipayTo) {
        KeyPair root = rsa();
        KeyPair rootEc = ec();
        KeyPair intermediate = rsa();
        KeyPair foreignRoot = rsa();
        KeyPair foreignIntermediate = rsa();
        X509Certificate rootCert =
                CertIssuer.issue(ROOT_DN, root.getPublic(), ROOT_DN, root.getPrivate(), serial(), from, to, true);
        X509Certificate rootEcCert = CertIssuer.issue(
                ROOT_EC_DN, rootEc.getPublic(), ROOT_EC_DN, rootEc.getPrivate(), serial(), from, to, true);
        X509Certificate intermediateCert = CertIssuer.issue(
                INTERMEDIATE_DN, intermediate.getPublic(), ROOT_DN, root.getPrivate(), serial(), from, to, true);
        X509Certificate appCert = CertIssuer.issue(
                "CN=" + appId + ",OU=Alipay Open Platform,O=Sim Merchant Co Ltd,C=CN",
                appKey,
                INTERMEDIATE_DN,
                intermediate.getPrivate(),
                serial(),
                from,
                to,
                false);
        String alipayDn = "CN=Sim Alipay (China) Network Technology Co Ltd-" + appId + ",OU=Alipay Open Platform,"
                + "O=Sim Alipay (China) Network Technology Co Ltd,C=CN";
        X509Certificate alipayCert = CertIssuer.issue(
                alipayDn, alipayKey, INTERMEDIATE_DN, intermediate.getPrivate(), serial(), alipayFrom, alipayTo, false);
        X509Certificate reissued = CertIssuer.issue(
                alipayDn, alipayKey, INTERMEDIATE_DN, intermediate.getPrivate(), serial(), from, to, false);
        X509Certificate foreignRootCert = CertIssuer.issue(
                FOREIGN_ROOT_DN,
                foreignRoot.getPublic(),
                FOREIGN_ROOT_DN,
                foreignRoot.getPrivate(),
                serial(),
                from,
                to,
                true);
        X509Certificate foreignIntermediateCert = CertIssuer.issue(
                FOREIGN_INTERMEDIATE_DN,
                foreignIntermediate.getPublic(),
                FOREIGN_ROOT_DN,
                foreignRoot.getPrivate(),
                serial(),
                from,
                to,
                true);
        // foreignRootCert is thrown away on purpose: only its intermediate and leaf ever reach paynotify
        assert foreignRootCert != null;
        X509Certificate foreignCert = CertIssuer.issue(
                alipayDn, alipayKey, FOREIGN_INTERMEDIATE_DN, foreignIntermediate.getPrivate(), serial(), from, to,
                false);
        return new AlipayPki(
                List.of(rootCert, rootEcCert),
                intermediateCert,
                appCert,
                alipayCert,
                reissued,
                foreignIntermediateCert,
                foreignCert);
    }

    /** {@code alipayRootCert.crt}: the RSA root, then the EC root. */
    public String rootPem() {
        return CertIssuer.pem(roots);
    }

    /** {@code appCertPublicKey_<app_id>.crt}: the app certificate, then its intermediate. */
    public String appPem() {
        return CertIssuer.pem(List.of(app, intermediate));
    }

    /** {@code alipayCertPublicKey_RSA2.crt}: Alipay's certificate, then its intermediate. */
    public String alipayPem() {
        return CertIssuer.pem(List.of(alipay, intermediate));
    }

    /** The re-issued Alipay certificate as one PEM certificate (what {@code alipaycert.download} returns). */
    public String reissuedPem() {
        return CertIssuer.pem(List.of(reissued));
    }

    /** The foreign-root Alipay certificate as one PEM certificate. */
    public String foreignPem() {
        return CertIssuer.pem(List.of(foreign));
    }

    /** The foreign chain file: the foreign Alipay certificate, then its intermediate. */
    public String foreignChainPem() {
        return CertIssuer.pem(List.of(foreign, foreignIntermediate));
    }

    /**
     * A certificate's SN as Alipay's SDK computes it ({@code AntCertificationUtil.getCertSN}): MD5 over the issuer's
     * RFC 2253 name followed by the decimal serial, lowercase hex padded to 32 digits.
     */
    public static String sn(X509Certificate c) {
        try {
            byte[] md5 = java.security.MessageDigest.getInstance("MD5")
                    .digest((c.getIssuerX500Principal().getName() + c.getSerialNumber())
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            String hex = new BigInteger(1, md5).toString(16);
            return "0".repeat(32 - hex.length()) + hex;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no MD5", e);
        }
    }

    /** {@code alipay_root_cert_sn}: the SNs of the RSA-signed roots, in file order, joined with {@code _}. */
    public String rootSn() {
        var out = new StringBuilder();
        for (X509Certificate c : roots) {
            if (c.getSigAlgOID().startsWith("1.2.840.113549.1.1")) {
                out.append(out.length() == 0 ? "" : "_").append(sn(c));
            }
        }
        return out.toString();
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private static BigInteger serial() {
        // positive, up to 127 bits, sometimes with a leading zero byte in DER
        return new BigInteger(127, RANDOM).setBit(0);
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no RSA", e);
        }
    }

    private static KeyPair ec() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no EC", e);
        }
    }
}
