package io.paynotify.merchant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.ClientCredentials;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The signature rules of docs/api.md "Signing a request" with a fixed clock: no Quarkus, no HTTP. */
@Tag("unit")
class MerchantSignatureTest {

    static final long NOW = 1_767_323_045L; // 2026-01-02T03:04:05Z
    static final String SECRET = "demo-secret-0123456789abcdef0123456789";
    static final String OLD_SECRET = "old-secret-0123456789abcdef0123456789";
    static final byte[] BODY =
            "{\"channel\":\"wx-main\",\"outTradeNo\":\"A1001\",\"amount\":100}".getBytes(StandardCharsets.UTF_8);

    final ClientCredentials client = new ClientCredentials(
            "shop-backend",
            List.of(OLD_SECRET.getBytes(StandardCharsets.UTF_8), SECRET.getBytes(StandardCharsets.UTF_8)),
            Set.of("wx-main"));
    final MerchantSignature verifier = new MerchantSignature(
            Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC),
            id -> "shop-backend".equals(id) ? Optional.of(client) : Optional.empty());

    /** The worked example of the README (Merchant API), checked against openssl's output quoted there. */
    @Test
    void workedExampleOfTheDocs() {
        assertEquals(
                "b5e5454981cf919069c4d16f66296b8f6492eafc054a7f3d3cb0a9ba07657003",
                MerchantSignature.sign(
                        SECRET.getBytes(StandardCharsets.UTF_8),
                        "POST",
                        "/api/v1/orders",
                        Long.toString(NOW),
                        "order-A1001-attempt-1",
                        BODY));
        assertEquals(
                "ad6c6cc80818224989a661698c0c0b33cd05609bdb43573e30f30f0d0ace8156",
                MerchantSignature.sign(
                        SECRET.getBytes(StandardCharsets.UTF_8),
                        "GET",
                        "/api/v1/orders/wx-main/A1001",
                        Long.toString(NOW),
                        null,
                        new byte[0]));
    }

    @Test
    void acceptsEitherSecretOfARotation() {
        assertTrue(verify(headers(NOW, SECRET)).ok());
        assertTrue(verify(headers(NOW, OLD_SECRET)).ok());
        assertEquals(
                MerchantSignature.Failure.BAD_SIGNATURE,
                verify(headers(NOW, "another-secret-0123456789abcdef01234")).failure());
    }

    @Test
    void freshnessIsThreeHundredSecondsEitherWay() {
        assertTrue(verify(headers(NOW - 300, SECRET)).ok());
        assertTrue(verify(headers(NOW + 300, SECRET)).ok());
        assertEquals(
                MerchantSignature.Failure.STALE,
                verify(headers(NOW - 301, SECRET)).failure());
        assertEquals(
                MerchantSignature.Failure.STALE,
                verify(headers(NOW + 301, SECRET)).failure());
    }

    @Test
    void timestampMustBePlainAsciiDigits() {
        for (String ts : new String[] {
            "+" + NOW, " " + NOW, NOW + " ", "-1", "", "1767323045.0", "1e9", "１７６７３２３０４５", "0000001767323045"
        }) {
            Map<String, List<String>> h = headers(NOW, SECRET);
            h.put("x-timestamp", List.of(ts));
            h.put(
                    "x-signature",
                    List.of(MerchantSignature.sign(
                            SECRET.getBytes(StandardCharsets.UTF_8), "POST", "/api/v1/orders", ts, "k1", BODY)));
            MerchantSignature.Result r = verify(h);
            assertFalse(r.ok(), ts);
            assertEquals(MerchantSignature.Failure.MALFORMED_TIMESTAMP, r.failure(), ts);
        }
    }

    @Test
    void signatureIsLowercaseHexOnly() {
        Map<String, List<String>> h = headers(NOW, SECRET);
        h.put("x-signature", List.of(h.get("x-signature").get(0).toUpperCase()));
        assertEquals(MerchantSignature.Failure.MALFORMED_SIGNATURE, verify(h).failure());
    }

    @Test
    void missingOrRepeatedHeadersFail() {
        for (String name : new String[] {"x-client-id", "x-timestamp", "x-signature"}) {
            Map<String, List<String>> h = headers(NOW, SECRET);
            h.remove(name);
            assertEquals(MerchantSignature.Failure.MISSING_HEADER, verify(h).failure(), name);
            h = headers(NOW, SECRET);
            h.put(name, List.of(h.get(name).get(0), h.get(name).get(0)));
            assertEquals(MerchantSignature.Failure.REPEATED_HEADER, verify(h).failure(), name);
        }
        Map<String, List<String>> h = headers(NOW, SECRET);
        h.put("idempotency-key", List.of("k1", "k1"));
        assertEquals(MerchantSignature.Failure.REPEATED_HEADER, verify(h).failure());
    }

    @Test
    void unknownClientFails() {
        Map<String, List<String>> h = headers(NOW, SECRET);
        h.put("x-client-id", List.of("someone-else"));
        assertEquals(MerchantSignature.Failure.UNKNOWN_CLIENT, verify(h).failure());
    }

    @Test
    void theIdempotencyKeyIsSigned() {
        Map<String, List<String>> h = headers(NOW, SECRET);
        h.put("idempotency-key", List.of("k2"));
        assertEquals(MerchantSignature.Failure.BAD_SIGNATURE, verify(h).failure());
        h.remove("idempotency-key");
        assertEquals(MerchantSignature.Failure.BAD_SIGNATURE, verify(h).failure());
    }

    private MerchantSignature.Result verify(Map<String, List<String>> headers) {
        return verifier.verify(new MerchantSignature.Request(
                "POST", "/api/v1/orders", name -> headers.getOrDefault(name.toLowerCase(), new ArrayList<>()), BODY));
    }

    private static Map<String, List<String>> headers(long ts, String secret) {
        var h = new LinkedHashMap<String, List<String>>();
        h.put("x-client-id", List.of("shop-backend"));
        h.put("x-timestamp", List.of(Long.toString(ts)));
        h.put("idempotency-key", List.of("k1"));
        h.put(
                "x-signature",
                List.of(MerchantSignature.sign(
                        secret.getBytes(StandardCharsets.UTF_8),
                        "POST",
                        "/api/v1/orders",
                        Long.toString(ts),
                        "k1",
                        BODY)));
        return h;
    }
}
