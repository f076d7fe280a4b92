package io.paynotify.events;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks v1 signatures (docs/api.md "Verifying a delivery"): {@code v1,} + base64 of HMAC-SHA256, keyed with the decoded bytes
 * of a {@code whsec_} secret, over {@code webhook-id + "." + webhook-timestamp + "." + body}; during a rotation one
 * signature per secret, space-separated. Signatures and secrets never reach a log.
 */
public final class WebhookSignature {

    private WebhookSignature() {}

    /** The {@code webhook-signature} header value for these secrets. */
    public static String header(String id, long timestamp, byte[] body, List<byte[]> secrets) {
        var sb = new StringBuilder();
        for (byte[] secret : secrets) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append("v1,").append(Base64.getEncoder().encodeToString(sign(id, timestamp, body, secret)));
        }
        return sb.toString();
    }

    /** The raw HMAC-SHA256 of {@code id.timestamp.body}. */
    static byte[] sign(String id, long timestamp, byte[] body, byte[] secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks HmacSHA256", e);
        }
    }
}
