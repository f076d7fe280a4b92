package io.paynotify.admin;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.paynotify.http.OrderJson;
import io.paynotify.persistence.AttemptRow;
import io.paynotify.persistence.DeliveryRow;
import io.paynotify.persistence.EventRow;
import io.paynotify.persistence.NotificationRow;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.RefundRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The JSON answers of the admin API (docs/api.md "Admin API"), written with a streaming generator like the merchant API's:
 * every member always present, {@code null} where there is no value, times in UTC with milliseconds. An order is
 * rendered by the same {@link OrderJson} as in the merchant API, so both show one order identically.
 */
final class AdminJson {

    /** Writes one item of a list. */
    @FunctionalInterface
    interface ItemWriter<T> {
        void write(JsonGenerator g, T item) throws IOException;
    }

    private AdminJson() {}

    /** {@code {"items":[...],"next":cursor-or-null}}. */
    static <T> byte[] page(List<T> items, String next, ItemWriter<T> writer) {
        return document(g -> page(g, items, next, writer));
    }

    /**
     * {@code {"items":[...],"next":cursor-or-null}} written to {@code out} as it is generated, so that a page of large
     * bodies is never held a second time as one array of JSON; {@code out} is closed at the end.
     */
    static <T> void page(OutputStream out, List<T> items, String next, ItemWriter<T> writer) throws IOException {
        try (JsonGenerator g = OrderJson.factory().createGenerator(out)) {
            page(g, items, next, writer);
        }
    }

