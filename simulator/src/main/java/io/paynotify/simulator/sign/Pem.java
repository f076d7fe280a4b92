package io.paynotify.simulator.sign;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * RSA keys from PEM text or bare base64 (as Alipay's key tool shows them): PKCS#8 private keys ({@code PRIVATE KEY}),
 * X.509 SubjectPublicKeyInfo public keys ({@code PUBLIC KEY}). Errors never quote the text: it may be a secret.
 */
public final class Pem {

    private Pem() {}

    public static PrivateKey privateKey(String text) {
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der(text)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an RSA private key in PKCS#8 (PEM 'PRIVATE KEY' or bare base64)");
        }
    }

    public static PublicKey publicKey(String text) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der(text)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an RSA public key (PEM 'PUBLIC KEY' or bare base64)");
        }
    }

    private static byte[] der(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no key");
        }
        String base64 = text.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(base64);
    }
}
