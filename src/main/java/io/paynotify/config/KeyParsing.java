package io.paynotify.config;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;

/**
 * Reads RSA keys from what merchants download: a PEM certificate, a PEM public key, or the bare base64 of either
 * (Alipay's console shows a bare X.509 SubjectPublicKeyInfo); and a private key as PEM PKCS#8 or its bare base64
 * (WeChat Pay's {@code apiclient_key.pem}, the app private key of Alipay's key tool). Keys shorter than 2048 bits are
 * refused. Failures throw {@link IllegalArgumentException} with a message that never contains the input.
 */
public final class KeyParsing {

    /** The shortest RSA modulus accepted (docs/operations.md "Configuration"). */
    public static final int MIN_RSA_BITS = 2048;

    private KeyParsing() {}

    /**
     * A public key as configured: the key, and where it came from a certificate, that certificate's end of validity.
     *
     * @param notAfter the certificate's notAfter, or null for a bare public key
     */
    public record PublicKeyInfo(PublicKey key, Instant notAfter) {

        /** True when the key was given as an X.509 certificate. */
        public boolean certificate() {
            return notAfter != null;
        }
    }

    public static PublicKey rsaPublicKey(String text) {
        return rsaPublicKeyInfo(text).key();
    }

    /** As {@link #rsaPublicKey}, telling a certificate (and its notAfter) from a bare key. */
    public static PublicKeyInfo rsaPublicKeyInfo(String text) {
        String trimmed = nonEmpty(text);
        boolean certificate = trimmed.contains("BEGIN CERTIFICATE");
        byte[] der = der(trimmed);
        PublicKeyInfo info = certificate ? fromCertificate(der) : fromSpkiOrCertificate(der);
        if (!(info.key() instanceof RSAPublicKey rsa)) {
            throw new IllegalArgumentException("is not an RSA key");
        }
        checkLength(rsa.getModulus().bitLength());
        return info;
    }

    /**
     * An RSA private key in PKCS#8, as PEM ({@code -----BEGIN PRIVATE KEY-----}) or bare base64. A PKCS#1 PEM
     * ({@code BEGIN RSA PRIVATE KEY}) or an encrypted key is refused with a message saying so.
     */
    public static PrivateKey rsaPrivateKey(String text) {
        String trimmed = nonEmpty(text);
        if (trimmed.contains("BEGIN RSA PRIVATE KEY")) {
            throw new IllegalArgumentException("is a PKCS#1 key: convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)");
        }
        if (trimmed.contains("BEGIN ENCRYPTED PRIVATE KEY")) {
            throw new IllegalArgumentException("is an encrypted key: give the unencrypted PKCS#8 key");
        }
        PrivateKey key;
        try {
            key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der(trimmed)));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("is not an RSA private key in PKCS#8");
        }
        if (!(key instanceof RSAPrivateKey rsa)) {
            throw new IllegalArgumentException("is not an RSA private key in PKCS#8");
        }
        checkLength(rsa.getModulus().bitLength());
        return key;
    }

    private static String nonEmpty(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("is empty");
        }
        return text.strip();
    }

    /** The DER bytes under any PEM armour; line breaks and spaces in the base64 are ignored. */
    private static byte[] der(String trimmed) {
        String base64 = trimmed.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s+", "");
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not PEM or base64");
        }
    }

    private static void checkLength(int bits) {
        if (bits < MIN_RSA_BITS) {
            throw new IllegalArgumentException("is an RSA key shorter than " + MIN_RSA_BITS + " bits");
        }
    }

    private static PublicKeyInfo fromSpkiOrCertificate(byte[] der) {
        try {
            return new PublicKeyInfo(KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der)), null);
        } catch (GeneralSecurityException e) {
            return fromCertificate(der);
        }
    }

    private static PublicKeyInfo fromCertificate(byte[] der) {
        try {
            X509Certificate certificate = (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
            return new PublicKeyInfo(
                    certificate.getPublicKey(), certificate.getNotAfter().toInstant());
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("is neither a public key nor a certificate");
        }
    }
}
