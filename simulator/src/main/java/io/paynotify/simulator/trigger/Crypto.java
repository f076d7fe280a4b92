package io.paynotify.simulator.trigger;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** The JDK primitives the providers' formats are built from; a failure here is a bug, so it is unchecked. */
final class Crypto {

    private Crypto() {}

    static byte[] md5(byte[] data) {
        try {
            return MessageDigest.getInstance("MD5").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] hmacSha256(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SHA256withRSA (PKCS#1 v1.5), base64: WeChat v3 and Alipay RSA2. */
    static String sha256WithRsa(PrivateKey key, byte[] data) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key);
            s.update(data);
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** AEAD_AES_256_GCM as WeChat v3 uses it: base64 of ciphertext and 16-byte tag; nonce and AAD as UTF-8. */
    static String aesGcm(String key, String nonce, String associatedData, byte[] plaintext) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(
                    Cipher.ENCRYPT_MODE,
                    new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "AES"),
                    new GCMParameterSpec(128, nonce.getBytes(StandardCharsets.UTF_8)));
            c.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(c.doFinal(plaintext));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * WeChat v2 {@code req_info}: AES-256-ECB with PKCS#7 padding, the key being the 32 ASCII characters of the
     * lowercase hex MD5 of the API key; base64.
     */
    static String reqInfo(String apiKey, byte[] plaintext) {
        try {
            String aesKey = HexFormat.of().formatHex(md5(apiKey.getBytes(StandardCharsets.UTF_8)));
            Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey.getBytes(StandardCharsets.US_ASCII), "AES"));
            return Base64.getEncoder().encodeToString(c.doFinal(plaintext));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
