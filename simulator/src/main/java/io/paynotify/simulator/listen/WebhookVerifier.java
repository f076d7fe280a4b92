package io.paynotify.simulator.listen;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies Standard Webhooks v1 symmetric signatures (spec/standard-webhooks.md of
 * github.com/standard-webhooks/standard-webhooks): HMAC-SHA256 keyed with the base64-decoded part of the secret
 * after {@code whsec_}, over {@code webhook-id + "." + webhook-timestamp + "." + body}; {@code webhook-signature}
 * holds space-separated {@code version,base64} entries, of which one {@code v1} entry must match (compared in
 * constant time); {@code webhook-timestamp} must lie within 5 minutes of now, either direction.
 */
public final class WebhookVerifier {

    /** The tolerance of the reference libraries. */
    public static final long TOLERANCE_SECONDS = 5 * 60;

    private static final String PREFIX = "whsec_";

    /** Why a delivery is or is not verified. */
    public enum Result {
        VERIFIED,
        MISSING_HEADER,
        BAD_TIMESTAMP,
        STALE,
        BAD_SIGNATURE;

        public boolean ok() {
            return this == VERIFIED;
        }
    }

    private final byte[] key;
    private final Clock clock;

    /**
     * @param secret {@code whsec_} + base64 (a bare base64 secret is accepted too, as the reference libraries do)
     * @throws IllegalArgumentException when the secret is not base64 or is empty
     */
    public WebhookVerifier(String secret, Clock clock) {
        String encoded = secret.startsWith(PREFIX) ? secret.substring(PREFIX.length()) : secret;
        this.key = Base64.getDecoder().decode(encoded);
        if (key.length == 0) {
            throw new IllegalArgumentException("the webhook secret is empty");
        }
        this.clock = clock;
    }

    /** Checks one delivery; null headers count as missing. */
    public Result verify(String id, String timestamp, String signatures, byte[] body) {
        if (id == null || timestamp == null || signatures == null || id.isEmpty()) {
            return Result.MISSING_HEADER;
        }
        if (!timestamp.matches("[0-9]{1,12}")) {
            return Result.BAD_TIMESTAMP;
        }
        long skew = Math.abs(clock.instant().getEpochSecond() - Long.parseLong(timestamp));
        if (skew > TOLERANCE_SECONDS) {
            return Result.STALE;
        }
        byte[] expected = sign(id, timestamp, body);
        boolean match = false;
        for (String entry : signatures.split(" ")) {
            int comma = entry.indexOf(',');
            if (comma < 0 || !entry.substring(0, comma).equals("v1")) {
                continue; // another scheme (v1a) or garbage: not ours to check
            }
            byte[] given;
            try {
                given = Base64.getDecoder().decode(entry.substring(comma + 1));
            } catch (IllegalArgumentException e) {
                continue;
            }
            match |= MessageDigest.isEqual(given, expected);
        }
        return match ? Result.VERIFIED : Result.BAD_SIGNATURE;
    }

    /** The raw HMAC of one message, for {@code v1,} + base64. */
    byte[] sign(String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
