package io.paynotify.simulator.sign;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * WeChat Pay API v2 (WeChat Pay v2 documentation, "安全规范"): the {@code sign} of a field map is MD5, or HMAC-SHA256
 * keyed with the API key, over every non-empty field but {@code sign} ({@code sign_type} included), sorted by name,
 * joined {@code k=v&...}, then {@code &key=<API key>}; uppercase hex. Messages are flat {@code <xml>} documents with
 * the values in CDATA. A refund notice carries no {@code sign} but {@code req_info}: AES-256-ECB with PKCS#7 padding,
 * the key being the 32 ASCII characters of the lowercase hex MD5 of the API key, base64.
 */
public final class WechatV2Signer {

    public static final String MD5 = "MD5";
    public static final String HMAC_SHA256 = "HMAC-SHA256";

    /** Fields WeChat writes as bare numbers in its samples; {@link #xml(String, Map, Set)} takes them. */
    public static final Set<String> NUMERIC = Set.of("total_fee", "cash_fee", "settlement_total_fee", "coupon_fee");

    private WechatV2Signer() {}

    /** Whether {@code signType} (null or empty meaning MD5, WeChat's default) is one WeChat knows. */
    public static boolean known(String signType) {
        return signType == null || signType.isEmpty() || MD5.equals(signType) || HMAC_SHA256.equals(signType);
    }

    /** The signed string without the key: the non-empty fields but {@code sign}, sorted by name, {@code k=v&...}. */
    public static String content(Map<String, String> fields) {
        StringBuilder s = new StringBuilder(256);
        new TreeMap<>(fields).forEach((name, value) -> {
            if (!"sign".equals(name) && value != null && !value.isEmpty()) {
                s.append(s.length() == 0 ? "" : "&").append(name).append('=').append(value);
            }
        });
        return s.toString();
    }

    /** The exact bytes the signature is computed over: {@link #content} then {@code &key=<apiKey>}, UTF-8. */
    public static byte[] signedBytes(Map<String, String> fields, String apiKey) {
        return (content(fields) + "&key=" + apiKey).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The {@code sign} of {@code fields} (whatever {@code sign} they carry is left out).
     *
     * @param signType {@link #MD5} or {@link #HMAC_SHA256}; null or empty means MD5, WeChat's default
     * @throws IllegalArgumentException for any other sign type
     */
    public static String sign(Map<String, String> fields, String signType, String apiKey) {
        byte[] message = signedBytes(fields, apiKey);
        try {
            byte[] digest;
            if (HMAC_SHA256.equals(signType)) {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(apiKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                digest = mac.doFinal(message);
            } else if (signType == null || signType.isEmpty() || MD5.equals(signType)) {
                digest = MessageDigest.getInstance("MD5").digest(message);
            } else {
                throw new IllegalArgumentException("the v2 sign type is MD5 or HMAC-SHA256, not " + signType);
            }
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks MD5 or HmacSHA256: " + e.getMessage(), e);
        }
    }

    /** Constant-time check of the {@code sign} that {@code fields} carry (hex case ignored); false when absent. */
    public static boolean matches(Map<String, String> fields, String signType, String apiKey) {
        String received = fields.get("sign");
        if (received == null || received.isEmpty() || !known(signType)) {
            return false;
        }
        byte[] expected = sign(fields, signType, apiKey).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, received.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    /** The {@code <xml>} body with every value in CDATA, in the map's order. */
    public static String xml(Map<String, String> fields) {
        return xml("xml", fields, Set.of());
    }

    /**
     * A flat document {@code <root><name>value</name>...</root>} in the map's order: the {@code bare} fields as they
     * are, every other value in CDATA ({@code ]]>} inside a value split across two sections, as an XML writer does).
     */
    public static String xml(String root, Map<String, String> fields, Set<String> bare) {
        StringBuilder x = new StringBuilder(768).append('<').append(root).append('>');
        fields.forEach((name, value) -> {
            x.append('<').append(name).append('>');
            if (bare.contains(name)) {
                x.append(value);
            } else {
                x.append("<![CDATA[").append(value.replace("]]>", "]]]]><![CDATA[>")).append("]]>");
            }
            x.append("</").append(name).append('>');
        });
        return x.append("</").append(root).append('>').toString();
    }

    /** The AES key of {@code req_info}: the lowercase hex MD5 of the API key's UTF-8 bytes (32 characters). */
    public static String reqInfoKey(String apiKey) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("MD5").digest(apiKey.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks MD5: " + e.getMessage(), e);
        }
    }

    /** {@code req_info} of a refund notice: {@code plaintext} (the {@code <root>} document) encrypted, base64. */
    public static String encryptReqInfo(String apiKey, byte[] plaintext) {
        try {
            Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding");
            byte[] key = reqInfoKey(apiKey).getBytes(StandardCharsets.US_ASCII);
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            return Base64.getEncoder().encodeToString(c.doFinal(plaintext));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks AES/ECB/PKCS5Padding: " + e.getMessage(), e);
        }
    }
}
