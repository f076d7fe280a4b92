package io.paynotify.provider.wechatv3;

import io.paynotify.provider.Fields;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.RawNotify;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The v3 header signature (WeChat Pay v3 signing rules), checked on the raw body before any JSON is read: SHA256withRSA
 * (PKCS#1 v1.5) over {@code timestamp\nnonce\nbody\n} with the key that {@code Wechatpay-Serial} names among the
 * channel's platform keys, then {@code |now − Wechatpay-Timestamp| ≤ 300 s} in either direction.
 *
 * <p>Every key is chosen per request by its serial, so platform certificate serials and {@code PUB_KEY_ID_…} ids
 * live side by side: a certificate rotation, or WeChat's gradual move of callbacks from the certificate to the
 * public key, needs no downtime. Freshness is checked after the signature on purpose: a STALE rejection then means
 * "genuine but old or our clock is off" (worth an alarm), never a forgery.
 *
 * <p>The answers to active queries (docs/api.md "Active query") carry the same headers and are checked by the same code, on
 * their headers and body as received.
 */
final class WechatV3Verifier {

    static final String TIMESTAMP = "Wechatpay-Timestamp";
    static final String NONCE = "Wechatpay-Nonce";
    static final String SIGNATURE = "Wechatpay-Signature";
    static final String SERIAL = "Wechatpay-Serial";
    static final String SIGNATURE_TYPE = "Wechatpay-Signature-Type";

    /** The only signature type accepted where the header is sent (the SM2 variant is not supported). */
    static final String RSA_SIGNATURE_TYPE = "WECHATPAY2-SHA256-RSA2048";
    /** WeChat's deliberate bad-signature probes (docs/wechatpay-v3-setup.md "Operational notes"): refused like any other bad signature. */
    static final String PROBE_PREFIX = "WECHATPAY/SIGNTEST/";
    /** The freshness window, both directions (docs/wechatpay-v3-setup.md "How a delivery is checked"). */
    static final long MAX_SKEW_SECONDS = 300;

    /** Unix seconds; twelve digits is far beyond any real time and keeps the arithmetic from overflowing. */
    private static final int MAX_TIMESTAMP_DIGITS = 12;
    /**
     * Visible ASCII only: a nonce with a line feed could move bytes between the nonce and body lines of the signed
     * message while the signature still held.
     */
    private static final int MAX_NONCE_CHARS = 128;
    /** Base64 of a signature made with an RSA key of up to 8192 bits is shorter than this. */
    private static final int MAX_SIGNATURE_CHARS = 1400;

    private final Clock clock;

    WechatV3Verifier(Clock clock) {
        this.clock = clock;
    }

    /**
     * @param platformKeys the channel's verification keys by serial
     * @throws NotifyRejection 401 for any missing, repeated or malformed header, unknown serial, probe or bad
     *     signature, and for a stale or future timestamp
     */
    void verify(Map<String, PublicKey> platformKeys, RawNotify raw) throws NotifyRejection {
        verify(platformKeys, raw::header, raw.body());
    }

    /**
     * As {@link #verify(Map, RawNotify)}, for any message with these headers and body (a query answer).
     *
     * @param headers all values of a header by its name, case-insensitively; empty when absent
     * @param body the body exactly as received
     */
    void verify(Map<String, PublicKey> platformKeys, Function<String, List<String>> headers, byte[] body)
            throws NotifyRejection {
        String timestamp = single(headers, TIMESTAMP);
        String nonce = single(headers, NONCE);
        String signature = single(headers, SIGNATURE);
        String serial = single(headers, SERIAL);
        List<String> types = headers.apply(SIGNATURE_TYPE);
        if (types.size() > 1 || (types.size() == 1 && !RSA_SIGNATURE_TYPE.equals(types.get(0)))) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        if (!isDigits(timestamp, MAX_TIMESTAMP_DIGITS)
                || !Fields.isVisibleAscii(nonce, MAX_NONCE_CHARS)
                || signature.startsWith(PROBE_PREFIX)
                || signature.length() > MAX_SIGNATURE_CHARS) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        PublicKey key = platformKeys.get(serial);
        if (key == null) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        byte[] signatureBytes;
        try {
            signatureBytes = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        if (!verifies(key, timestamp, nonce, body, signatureBytes)) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        long skew = clock.instant().getEpochSecond() - Long.parseLong(timestamp);
        if (Math.abs(skew) > MAX_SKEW_SECONDS) {
            throw NotifyRejection.unauthenticated(Cause.STALE);
        }
    }

    private static final ThreadLocal<Signature> SHA256_WITH_RSA = ThreadLocal.withInitial(() -> {
        try {
            return Signature.getInstance("SHA256withRSA");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks SHA256withRSA", e);
        }
    });

    /** SHA256withRSA over the three lines, each ending in a line feed, the body exactly as received. */
    static boolean verifies(PublicKey key, String timestamp, String nonce, byte[] body, byte[] signature) {
        try {
            // one Signature per thread: getInstance's provider lookup cost a tenth of the non-RSA work (JMH)
            Signature verifier = SHA256_WITH_RSA.get();
            verifier.initVerify(key);
            verifier.update((timestamp + "\n" + nonce + "\n").getBytes(StandardCharsets.US_ASCII));
            verifier.update(body);
            verifier.update((byte) '\n');
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            // a signature of the wrong length or a key of the wrong type: not verified
            return false;
        }
    }

    /** 1 to {@code max} ASCII digits. */
    private static boolean isDigits(String s, int max) {
        int n = s.length();
        if (n == 0 || n > max) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The header's one value; absent, empty or sent more than once is 401. */
    private static String single(Function<String, List<String>> headers, String name) throws NotifyRejection {
        List<String> values = headers.apply(name);
        if (values.size() != 1 || values.get(0) == null || values.get(0).isEmpty()) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        return values.get(0);
    }
}
