package io.paynotify.simulator.gateway;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * WeChat Pay v2's symmetric signature: the non-empty fields but {@code sign}, sorted by name, {@code k=v} joined with
 * '&', then {@code &key=<api key>}; MD5, or HMAC-SHA256 keyed with the api key; upper-case hex. {@code sign_type} is
 * a field like any other and so is signed when present.
 */
final class WechatV2Sign {

    static final String MD5 = "MD5";
    static final String HMAC_SHA256 = "HMAC-SHA256";

    private WechatV2Sign() {}

    /** Whether {@code signType} (null or empty meaning MD5, WeChat's default) is one WeChat knows. */
    static boolean known(String signType) {
        return signType == null || signType.isEmpty() || MD5.equals(signType) || HMAC_SHA256.equals(signType);
    }

    static String sign(Map<String, String> fields, String signType, String apiKey) {
        StringBuilder content = new StringBuilder();
        new TreeMap<>(fields).forEach((name, value) -> {
            if (!"sign".equals(name) && value != null && !value.isEmpty()) {
                content.append(name).append('=').append(value).append('&');
            }
        });
        content.append("key=").append(apiKey);
        byte[] bytes = content.toString().getBytes(StandardCharsets.UTF_8);
        try {
            byte[] digest;
            if (HMAC_SHA256.equals(signType)) {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(apiKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                digest = mac.doFinal(bytes);
            } else {
                digest = MessageDigest.getInstance("MD5").digest(bytes);
            }
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks MD5 or HmacSHA256: " + e.getMessage(), e);
        }
    }

    /** Constant-time check of a received {@code sign} (hex case ignored). */
    static boolean matches(Map<String, String> fields, String signType, String apiKey) {
        String received = fields.get("sign");
        if (received == null || received.isEmpty()) {
            return false;
        }
        byte[] expected = sign(fields, signType, apiKey).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, received.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }
}
