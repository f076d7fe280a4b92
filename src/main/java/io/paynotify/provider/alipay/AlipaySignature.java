package io.paynotify.provider.alipay;

import java.nio.charset.Charset;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Alipay's V1 notification signature (Alipay's documented signing rules, {@code AlipaySignature.getSignCheckContentV1}): every
 * decoded parameter but {@code sign} and {@code sign_type}, empty values dropped, sorted by name, joined
 * {@code k=v&...}, as bytes in the notification's charset; RSA2 = SHA256withRSA, RSA = SHA1withRSA (PKCS#1 v1.5).
 * A request's content is the same but keeps {@code sign_type} (Alipay's request signing rules).
 */
public final class AlipaySignature {

    private AlipaySignature() {}

    /** The signed content of a notification: every parameter but {@code sign} and {@code sign_type}. */
    public static String content(Map<String, String> params) {
        return content(params, true);
    }

    /**
     * The signed content of a request to the gateway (docs/api.md "Active query"; the SDK's {@code getSignatureContent}): every
     * parameter but {@code sign}, {@code sign_type} included.
     */
    public static String requestContent(Map<String, String> params) {
        return content(params, false);
    }

    private static String content(Map<String, String> params, boolean withoutSignType) {
        // a sorted array of the names instead of a TreeMap copy: same order (String.compareTo), less work
        String[] names = new String[params.size()];
        int n = 0;
        int length = 0;
        for (Map.Entry<String, String> e : params.entrySet()) {
            String k = e.getKey();
            String v = e.getValue();
            if (!"sign".equals(k) && !(withoutSignType && "sign_type".equals(k)) && v != null && !v.isEmpty()) {
                names[n++] = k;
                length += k.length() + v.length() + 2;
            }
        }
        Arrays.sort(names, 0, n);
        var sb = new StringBuilder(length);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append('&');
            }
            sb.append(names[i]).append('=').append(params.get(names[i]));
        }
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

    /**
     * One Signature object per thread and algorithm: {@code Signature.getInstance} walks the provider list on every
     * call (JFR, bench/ issue 6), and a Signature is reusable after {@code initVerify}.
     */
    private static final ThreadLocal<Signature> SHA256 = ThreadLocal.withInitial(() -> newSignature("SHA256withRSA"));

    private static final ThreadLocal<Signature> SHA1 = ThreadLocal.withInitial(() -> newSignature("SHA1withRSA"));

    private static Signature verifier(String algorithm) throws GeneralSecurityException {
        return switch (algorithm) {
            case "SHA256withRSA" -> SHA256.get();
            case "SHA1withRSA" -> SHA1.get();
            default -> Signature.getInstance(algorithm);
        };
    }

    private static Signature newSignature(String algorithm) {
        try {
            return Signature.getInstance(algorithm);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks " + algorithm, e);
        }
    }

    /** True when {@code sign} (base64) verifies over the content with any of the keys. */
    static boolean verify(String content, Charset charset, String sign, String algorithm, List<PublicKey> keys) {
        return verify(content.getBytes(charset), sign, algorithm, keys);
    }

    /**
     * True when {@code sign} (base64) verifies over the content's bytes with any of the keys. Each attempt starts
     * with {@code initVerify}, which resets the per-thread Signature whatever an earlier attempt left in it (an
     * exception between update and verify included).
     */
    static boolean verify(byte[] message, String sign, String algorithm, List<PublicKey> keys) {
        byte[] signature;
        try {
            // strict base64; only line breaks are tolerated (some gateways fold long values). A lenient decoder
            // that skips any other character would let one notice be replayed under many different bodies.
            signature = Base64.getDecoder()
                    .decode(
                            sign.indexOf('\n') < 0
                                    ? sign
                                    : sign.replace("\r", "").replace("\n", ""));
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (PublicKey key : keys) {
            try {
                Signature verifier = verifier(algorithm);
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
