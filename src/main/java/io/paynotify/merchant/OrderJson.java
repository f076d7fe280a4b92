package io.paynotify.merchant;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.paynotify.http.HttpDates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * Renders the order JSON of CONTRACT.md §3 with a streaming generator: members in the contract's order, absent
 * values as {@code null}, times as UTC with milliseconds. No reflection, so it stays native-friendly.
 */
final class OrderJson {

    private static final JsonFactory JSON = new JsonFactory();

    private OrderJson() {}

    static byte[] render(OrderView o) {
        var out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("channel", o.channel());
            g.writeStringField("outTradeNo", o.outTradeNo());
            g.writeStringField("provider", o.provider());
            g.writeNumberField("amount", o.amount());
            g.writeStringField("currency", o.currency());
            g.writeStringField("description", o.description());
            g.writeStringField("state", o.state());
            g.writeStringField("transactionId", o.transactionId());
            time(g, "paidAt", o.paidAt());
            time(g, "createdAt", o.createdAt());
            time(g, "updatedAt", o.updatedAt());
            g.writeArrayFieldStart("attention");
            for (String reason : o.attention()) {
                g.writeString(reason);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void time(JsonGenerator g, String name, Instant t) throws IOException {
        if (t == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, HttpDates.jsonTime(t));
        }
    }
}
