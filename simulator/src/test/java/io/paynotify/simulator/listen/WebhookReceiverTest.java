package io.paynotify.simulator.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook receiver over real HTTP, against the published example of the Standard Webhooks repository: the
 * reference libraries' signing test (libraries/go/webhook_test.go TestWebhookSign, the same values in
 * libraries/java/src/test/.../TestScenario.java) — secret {@code whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw}, id
 * {@code msg_p5jXN8AQM9LWM0D4loKWxJek}, timestamp 1614265330, body {@code {"test": 2432232314}}, signature
 * {@code v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=}.
 */
class WebhookReceiverTest {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    static final long TIMESTAMP = 1614265330;
    static final String BODY = "{\"test\": 2432232314}";
    static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Delivery> printed = new ArrayList<>();
    private WebhookReceiver receiver;

    private WebhookReceiver start(String secret, long nowSeconds) throws IOException {
        Clock clock = Clock.fixed(Instant.ofEpochSecond(nowSeconds), ZoneOffset.UTC);
        receiver = WebhookReceiver.start(0, new WebhookVerifier(secret, clock), clock, d -> {
            synchronized (printed) {
                printed.add(d);
            }
        });
        return receiver;
    }

    @AfterEach
    void stop() {
        if (receiver != null) {
            receiver.close();
        }
    }

    private int post(String id, String timestamp, String signature, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiver.port() + "/webhooks"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (id != null) {
            b.header("webhook-id", id);
        }
        if (timestamp != null) {
            b.header("webhook-timestamp", timestamp);
        }
        if (signature != null) {
            b.header("webhook-signature", signature);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void thePublishedExampleVerifies() throws Exception {
        start(SECRET, TIMESTAMP + 10);
        assertEquals(204, post(ID, Long.toString(TIMESTAMP), SIGNATURE, BODY));
        assertTrue(receiver.deliveries().get(0).verified());
        assertEquals(ID, receiver.deliveries().get(0).id());
    }

    @Test
    void theVerifierReproducesTheExampleSignature() {
        WebhookVerifier v = new WebhookVerifier(SECRET, Clock.systemUTC());
        String sig = "v1,"
                + Base64.getEncoder()
                        .encodeToString(v.sign(ID, Long.toString(TIMESTAMP), BODY.getBytes(StandardCharsets.UTF_8)));
        assertEquals(SIGNATURE, sig);
    }

    /** During a rotation several signatures arrive, space-separated; v1a (asymmetric) entries are not ours. */
    @Test
    void oneMatchingSignatureAmongSeveralIsEnough() throws Exception {
        start(SECRET, TIMESTAMP);
        String header = "v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFymVJaA7AZdpXwVLPo3mNl8EM+m7TBAg=="
                + " v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= " + SIGNATURE;
        assertEquals(204, post(ID, Long.toString(TIMESTAMP), header, BODY));
    }

    @Test
    void aTamperedBodyIs401() throws Exception {
        start(SECRET, TIMESTAMP);
        assertEquals(401, post(ID, Long.toString(TIMESTAMP), SIGNATURE, "{\"test\": 2432232315}"));
        assertEquals(
                WebhookVerifier.Result.BAD_SIGNATURE,
                receiver.deliveries().get(0).result());
    }

    @Test
    void theWrongSecretIs401() throws Exception {
        start("whsec_" + Base64.getEncoder().encodeToString("another-secret-of-24-bytes".getBytes()), TIMESTAMP);
        assertEquals(401, post(ID, Long.toString(TIMESTAMP), SIGNATURE, BODY));
    }

    @Test
    void aStaleOrFutureTimestampIs401() throws Exception {
        start(SECRET, TIMESTAMP + WebhookVerifier.TOLERANCE_SECONDS + 1);
        assertEquals(401, post(ID, Long.toString(TIMESTAMP), SIGNATURE, BODY));
        assertEquals(WebhookVerifier.Result.STALE, receiver.deliveries().get(0).result());
        receiver.close();
        start(SECRET, TIMESTAMP - WebhookVerifier.TOLERANCE_SECONDS - 1);
        assertEquals(401, post(ID, Long.toString(TIMESTAMP), SIGNATURE, BODY));
        receiver.close();
        start(SECRET, TIMESTAMP + WebhookVerifier.TOLERANCE_SECONDS);
        assertEquals(204, post(ID, Long.toString(TIMESTAMP), SIGNATURE, BODY), "the edge of the window");
    }

    @Test
    void changedIdOrTimestampOrMissingHeadersAre401() throws Exception {
        start(SECRET, TIMESTAMP);
        assertEquals(401, post("msg_other", Long.toString(TIMESTAMP), SIGNATURE, BODY));
        assertEquals(401, post(ID, Long.toString(TIMESTAMP + 1), SIGNATURE, BODY));
        assertEquals(401, post(ID, Long.toString(TIMESTAMP), null, BODY));
        assertEquals(401, post(null, Long.toString(TIMESTAMP), SIGNATURE, BODY));
        assertEquals(401, post(ID, "1614265330.0", SIGNATURE, BODY));
        assertEquals(401, post(ID, Long.toString(TIMESTAMP), "v1,not base64!", BODY));
        assertTrue(receiver.deliveries().stream().noneMatch(Delivery::verified));
    }

    /** A delivery as paynotify sends it: the line names the event, its type and the order. */
    @Test
    void paynotifyEventsAreDescribed() throws Exception {
        long now = Instant.now().getEpochSecond();
        start(SECRET, now);
        String body = "{\"id\":\"evt_01\",\"type\":\"order.paid\",\"createdAt\":\"2026-01-02T03:04:05.123Z\","
                + "\"data\":{\"order\":{\"channel\":\"wx-dev\",\"outTradeNo\":\"DEMO-1\",\"state\":\"SUCCESS\"}}}";
        WebhookVerifier signer = new WebhookVerifier(SECRET, Clock.systemUTC());
        String sig = "v1,"
                + Base64.getEncoder()
                        .encodeToString(
                                signer.sign("evt_01", Long.toString(now), body.getBytes(StandardCharsets.UTF_8)));
        assertEquals(204, post("evt_01", Long.toString(now), sig, body));
        assertTrue(receiver.await(ds -> ds.size() == 1, Duration.ofSeconds(5)));
        Delivery d = receiver.deliveries().get(0);
        assertEquals("order.paid", d.type());
        assertEquals("wx-dev", d.channel());
        assertEquals("DEMO-1", d.outTradeNo());
        assertEquals("webhook evt_01  order.paid  wx-dev/DEMO-1  verified", d.line());
        synchronized (printed) {
            assertEquals(1, printed.size());
        }
    }

    @Test
    void onlyPostIsAccepted() throws Exception {
        start(SECRET, TIMESTAMP);
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiver.port() + "/webhooks"))
                .GET()
                .build();
        assertEquals(405, http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode());
        assertFalse(receiver.await(ds -> !ds.isEmpty(), Duration.ZERO));
    }
}
