package io.paynotify.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.RefundRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * The order JSON of docs/api.md "Orders", the one rendering that the merchant API and the admin API share: members in the
 * contract's order, absent values as {@code null}, times as UTC with milliseconds. A streaming generator rather than
 * data binding, so nothing is read by reflection and the native image needs no registration.
 */
public final class OrderJson {

    private static final JsonFactory JSON = new JsonFactory();

    private OrderJson() {}

    /** The shared Jackson factory for the APIs' streaming JSON (thread-safe). */
    public static JsonFactory factory() {
        return JSON;
    }

    /** The order as one JSON document (the answer to a create or a close). */
    public static byte[] render(OrderRow o) {
        var out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            writeMembers(g, o);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The single-order answer: the order and its refunds, oldest first (docs/api.md "Orders"). */
    public static byte[] renderWithRefunds(OrderRow o, List<RefundRow> refunds) {
        var out = new ByteArrayOutputStream(768);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            writeMembers(g, o);
            writeRefunds(g, refunds);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** {@code "refunds":[refund…]}, oldest first. */
    public static void writeRefunds(JsonGenerator g, List<RefundRow> refunds) throws IOException {
        g.writeArrayFieldStart("refunds");
        for (RefundRow r : refunds) {
            writeRefund(g, r);
        }
        g.writeEndArray();
    }

    /** One refund (the refund JSON of docs/api.md "Refunds"). */
    public static void writeRefund(JsonGenerator g, RefundRow r) throws IOException {
        g.writeStartObject();
        g.writeStringField("outRefundNo", r.outRefundNo());
        g.writeStringField("refundId", r.refundId());
        g.writeNumberField("amount", r.amount());
        g.writeStringField("status", r.status().name());
        time(g, "succeededAt", r.succeededAt());
        time(g, "createdAt", r.createdAt());
        time(g, "updatedAt", r.updatedAt());
        g.writeEndObject();
    }

    /** The order's members, inside an object the caller opened (so that a caller can add members after them). */
    public static void writeMembers(JsonGenerator g, OrderRow o) throws IOException {
        g.writeStringField("channel", o.channel());
        g.writeStringField("outTradeNo", o.outTradeNo());
        g.writeStringField("provider", o.provider());
        g.writeNumberField("amount", o.amount());
        g.writeStringField("currency", o.currency());
        g.writeStringField("description", o.description());
        g.writeStringField("state", o.state().name());
        g.writeStringField("transactionId", o.transactionId());
        time(g, "paidAt", o.paidAt());
        g.writeNumberField("refundedAmount", o.refundedAmount());
        time(g, "createdAt", o.createdAt());
        time(g, "updatedAt", o.updatedAt());
        g.writeArrayFieldStart("attention");
        for (String reason : o.attention()) {
            g.writeString(reason);
        }
        g.writeEndArray();
        // null on direct channels (docs/api.md "Account modes")
        g.writeStringField("subMerchantId", o.subMerchantId());
        g.writeStringField("subAppId", o.subAppId());
    }

    /** A time member: UTC with milliseconds, or null. */
    public static void time(JsonGenerator g, String name, Instant t) throws IOException {
        if (t == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, HttpDates.jsonTime(t));
        }
    }
}
