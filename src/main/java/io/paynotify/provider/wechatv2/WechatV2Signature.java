package io.paynotify.provider.wechatv2;

import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The v2 signature (WeChat Pay v2 signing rules): every present, non-empty field but {@code sign}, {@code sign_type}
 * included, sorted by name in ASCII order, joined {@code k=v&...}, then {@code &key=<API key>}; MD5 or
 * HMAC-SHA256 (keyed with the API key, over the same string), uppercase hex. The type comes from {@code sign_type}
 * or, when absent, from the sign's length, and must be one the channel allows: no downgrade. The sign is compared
 * as decoded bytes in constant time.
 */
public final class WechatV2Signature {

    public static final String MD5 = "MD5";
    public static final String HMAC_SHA256 = "HMAC-SHA256";

    private WechatV2Signature() {}

    /** Verifies {@code fields} against any of the channel's API keys (several during a rotation). */
    static void verify(Map<String, String> fields, WechatV2Keys keys) throws NotifyRejection {
        String sign = fields.get("sign");
        if (sign == null || sign.isEmpty()) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        String declared = fields.get("sign_type");
        String type;
        if (declared != null) {
            type = declared;
        } else if (sign.length() == 32) {
            type = MD5;
        } else if (sign.length() == 64) {
            type = HMAC_SHA256;
        } else {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        if (!(MD5.equals(type) || HMAC_SHA256.equals(type)) || !keys.signTypes().contains(type)) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        byte[] received = Hex.decode(sign);
        if (received == null || received.length != (MD5.equals(type) ? 16 : 32)) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        String content = content(fields);
        boolean ok = false;
        for (byte[] key : keys.apiKeys()) {
            // every key is tried, so the time taken does not say which one matched
            ok |= MessageDigest.isEqual(sign(type, content, key), received);
        }
        if (!ok) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
    }

    /** The string that is signed, without the {@code &key=} suffix. */
    public static String content(Map<String, String> fields) {
        var sorted = new TreeMap<String, String>();
        fields.forEach((k, v) -> {
            if (!"sign".equals(k) && v != null && !v.isEmpty()) {
                sorted.put(k, v);
            }
        });
        var sb = new StringBuilder(256);
        sorted.forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(k).append('=').append(v);
        });
        return sb.toString();
    }

    /** The raw signature bytes of {@code content + "&key=" + key} (uppercase hex of these is the sign). */
    public static byte[] sign(String type, String content, byte[] key) {
        byte[] message = (content + "&key=" + new String(key, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        try {
            if (MD5.equals(type)) {
                return MessageDigest.getInstance("MD5").digest(message);
            }
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks " + type, e);
        }
    }
}
