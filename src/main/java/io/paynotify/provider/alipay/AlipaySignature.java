package io.paynotify.provider.alipay;

import java.nio.charset.Charset;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Alipay's V1 notification signature (PROTOCOLS.md §3.4, {@code AlipaySignature.getSignCheckContentV1}): every
 * decoded parameter but {@code sign} and {@code sign_type}, empty values dropped, sorted by name, joined
 * {@code k=v&...}, as bytes in the notification's charset; RSA2 = SHA256withRSA, RSA = SHA1withRSA (PKCS#1 v1.5).
 */
public final class AlipaySignature {

    private AlipaySignature() {}

    /** The signed content. */
    public static String content(Map<String, String> params) {
        var sorted = new TreeMap<String, String>();
        params.forEach((k, v) -> {
            if (!"sign".equals(k) && !"sign_type".equals(k) && v != null && !v.isEmpty()) {
                sorted.put(k, v);
            }
        });
        var sb = new StringBuilder(512);
        sorted.forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(k).append('=').append(v);
        });
        return sb.toString();
    }

    /** The JCA algorithm of an Alipay sign_type, or null for any other value. */
    public static String algorithm(String signType) {
        if ("RSA2".equals(signType)) {
            return "SHA256withRSA";
        }
        if ("RSA".equals(signType)) {
            return "SHA1withRSA";
        }
        return null;
    }

    /** True when {@code sign} (base64) verifies over the content with any of the keys. */
    static boolean verify(String content, Charset charset, String sign, String algorithm, List<PublicKey> keys) {
        byte[] signature;
        try {
            signature = Base64.getMimeDecoder().decode(sign);
        } catch (IllegalArgumentException e) {
            return false;
        }
        byte[] message = content.getBytes(charset);
        for (PublicKey key : keys) {
            try {
                Signature verifier = Signature.getInstance(algorithm);
                verifier.initVerify(key);
                verifier.update(message);
                if (verifier.verify(signature)) {
                    return true;
                }
            } catch (GeneralSecurityException e) {
                // a malformed signature for this key: try the next key of a rotation
            }
        }
        return false;
    }
}
