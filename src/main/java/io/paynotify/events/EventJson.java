package io.paynotify.events;

import com.fasterxml.jackson.core.JsonGenerator;
import io.paynotify.core.event.EventType;
import io.paynotify.http.OrderJson;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.RefundRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * The event JSON of docs/api.md "Event JSON": {@code {"id","type","createdAt","data"}}, {@code data} holding the order as it
 * stood after the change (without its refunds) and, by type, the refund or the reason. Rendered once, when the event
 * is written; every delivery and the pull list send these bytes unchanged.
 */
final class EventJson {

    private EventJson() {}

    static byte[] render(
            String id, EventType type, Instant createdAt, OrderRow order, RefundRow refund, String reason) {
        var out = new ByteArrayOutputStream(768);
        try (JsonGenerator g = OrderJson.factory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeStringField("type", type.wireName());
            OrderJson.time(g, "createdAt", createdAt);
            g.writeObjectFieldStart("data");
            g.writeObjectFieldStart("order");
            OrderJson.writeMembers(g, order);
            g.writeEndObject();
            if (type == EventType.ORDER_REFUNDED) {
                g.writeFieldName("refund");
                OrderJson.writeRefund(g, refund);
            }
            if (type == EventType.ORDER_ATTENTION) {
                g.writeStringField("reason", reason);
            }
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
