package io.paynotify.admin;

import com.fasterxml.jackson.core.JsonGenerator;
import io.paynotify.http.OrderJson;
import io.paynotify.persistence.DifferenceRow;
import io.paynotify.persistence.StatementLedger;
import io.paynotify.persistence.StatementRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;

/** The statement and difference JSON of the admin API (CONTRACT.md §11): every member present, null where none. */
final class StatementJson {

    private StatementJson() {}

    static byte[] statement(StatementRow s, StatementLedger.Totals ledger, List<DifferenceRow> differences) {
        var out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = OrderJson.factory().createGenerator(out)) {
            g.writeStartObject();
            members(g, s, ledger);
            if (differences != null) {
                g.writeArrayFieldStart("differences");
                for (DifferenceRow d : differences) {
                    difference(g, d);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] difference(DifferenceRow d) {
        var out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = OrderJson.factory().createGenerator(out)) {
            difference(g, d);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static void statement(JsonGenerator g, StatementRow s, StatementLedger.Totals ledger) throws IOException {
        g.writeStartObject();
        members(g, s, ledger);
        g.writeEndObject();
    }

    private static void members(JsonGenerator g, StatementRow s, StatementLedger.Totals ledger) throws IOException {
        g.writeStringField("channel", s.channel());
        g.writeStringField("billDate", s.billDate().toString());
        g.writeStringField("status", s.status());
        g.writeStringField("error", s.error());
        g.writeStringField("source", s.source());
        OrderJson.time(g, "fetchedAt", s.fetchedAt());
        g.writeStringField("fileSha256", s.fileSha256());
        g.writeNumberField("attempts", s.attempts());
        OrderJson.time(g, "nextAttemptAt", s.nextAttemptAt());
        total(g, "payments", s.paymentCount(), s.paymentAmount());
        total(g, "refunds", s.refundCount(), s.refundAmount());
        total(g, "foreign", s.foreignCount(), s.foreignAmount());
        g.writeStringField("fees", fees(s.fees()));
        g.writeNumberField("openDifferences", s.openDifferences());
        // an addition to CONTRACT.md §11 (docs/api.md "Statements"): the ledger's own totals of the day, live
        if (ledger == null) {
            g.writeNullField("ledger");
            return;
        }
        g.writeObjectFieldStart("ledger");
        total(g, "payments", ledger.paymentCount(), ledger.paymentAmount());
        total(g, "refunds", ledger.refundCount(), ledger.refundAmount());
        g.writeEndObject();
    }

    /** Yuan with at least 5 decimals ({@code "12.34560"}), the sixth only when a fee has one. */
    static String fees(BigDecimal fees) {
        BigDecimal f = fees == null ? BigDecimal.ZERO : fees;
        BigDecimal stripped = f.stripTrailingZeros();
        return (stripped.scale() <= 5 ? f.setScale(5) : stripped).toPlainString();
    }

    private static void total(JsonGenerator g, String name, long count, long amount) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", count);
        g.writeNumberField("amount", amount);
        g.writeEndObject();
    }

    static void difference(JsonGenerator g, DifferenceRow d) throws IOException {
        g.writeStartObject();
        g.writeNumberField("id", d.id());
        g.writeStringField("channel", d.channel());
        g.writeStringField("billDate", d.billDate().toString());
        g.writeStringField("kind", d.kind());
        g.writeStringField("outTradeNo", d.outTradeNo());
        g.writeStringField("outRefundNo", d.outRefundNo());
        g.writeStringField("subMerchantId", d.subMerchantId());
        g.writeStringField("transactionId", d.transactionId());
        amount(g, "billAmount", d.billAmount());
        amount(g, "localAmount", d.localAmount());
        g.writeStringField("localState", d.localState());
        g.writeStringField("status", d.status());
        g.writeStringField("note", d.note());
        g.writeStringField("queryResult", d.queryResult());
        OrderJson.time(g, "createdAt", d.createdAt());
        OrderJson.time(g, "updatedAt", d.updatedAt());
        OrderJson.time(g, "resolvedAt", d.resolvedAt());
        g.writeEndObject();
    }

    private static void amount(JsonGenerator g, String name, Long v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, v);
        }
    }
}
