package io.paynotify.events;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.standardwebhooks.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The signer against the Standard Webhooks specification's published example and its reference verifier; the
 * Retry-After parsing. (The address rule is {@link WebhookTargetsTest}.)
 */
@Tag("unit")
class WebhookSignatureTest {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    static byte[] key(String whsec) {
        return Base64.getDecoder().decode(whsec.substring("whsec_".length()));
    }

    @Test
    void theSpecificationsExample() {
        String header = WebhookSignature.header(
                "msg_p5jXN8AQM9LWM0D4loKWxJek",
                1614265330,
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8),
                List.of(key(SECRET)));
        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", header);
    }

    @Test
    void aRotationSignsWithEverySecretAndEachVerifies() throws Exception {
        String other = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);
        byte[] body = "{\"id\":\"evt_1\",\"type\":\"order.paid\"}".getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        String header = WebhookSignature.header("evt_1", now, body, List.of(key(SECRET), key(other)));
        assertEquals(2, header.split(" ").length);
        Map<String, List<String>> headers = Map.of(
                "webhook-id", List.of("evt_1"),
                "webhook-timestamp", List.of(Long.toString(now)),
                "webhook-signature", List.of(header));
        for (String secret : List.of(SECRET, other)) {
            assertDoesNotThrow(() -> new Webhook(secret).verify(new String(body, StandardCharsets.UTF_8), headers));
        }
    }

    @Test
    void retryAfterIsSecondsOnly() {
        assertEquals(java.util.OptionalLong.of(30), DeliveryWorker.retryAfter("30"));
        assertEquals(java.util.OptionalLong.of(7), DeliveryWorker.retryAfter(" 7 "));
        assertEquals(java.util.OptionalLong.empty(), DeliveryWorker.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT"));
        assertEquals(java.util.OptionalLong.empty(), DeliveryWorker.retryAfter(null));
        assertEquals(java.util.OptionalLong.empty(), DeliveryWorker.retryAfter("-1"));
    }
}
