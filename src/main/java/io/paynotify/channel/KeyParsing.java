package io.paynotify.channel;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Reads an RSA public key from what merchants download: a PEM certificate, a PEM public key, or the bare base64
 * of either (Alipay's console shows a bare X.509 SubjectPublicKeyInfo). Keys shorter than 2048 bits are refused.
 * Failures throw {@link IllegalArgumentException} with a message that never contains the input.
 */
public final class KeyParsing {

    /** The shortest RSA modulus accepted (CONTRACT.md §5). */
    public static final int MIN_RSA_BITS = 2048;

    private KeyParsing() {}

    public static PublicKey rsaPublicKey(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("is empty");
        }
        String trimmed = text.strip();
        boolean certificate = trimmed.contains("BEGIN CERTIFICATE");
        String base64 = trimmed.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s+", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not PEM or base64");
        }
        PublicKey key = certificate ? fromCertificate(der) : fromSpkiOrCertificate(der);
        if (!(key instanceof RSAPublicKey rsa)) {
            throw new IllegalArgumentException("is not an RSA key");
        }
        if (rsa.getModulus().bitLength() < MIN_RSA_BITS) {
            throw new IllegalArgumentException("is an RSA key shorter than " + MIN_RSA_BITS + " bits");
        }
        return key;
    }

    private static PublicKey fromSpkiOrCertificate(byte[] der) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            return fromCertificate(der);
        }
    }

    private static PublicKey fromCertificate(byte[] der) {
        try {
            return CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der))
                    .getPublicKey();
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("is neither a public key nor a certificate");
        }
    }
}
