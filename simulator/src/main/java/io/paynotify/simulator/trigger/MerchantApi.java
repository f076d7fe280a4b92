package io.paynotify.simulator.trigger;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * paynotify's merchant API (docs/api.md#merchant-api) as a merchant's backend calls it: every request signed with
 * {@code X-Signature} = lowercase hex HMAC-SHA256(secret, METHOD\nTARGET\nX-Timestamp\nIdempotency-Key\nBODY), every
 * POST with a new {@code Idempotency-Key}.
 */
public final class MerchantApi {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final URI service;
    private final Client client;
    private final Clock clock;

    public MerchantApi(HttpClient http, URI service, Client client, Clock clock) {
        this.http = http;
        this.service = service;
        this.client = client;
        this.clock = clock;
    }

    public Client client() {
        return client;
    }

    public URI service() {
        return service;
    }

    /** {@code POST /api/v1/orders}: registers an expected payment in CNY. */
    public HttpResponse<String> createOrder(String channel, String outTradeNo, long amountFen, String description)
            throws IOException, InterruptedException {
        return createOrder(channel, outTradeNo, amountFen, description, null, null);
    }

    /**
     * {@code POST /api/v1/orders} on a partner or ISV channel: the order names its {@code subMerchantId} (and, on a
     * WeChat partner channel, optionally its {@code subAppId}); both null on a direct channel.
     */
    public HttpResponse<String> createOrder(
            String channel, String outTradeNo, long amountFen, String description, String subMerchantId, String subAppId)
            throws IOException, InterruptedException {
        String body = "{\"channel\":\"" + channel + "\",\"outTradeNo\":\"" + outTradeNo + "\",\"amount\":" + amountFen
                + ",\"currency\":\"CNY\",\"description\":\"" + description + "\""
                + (subMerchantId != null ? ",\"subMerchantId\":\"" + subMerchantId + "\"" : "")
                + (subAppId != null ? ",\"subAppId\":\"" + subAppId + "\"" : "")
                + "}";
        return send("POST", "/api/v1/orders", body, UUID.randomUUID().toString());
    }

    /** {@code GET /api/v1/orders/{channel}/{outTradeNo}}. */
    public HttpResponse<String> getOrder(String channel, String outTradeNo) throws IOException, InterruptedException {
        return send("GET", "/api/v1/orders/" + segment(channel) + "/" + segment(outTradeNo), "", null);
    }

    private HttpResponse<String> send(String method, String target, String body, String idempotencyKey)
            throws IOException, InterruptedException {
        String timestamp = Long.toString(clock.instant().getEpochSecond());
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder b = HttpRequest.newBuilder(service.resolve(target))
                .timeout(TIMEOUT)
                .header("X-Client-Id", client.id())
                .header("X-Timestamp", timestamp)
                .header("X-Signature", signature(client.secret(), method, target, timestamp, idempotencyKey, bytes))
                .method(
                        method,
                        bytes.length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (bytes.length > 0) {
            b.header("Content-Type", "application/json");
        }
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** The merchant signature of docs/api.md#merchant-api; {@code idempotencyKey} null signs as empty. */
    public static String signature(
            String secret, String method, String target, String timestamp, String idempotencyKey, byte[] body) {
        byte[] head = (method + "\n" + target + "\n" + timestamp + "\n" + (idempotencyKey == null ? "" : idempotencyKey)
                        + "\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[head.length + body.length];
        System.arraycopy(head, 0, message, 0, head.length);
        System.arraycopy(body, 0, message, head.length, body.length);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks HmacSHA256: " + e.getMessage(), e);
        }
    }

    /**
     * A path segment percent-encoded outside RFC 3986 {@code pchar}: order numbers may hold {@code |}, which must go
     * as {@code %7C} (docs/api.md#merchant-api); {@code *}, {@code -} and {@code _} stay.
     */
    public static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("%2A", "*");
    }
}
