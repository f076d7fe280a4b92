package io.paynotify.provider.wechatv2;

import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Decrypts a v2 refund notice's {@code req_info} (PROTOCOLS.md §1.8): base64, then AES-256-ECB with PKCS#7
 * padding, the key being the 32 ASCII characters of the lowercase hex MD5 of the API key. Decrypting is the
 * notice's only authentication; any failure is 401.
 */
final class WechatV2RefundDecryptor {

    /** A req_info larger than the body limit cannot arrive; this bounds the work anyway. */
    private static final int MAX_REQ_INFO = 60 * 1024;

    private WechatV2RefundDecryptor() {}

    static byte[] decrypt(String reqInfo, List<byte[]> apiKeys) throws NotifyRejection {
        if (reqInfo.length() > MAX_REQ_INFO) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        byte[] cipherText;
        try {
            cipherText = Base64.getMimeDecoder().decode(reqInfo);
        } catch (IllegalArgumentException e) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        if (cipherText.length == 0 || cipherText.length % 16 != 0) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        for (byte[] apiKey : apiKeys) {
            try {
                Cipher cipher = Cipher.getInstance("AES/ECB/PKCS5Padding");
                cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(aesKey(apiKey), "AES"));
                return cipher.doFinal(cipherText);
            } catch (GeneralSecurityException e) {
                // wrong key (bad padding): try the next one in a rotation
            }
        }
        throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
    }

    /** key* = lowercase hex MD5 of the API key, used as 32 ASCII bytes. */
    static byte[] aesKey(byte[] apiKey) throws GeneralSecurityException {
        String hex = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(apiKey));
        return hex.getBytes(StandardCharsets.US_ASCII);
    }
}
