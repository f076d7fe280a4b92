package io.paynotify.provider.wechatv3;

import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Decrypts a v3 {@code resource} (WeChat Pay v3 decryption rules): AEAD_AES_256_GCM only, keyed with the 32 bytes of the API v3
 * key; the nonce and {@code associated_data} enter as their UTF-8 bytes (not base64), an absent
 * {@code associated_data} as empty; the ciphertext is base64 of ciphertext ‖ 16-byte tag. Every failure (bad
 * base64, a wrong key, a changed byte anywhere, a wrong nonce or associated data) is the same 401.
 */
final class WechatV3Decryptor {

    private static final ThreadLocal<Cipher> AES_GCM = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks AES/GCM", e);
        }
    });

    /** The only algorithm accepted; the SM4 variant and anything else are refused (an allow-list, never a lookup). */
    static final String ALGORITHM = "AEAD_AES_256_GCM";

    static final int KEY_BYTES = 32;
    static final int TAG_BITS = 128;
    /** WeChat's nonces are 12 characters; anything far longer is not theirs. */
    static final int MAX_NONCE_BYTES = 64;

    private WechatV3Decryptor() {}

    /**
     * @param associatedData the {@code associated_data} text, null when absent
     * @return the plaintext bytes
     * @throws NotifyRejection 401 when the resource does not decrypt and authenticate with this key
     */
    static byte[] decrypt(byte[] apiV3Key, String nonce, String associatedData, String ciphertext)
            throws NotifyRejection {
        if (ciphertext == null) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        // what Base64.Decoder.decode(String) does with its argument
        byte[] base64 = ciphertext.getBytes(StandardCharsets.ISO_8859_1);
        return decrypt(apiV3Key, nonce, associatedData, base64, 0, base64.length);
    }

    /**
     * As {@link #decrypt(byte[], String, String, String)}, with the base64 ciphertext given as ASCII bytes in place
     * (the envelope's own bytes: no String of it is made).
     */
    static byte[] decrypt(byte[] apiV3Key, String nonce, String associatedData, byte[] base64, int from, int length)
            throws NotifyRejection {
        if (apiV3Key == null || apiV3Key.length != KEY_BYTES || nonce == null) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        byte[] iv = nonce.getBytes(StandardCharsets.UTF_8);
        if (iv.length == 0 || iv.length > MAX_NONCE_BYTES) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        byte[] sealed;
        try {
            sealed = Base64.getDecoder()
                    .decode(
                            from == 0 && length == base64.length
                                    ? base64
                                    : java.util.Arrays.copyOfRange(base64, from, from + length));
        } catch (IllegalArgumentException e) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        if (sealed.length <= TAG_BITS / 8) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        byte[] aad = associatedData == null ? new byte[0] : associatedData.getBytes(StandardCharsets.UTF_8);
        try {
            // reused per thread: each decryption re-initialises it with its own key and nonce (GCM forbids nonce
            // reuse only when encrypting)
            Cipher cipher = AES_GCM.get();
            cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(apiV3Key, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(aad);
            return cipher.doFinal(sealed);
        } catch (GeneralSecurityException e) {
            // AEADBadTagException for a changed byte; the cause stays unsaid in the answer
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
    }
}
