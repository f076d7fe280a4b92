package io.paynotify.simulator.sign;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * WeChat Pay API v3 (WeChat Pay v3 documentation, "签名生成", "证书和回调报文解密"): a notification's {@code resource} is
 * AEAD_AES_256_GCM under the API v3 key (the resource's nonce and associated data as UTF-8, base64 of ciphertext and
 * 16-byte tag); a notification or a query answer is signed SHA256withRSA by the platform key over
 * {@code timestamp\nnonce\nbody\n}, sent in the {@code Wechatpay-*} headers; a merchant's request is signed the same
 * way over {@code METHOD\nTARGET\ntimestamp\nnonce\nbody\n}.
 */
public final class WechatV3Signer {

    public static final String TIMESTAMP = "Wechatpay-Timestamp";
    public static final String NONCE = "Wechatpay-Nonce";
    public static final String SIGNATURE = "Wechatpay-Signature";
    public static final String SERIAL = "Wechatpay-Serial";
    public static final String SIGNATURE_TYPE = "Wechatpay-Signature-Type";

    /** The one value of {@link #SIGNATURE_TYPE}, and the schema of a request's {@code Authorization}. */
    public static final String SCHEMA = "WECHATPAY2-SHA256-RSA2048";

    /** The {@code algorithm} of an encrypted resource. */
    public static final String ALGORITHM = "AEAD_AES_256_GCM";

    private WechatV3Signer() {}

    /**
     * Base64 of AES-256-GCM({@code plaintext}) followed by its 16-byte tag.
     *
     * @param key the API v3 key's 32 bytes
     * @param nonce the resource's {@code nonce}, its UTF-8 bytes the IV (WeChat's are 12 characters)
     * @param associatedData the resource's {@code associated_data} as UTF-8; null for none
     */
    public static String encrypt(byte[] key, String nonce, String associatedData, byte[] plaintext) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(
                    Cipher.ENCRYPT_MODE,
                    new SecretKeySpec(key, "AES"),
                    new GCMParameterSpec(128, nonce.getBytes(StandardCharsets.UTF_8)));
            if (associatedData != null) {
                c.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            }
            return Base64.getEncoder().encodeToString(c.doFinal(plaintext));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt with AES/GCM: " + e.getMessage(), e);
        }
    }

    /** {@link #encrypt(byte[], String, String, byte[])} with the API v3 key as text (its UTF-8 bytes). */
    public static String encrypt(String apiV3Key, String nonce, String associatedData, byte[] plaintext) {
        return encrypt(apiV3Key.getBytes(StandardCharsets.UTF_8), nonce, associatedData, plaintext);
    }

    /** The bytes a notification or an answer is signed over: {@code timestamp\nnonce\nbody\n}. */
    public static byte[] message(String timestamp, String nonce, byte[] body) {
        byte[] head = (timestamp + "\n" + nonce + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + body.length + 1];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        out[out.length - 1] = '\n';
        return out;
    }

    /** The bytes a merchant's request is signed over: {@code METHOD\nTARGET\ntimestamp\nnonce\nbody\n}. */
    public static byte[] requestMessage(String method, String target, String timestamp, String nonce, String body) {
        return (method + "\n" + target + "\n" + timestamp + "\n" + nonce + "\n" + body + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The {@code Wechatpay-Signature} of {@code body}: base64 SHA256withRSA over {@link #message}. */
    public static String sign(PrivateKey key, String timestamp, String nonce, byte[] body) {
        return sign(key, message(timestamp, nonce, body));
    }

    /** Base64 SHA256withRSA (PKCS#1 v1.5) over {@code message}. */
    public static String sign(PrivateKey key, byte[] message) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key);
            s.update(message);
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with SHA256withRSA: " + e.getMessage(), e);
        }
    }

    /** False for a signature that is absent, not base64 or does not verify with {@code key}. */
    public static boolean verify(PublicKey key, byte[] message, String signatureBase64) {
        if (signatureBase64 == null || signatureBase64.isEmpty()) {
            return false;
        }
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initVerify(key);
            s.update(message);
            return s.verify(Base64.getDecoder().decode(signatureBase64));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * The five {@code Wechatpay-*} headers of a notification, in the order WeChat lists them: timestamp, nonce, the
     * signature of {@code body} by {@code key}, the {@code serial} that names the key, the signature type.
     */
    public static Map<String, String> headers(
            PrivateKey key, String serial, long timestamp, String nonce, byte[] body) {
        String ts = Long.toString(timestamp);
        Map<String, String> h = new LinkedHashMap<>();
        h.put(TIMESTAMP, ts);
        h.put(NONCE, nonce);
        h.put(SIGNATURE, sign(key, ts, nonce, body));
        h.put(SERIAL, serial);
        h.put(SIGNATURE_TYPE, SCHEMA);
        return h;
    }
}
