package io.paynotify.provider;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Base64;

/** What the providers' query requests share: random nonces and SHA256withRSA signatures with a merchant key. */
public final class QuerySigning {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private QuerySigning() {}

    /** Random letters and digits (a WeChat {@code nonce_str}: 32 characters in the SDKs). */
    public static String nonce(int length) {
        var sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(ALNUM.charAt(RANDOM.nextInt(ALNUM.length())));
        }
        return sb.toString();
    }

    /** Base64 of the SHA256withRSA (PKCS#1 v1.5) signature of the bytes (WeChat v3 and Alipay RSA2 alike). */
    public static String sha256WithRsa(PrivateKey key, byte[] message) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key);
            s.update(message);
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            // an RSA key of at least 2048 bits was checked at start: this cannot happen with the JDK's providers
            throw new IllegalStateException("SHA256withRSA signing failed", e);
        }
    }
}
