package io.paynotify.provider.wechatv2;

import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.SafeXml;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Decrypts a v2 refund notice's {@code req_info} (WeChat Pay v2 refund notice rules; see docs/api.md "Refunds"): base64, then AES-256-ECB with PKCS#7
 * padding, the key being the 32 ASCII characters of the lowercase hex MD5 of the API key. Decrypting is the
 * notice's only authentication; any failure is 401.
 */
final class WechatV2RefundDecryptor {

    /** A req_info larger than the body limit cannot arrive; this bounds the work anyway. */
    private static final int MAX_REQ_INFO = 60 * 1024;

    private WechatV2RefundDecryptor() {}

    /**
     * Decrypts and reads {@code <root>...</root>} with the first key of a rotation whose plaintext is such a
     * document. A wrong key still unpads in about 1 of 256 cases; its garbage must not end the search.
     */
    static Map<String, String> decryptFields(String reqInfo, List<byte[]> apiKeys) throws NotifyRejection {
        byte[] cipherText = cipherText(reqInfo);
        for (byte[] apiKey : apiKeys) {
            byte[] plain = decryptWith(cipherText, apiKey);
            if (plain != null) {
                try {
                    return SafeXml.readFlat(plain, "root");
                } catch (SafeXml.XmlRefused e) {
                    // wrong key that happened to unpad, or no document: try the next key
                }
            }
        }
        throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
    }

    private static byte[] cipherText(String reqInfo) throws NotifyRejection {
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
        return cipherText;
    }

    /** The plaintext, or null when the key does not unpad it. */
    private static byte[] decryptWith(byte[] cipherText, byte[] apiKey) {
        try {
            Cipher cipher = Cipher.getInstance("AES/ECB/PKCS5Padding");
            cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(aesKey(apiKey), "AES"));
            return cipher.doFinal(cipherText);
        } catch (GeneralSecurityException e) {
            return null;
        }
    }

    /** key* = lowercase hex MD5 of the API key, used as 32 ASCII bytes. */
    static byte[] aesKey(byte[] apiKey) throws GeneralSecurityException {
        String hex = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(apiKey));
        return hex.getBytes(StandardCharsets.US_ASCII);
    }
}