    private static <T> void page(JsonGenerator g, List<T> items, String next, ItemWriter<T> writer) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("items");
        for (T item : items) {
            writer.write(g, item);
        }
        g.writeEndArray();
        g.writeStringField("next", next);
        g.writeEndObject();
    }

    /**
     * One order as the merchant API shows it (with its refunds), plus when the provider was last asked about it and
     * how often (the active query).
     */
    static byte[] order(OrderRow o, List<RefundRow> refunds) {
        return document(g -> {
            g.writeStartObject();
            OrderJson.writeMembers(g, o);
            OrderJson.writeRefunds(g, refunds);
            OrderJson.time(g, "lastQueriedAt", o.lastQueriedAt());
            g.writeNumberField("queryCount", o.queryCount());
            g.writeEndObject();
        });
    }

    static void order(JsonGenerator g, OrderRow o) throws IOException {
        g.writeStartObject();
        OrderJson.writeMembers(g, o);
        g.writeEndObject();
    }

    /**
     * One recorded delivery: {@code rawBody} is the body exactly as received when it is valid UTF-8 (else null, and
     * {@code rawBodyBase64} holds the bytes); {@code decoded} is the decrypted v3 resource or v2 {@code req_info}
     * fields as a JSON object, else null. Once the personal-data retention erased them, all three are null and
     * {@code personalDataErasedAt} says when (the field is absent while they are kept, so a kept notification has exactly
     * the fields of CONTRACT.md §4).
     */
    static void notification(JsonGenerator g, NotificationRow n) throws IOException {
        String text = n.rawBody() == null ? null : utf8(n.rawBody());
        g.writeStartObject();
        g.writeNumberField("id", n.id());
        g.writeStringField("channel", n.channel());
        g.writeStringField("outTradeNo", n.outTradeNo());
        g.writeStringField("provider", n.provider());
        OrderJson.time(g, "receivedAt", n.receivedAt());
        g.writeStringField("outcome", n.outcome());
        g.writeStringField("reason", n.reason());
        g.writeStringField("providerStatus", n.providerStatus());
        g.writeStringField("transactionId", n.transactionId());
        if (n.amount() == null) {
            g.writeNullField("amount");
        } else {
            g.writeNumberField("amount", n.amount());
        }
        g.writeStringField("source", n.source());
        g.writeStringField("rawBody", text);
        g.writeStringField(
                "rawBodyBase64",
                text == null && n.rawBody() != null ? Base64.getEncoder().encodeToString(n.rawBody()) : null);
        g.writeFieldName("decoded");
        decoded(g, n.decoded());
        if (n.personalDataErasedAt() != null) {
            // Only on erased rows: every other notification keeps exactly the contract's fields (§4).
            OrderJson.time(g, "personalDataErasedAt", n.personalDataErasedAt());
        }
        g.writeEndObject();
    }

    /**
     * The stored decoded text, copied token by token when it is one JSON object (it is only ever written so by the
     * adapters); anything else shows as null rather than as raw text.
     */
    private static void decoded(JsonGenerator g, String text) throws IOException {
        if (text == null || !isObject(text)) {
            g.writeNull();
            return;
        }
        try (JsonParser p = OrderJson.factory().createParser(text)) {
            p.nextToken();
            g.copyCurrentStructure(p);
        }
    }

    private static boolean isObject(String text) {
        try (JsonParser p = OrderJson.factory().createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * One event as the admin API shows it: the members of the stored event JSON ({@code id}, {@code type},
     * {@code createdAt}, {@code data}), copied token by token from the bytes every delivery sends, then
     * {@code "deliveries"}. With {@code attempts} (the detail of one event) each delivery also carries its
     * {@code attemptLog}, every attempt oldest first.
     */
    static void event(JsonGenerator g, EventRow e, List<DeliveryRow> deliveries, Map<Long, List<AttemptRow>> attempts)
            throws IOException {
        g.writeStartObject();
        try (JsonParser p = OrderJson.factory().createParser(e.body())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("the stored event is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                g.writeFieldName(p.currentName());
                p.nextToken();
                g.copyCurrentStructure(p);
            }
        }
        g.writeArrayFieldStart("deliveries");
        for (DeliveryRow d : deliveries) {
            delivery(g, d, attempts == null ? null : attempts.getOrDefault(d.id(), List.of()));
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * {@code {"client","state","attempts","nextAttemptAt","lastAttemptAt","lastStatus","lastError"}} (and
     * {@code "attemptLog"} when given). {@code nextAttemptAt} is null unless the delivery is PENDING: a finished
     * delivery is never attempted again until it is redelivered.
     */
    private static void delivery(JsonGenerator g, DeliveryRow d, List<AttemptRow> log) throws IOException {
        g.writeStartObject();
        g.writeStringField("client", d.clientId());
        g.writeStringField("state", d.state());
        g.writeNumberField("attempts", d.attempts());
        OrderJson.time(g, "nextAttemptAt", "PENDING".equals(d.state()) ? d.nextAttemptAt() : null);
        OrderJson.time(g, "lastAttemptAt", d.lastAttemptAt());
        integer(g, "lastStatus", d.lastStatus());
        g.writeStringField("lastError", d.lastError());
        if (log != null) {
            g.writeArrayFieldStart("attemptLog");
            for (AttemptRow a : log) {
                g.writeStartObject();
                OrderJson.time(g, "at", a.at());
                integer(g, "status", a.status());
                g.writeStringField("error", a.error());
                g.writeNumberField("durationMs", a.durationMs());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void integer(JsonGenerator g, String name, Integer value) throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, value);
        }
    }

    /** One event with its deliveries and every attempt of each. */
    /** An operator's active query: {@code {"result":…,"notification":{…}|null}} (docs/api.md "Active query"). */
    static byte[] queryOutcome(String result, NotificationRow n) {
        return document(g -> {
            g.writeStartObject();
            g.writeStringField("result", result);
            if (n == null) {
                g.writeNullField("notification");
            } else {
                g.writeFieldName("notification");
                notification(g, n);
            }
            g.writeEndObject();
        });
    }

    static byte[] eventDetail(EventRow e, List<DeliveryRow> deliveries, Map<Long, List<AttemptRow>> attempts) {
        return document(g -> event(g, e, deliveries, attempts));
    }

    /** The text when the bytes are valid UTF-8 (malformed input is refused, not replaced), else null. */
    static String utf8(byte[] raw) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    @FunctionalInterface
    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] document(Body body) {
        var out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = OrderJson.factory().createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
