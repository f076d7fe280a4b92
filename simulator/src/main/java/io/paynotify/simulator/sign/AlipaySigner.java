package io.paynotify.simulator.sign;

import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Alipay (Alipay open platform, "自行实现验签" and "自行实现签名"): an asynchronous notification is signed over every
 * parameter but {@code sign} and {@code sign_type}, empty values dropped, sorted by name and joined {@code k=v&...}
 * with the decoded values ({@code rsaCheckV1}'s content), in the notification's {@code charset} (UTF-8, or GBK, also
 * when absent); RSA2 is SHA256withRSA, RSA is SHA1withRSA, base64. The body is a form, percent-encoded in that
 * charset. A request to the gateway is signed the same way over every parameter but {@code sign}; a query answer
 * over the exact text of its response object, UTF-8.
 */
public final class AlipaySigner {

    public static final String RSA2 = "RSA2";
    public static final String RSA = "RSA";

    private AlipaySigner() {}

    /** The signed content of a notification: every non-empty parameter but {@code sign} and {@code sign_type}. */
    public static String content(Map<String, String> params) {
        return content(params, true);
    }

    /** The signed content of a request to the gateway: every non-empty parameter but {@code sign}. */
    public static String requestContent(Map<String, String> params) {
        return content(params, false);
    }

    private static String content(Map<String, String> params, boolean withoutSignType) {
        StringBuilder s = new StringBuilder(1024);
        new TreeMap<>(params).forEach((name, value) -> {
            if (!"sign".equals(name)
                    && !(withoutSignType && "sign_type".equals(name))
                    && value != null
                    && !value.isEmpty()) {
                s.append(s.length() == 0 ? "" : "&").append(name).append('=').append(value);
            }
        });
        return s.toString();
    }

    /**
     * The JCA algorithm of a sign type.
     *
     * @throws IllegalArgumentException for anything but {@link #RSA2} and {@link #RSA}
     */
    public static String algorithm(String signType) {
        if (RSA2.equals(signType)) {
            return "SHA256withRSA";
        }
        if (RSA.equals(signType)) {
            return "SHA1withRSA";
        }
        throw new IllegalArgumentException("the Alipay sign type is RSA2 or RSA, not " + signType);
    }

    /** The charset a notification's {@code charset} names: UTF-8 for {@code utf-8} (any case), else GBK. */
    public static Charset charsetOf(Map<String, String> params) {
        String charset = params.get("charset");
        return charset != null && charset.toLowerCase(Locale.ROOT).startsWith("utf")
                ? StandardCharsets.UTF_8
                : Charset.forName("GBK");
    }

    /** Base64 of the {@code signType} signature of {@code content}'s bytes in {@code charset}. */
    public static String sign(String content, Charset charset, PrivateKey key, String signType) {
        try {
            Signature s = Signature.getInstance(algorithm(signType));
            s.initSign(key);
            s.update(content.getBytes(charset));
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with " + signType + ": " + e.getMessage(), e);
        }
    }

    /** False for a signature that is absent, not base64, of an unknown type or does not verify with {@code key}. */
    public static boolean verify(String content, Charset charset, String signBase64, PublicKey key, String signType) {
        if (signBase64 == null || signBase64.isEmpty() || !(RSA2.equals(signType) || RSA.equals(signType))) {
            return false;
        }
        try {
            Signature s = Signature.getInstance(algorithm(signType));
            s.initVerify(key);
            s.update(content.getBytes(charset));
            return s.verify(Base64.getDecoder().decode(signBase64));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * The notification's parameters signed: a copy of {@code params} with {@code sign_type} set (in place when
     * present, else added) and {@code sign} added last, over {@link #content} in {@link #charsetOf} the params.
     */
    public static Map<String, String> signed(Map<String, String> params, PrivateKey key, String signType) {
        Map<String, String> p = new LinkedHashMap<>(params);
        p.remove("sign");
        p.put("sign_type", signType);
        p.put("sign", sign(content(p), charsetOf(p), key, signType));
        return p;
    }

    /** A query answer's {@code sign}: RSA2 over the exact text of the response object, UTF-8. */
    public static String signAnswer(String responseText, PrivateKey key) {
        return sign(responseText, StandardCharsets.UTF_8, key, RSA2);
    }

    /** The form body in the map's order, names and values percent-encoded in {@link #charsetOf} the params. */
    public static byte[] formBody(Map<String, String> params) {
        Charset charset = charsetOf(params);
        StringBuilder form = new StringBuilder(1536);
        params.forEach((name, value) -> form.append(form.length() == 0 ? "" : "&")
                .append(URLEncoder.encode(name, charset))
                .append('=')
                .append(URLEncoder.encode(value, charset)));
        return form.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
