package io.paynotify.merchant;

import io.paynotify.config.ClientCredentials;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The merchant API's request signature (docs/api.md "Signing a request"): {@code X-Signature} = lowercase hex
 * HMAC-SHA256(secret, METHOD \n REQUEST_TARGET \n X-Timestamp \n IDEMPOTENCY_KEY \n RAW_BODY_BYTES), with
 * {@code |now − X-Timestamp| ≤ 300 s}. Pure: no I/O, the clock is injected.
 *
 * <p>Method, target, timestamp and key are taken as the bytes that arrived (Netty decodes the request line and
 * header values byte for byte as ISO-8859-1, so encoding them back the same way restores the exact bytes). Every
 * secret of a rotation is tried, each compared in constant time, without stopping at the first match; an unknown
 * client still costs one HMAC, so timing does not tell unknown clients from bad signatures.
 */
public final class MerchantSignature {

    /** The allowed clock difference, either direction, in seconds. */
    public static final long TOLERANCE_SECONDS = 300;

    /** Unix seconds as plain ASCII digits: no sign, no spaces, at most 12 digits. */
    static final int MAX_TIMESTAMP_DIGITS = 12;

    private static final int SIGNATURE_HEX_LENGTH = 64;
    private static final byte[] NO_CLIENT_SECRET = new byte[32];

    /** Why a request failed authentication: for the server's own log only, never for the answer. */
    public enum Failure {
        MISSING_HEADER,
        REPEATED_HEADER,
        MALFORMED_TIMESTAMP,
        STALE,
        MALFORMED_SIGNATURE,
        UNKNOWN_CLIENT,
        BAD_SIGNATURE
    }

    /** The outcome: the authenticated client, or why not. */
    public record Result(ClientCredentials client, Failure failure) {
        public boolean ok() {
            return client != null;
        }
    }

    /**
     * What arrived: every header as all its values (so repeats are seen), the raw request line parts and the body.
     *
     * @param method the method as on the request line
     * @param target the request target as on the request line
     * @param header all values of a header, by case-insensitive name
     * @param body the raw body bytes
     */
    public record Request(String method, String target, Function<String, List<String>> header, byte[] body) {}

    private final Clock clock;
    private final Function<String, Optional<ClientCredentials>> clients;

    public MerchantSignature(Clock clock, Function<String, Optional<ClientCredentials>> clients) {
        this.clock = clock;
        this.clients = clients;
    }

    /** Checks headers, freshness and signature of one request. */
    public Result verify(Request r) {
        String clientId;
        String timestamp;
        String signature;
        String key;
        try {
            clientId = single(r, "X-Client-Id", true);
            timestamp = single(r, "X-Timestamp", true);
            signature = single(r, "X-Signature", true);
            key = single(r, "Idempotency-Key", false);
        } catch (HeaderProblem e) {
            return new Result(null, e.failure);
        }
        if (!isDigits(timestamp)) {
            return new Result(null, Failure.MALFORMED_TIMESTAMP);
        }
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - Long.parseLong(timestamp)) > TOLERANCE_SECONDS) {
            return new Result(null, Failure.STALE);
        }
        byte[] given = decodeLowerHex(signature);
        if (given == null) {
            return new Result(null, Failure.MALFORMED_SIGNATURE);
        }
        Optional<ClientCredentials> client = clients.apply(clientId);
        List<byte[]> secrets = client.map(ClientCredentials::secrets).orElse(List.of(NO_CLIENT_SECRET));
        boolean match = false;
        for (byte[] secret : secrets) {
            byte[] expected = hmac(secret, r.method(), r.target(), timestamp, key == null ? "" : key, r.body());
            // no early exit: every secret costs the same whichever one matches
            match |= MessageDigest.isEqual(expected, given);
        }
        if (client.isEmpty()) {
            return new Result(null, Failure.UNKNOWN_CLIENT);
        }
        return match ? new Result(client.get(), null) : new Result(null, Failure.BAD_SIGNATURE);
    }

    /** The lowercase hex signature a client sends; used by clients, tests and the README's worked example. */
    public static String sign(byte[] secret, String method, String target, String timestamp, String key, byte[] body) {
        return HexFormat.of().formatHex(hmac(secret, method, target, timestamp, key == null ? "" : key, body));
    }

    /** The exact bytes that are signed. */
    public static byte[] signedBytes(String method, String target, String timestamp, String key, byte[] body) {
        byte[] head =
                (method + "\n" + target + "\n" + timestamp + "\n" + key + "\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private static byte[] hmac(byte[] secret, String method, String target, String timestamp, String key, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(signedBytes(method, target, timestamp, key, body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private static String single(Request r, String name, boolean required) throws HeaderProblem {
        List<String> values = r.header().apply(name);
        if (values == null || values.isEmpty()) {
            if (required) {
                throw new HeaderProblem(Failure.MISSING_HEADER);
            }
            return null;
        }
        if (values.size() > 1) {
            // two values make the signed text ambiguous: refuse rather than guess which one was meant
            throw new HeaderProblem(Failure.REPEATED_HEADER);
        }
        return values.get(0);
    }

    private static boolean isDigits(String s) {
        if (s.isEmpty() || s.length() > MAX_TIMESTAMP_DIGITS) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            // ASCII only: Character.isDigit would accept fullwidth and Arabic-Indic digits
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** 64 lowercase hex characters as 32 bytes, else null (the contract defines lowercase). */
    private static byte[] decodeLowerHex(String s) {
        if (s.length() != SIGNATURE_HEX_LENGTH) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return null;
            }
        }
        return HexFormat.of().parseHex(s);
    }

    private static final class HeaderProblem extends Exception {
        final Failure failure;

        HeaderProblem(Failure failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }
}
