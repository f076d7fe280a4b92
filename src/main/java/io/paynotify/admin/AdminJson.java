package io.paynotify.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The JSON shapes of the admin API (CONTRACT.md §4). Every key is always present, null where there is no value. */
public final class AdminJson {

    /** {@code 2026-01-02T03:04:05.123Z}: UTC, always with milliseconds, never the JVM's zone. */
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private AdminJson() {}

    static String time(Instant t) {
        return t == null ? null : TIME.format(t);
    }

    /**
     * One page of a list.
     *
     * @param items the rows of this page
     * @param next the cursor for the next page ({@code after=}), null on the last page
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Page<T>(List<T> items, String next) {}

    /** An order, as the merchant API shows it. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Order(
            String channel,
            String outTradeNo,
            String provider,
            long amount,
            String currency,
            String description,
            String state,
            String transactionId,
            String paidAt,
            String createdAt,
            String updatedAt,
            List<String> attention) {}

    /**
     * One recorded delivery.
     *
     * @param rawBody the body exactly as received when it is valid UTF-8, else null
     * @param rawBodyBase64 the body's bytes in base64, present only when {@code rawBody} is null
     * @param decoded the decrypted v3 resource or v2 {@code req_info} fields as a JSON object, else null
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Notification(
            long id,
            String channel,
            String outTradeNo,
            String provider,
            String receivedAt,
            String outcome,
            String reason,
            String providerStatus,
            String transactionId,
            Long amount,
            String rawBody,
            String rawBodyBase64,
            JsonNode decoded) {}
}
