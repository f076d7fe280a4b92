package io.paynotify.core.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Renders the order state machine as a Mermaid diagram and a table into {@code docs/state-machine.md}, by asking
 * {@link OrderStateMachine#decide} about every class × order cell. The file is committed; when the state machine
 * changes, this test rewrites it and fails, so the document cannot drift. The generated text refers only to files
 * of this repository, since its readers have nothing else.
 */
@Tag("unit")
class StateMachineDiagramTest {

    static final Path FILE = Path.of("docs", "state-machine.md");
    static final long AMOUNT = 100;
    static final String TXN = "T-1";

    /** One situation the state machine can meet: an order (or none) and a notification. */
    record Case(String column, OrderSnapshot order, String row, VerifiedNotification n, boolean elsewhere) {}

    static VerifiedNotification n(NotifyClass cls, long amount, String status, boolean finished, boolean mismatch) {
        return VerifiedNotification.builder(Provider.ALIPAY, "c", "O", cls, status, new byte[0], Instant.EPOCH)
                .transactionId(TXN)
                .amount(amount)
                .finishedNotice(finished)
                .accountMismatch(mismatch)
                .build();
    }

    /** A WeChat-style refund notice of a new refund on T-1 (the refund table of api.md decides the rest). */
    static VerifiedNotification refund(long amount) {
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V3, "c", "O", NotifyClass.REFUND, "SUCCESS", new byte[0], Instant.EPOCH)
                .transactionId(TXN)
                .amount(amount)
                .refund(new io.paynotify.core.notify.RefundNotice(
                        "R-new", true, "RID", RefundStatus.SUCCESS, amount, false, AMOUNT, null))
                .build();
    }

    static List<Case> cases() {
        var columns = new ArrayList<Object[]>();
        columns.add(new Object[] {"none", null});
        columns.add(new Object[] {"PENDING", new OrderSnapshot(OrderState.PENDING, AMOUNT, "CNY", null, null)});
        columns.add(new Object[] {
            "SUCCESS, same txn id", new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", TXN, "TRADE_SUCCESS")
        });
        columns.add(new Object[] {
            "SUCCESS, other txn id", new OrderSnapshot(OrderState.SUCCESS, AMOUNT, "CNY", "T-2", "TRADE_SUCCESS")
        });
        columns.add(new Object[] {
            "PARTIALLY_REFUNDED (10 of 100)",
            new OrderSnapshot(OrderState.PARTIALLY_REFUNDED, AMOUNT, "CNY", TXN, "TRADE_SUCCESS", 10)
        });
        columns.add(new Object[] {"CLOSED", new OrderSnapshot(OrderState.CLOSED, AMOUNT, "CNY", null, null)});
        var rows = new ArrayList<Object[]>();
        rows.add(new Object[] {"PAID", n(NotifyClass.PAID, AMOUNT, "TRADE_SUCCESS", false, false), false});
        rows.add(new Object[] {
            "PAID, amount differs", n(NotifyClass.PAID, AMOUNT + 1, "TRADE_SUCCESS", false, false), false
        });
        rows.add(new Object[] {
            "PAID, Alipay TRADE_FINISHED", n(NotifyClass.PAID, AMOUNT, "TRADE_FINISHED", true, false), false
        });
        rows.add(new Object[] {
            "PAID, txn id on another order", n(NotifyClass.PAID, AMOUNT, "TRADE_SUCCESS", false, false), true
        });
        rows.add(new Object[] {"CLOSE", n(NotifyClass.CLOSE, AMOUNT, "X", false, false), false});
        rows.add(new Object[] {"REFUND SUCCESS of 10 (a new refund)", refund(10), false});
        rows.add(new Object[] {"REFUND SUCCESS of 90 (a new refund)", refund(90), false});
        for (NotifyClass cls : List.of(NotifyClass.INFO, NotifyClass.UNKNOWN)) {
            rows.add(new Object[] {cls.name(), n(cls, AMOUNT, "X", false, false), false});
        }
        rows.add(new Object[] {
            "any class, account ids differ", n(NotifyClass.PAID, AMOUNT, "TRADE_SUCCESS", false, true), false
        });
        var out = new ArrayList<Case>();
        for (Object[] r : rows) {
            for (Object[] c : columns) {
                out.add(new Case(
                        (String) c[0], (OrderSnapshot) c[1], (String) r[0], (VerifiedNotification) r[1], (Boolean)
                                r[2]));
            }
        }
        return out;
    }

    static String cell(Decision d) {
        var sb = new StringBuilder(d.outcome().name());
        if (d.reason() != null) {
            sb.append(' ').append(d.reason().name());
        }
        if (d.newState() != null) {
            sb.append(" → ").append(d.newState().name());
        }
        sb.append(d.successAck() ? ", ok" : ", fail 422");
        var extra = new ArrayList<String>();
        for (Reason r : d.attention()) {
            if (r != d.reason()) {
                extra.add(r.name());
            }
        }
        if (!extra.isEmpty()) {
            sb.append(", attention +").append(String.join(" +", extra));
        }
        return sb.toString();
    }

    static String render() {
        List<Case> cases = cases();
        var sb = new StringBuilder();
        sb.append("# Order state machine\n\n");
        sb.append("Generated by `StateMachineDiagramTest` from `OrderStateMachine.decide`, the outcome matrix of\n");
        sb.append("[api.md](api.md#how-a-notification-is-handled): do not edit by hand. The test rewrites this file\n");
        sb.append("and fails when the state machine changes.\n\n");
        sb.append("```mermaid\nstateDiagram-v2\n");
        sb.append("    [*] --> PENDING : order registered\n");
        for (Case c : cases) {
            if (c.order() == null) {
                continue;
            }
            Decision d = OrderStateMachine.decide(c.order(), null, c.n(), c.elsewhere());
            String from = c.order().state().name();
            String to = d.newState() == null ? from : d.newState().name();
            String label = c.row() + " / " + d.outcome().name()
                    + (d.reason() == null ? "" : " " + d.reason().name()) + (d.successAck() ? " ok" : " fail");
            String edge = "    " + from + " --> " + to + " : " + label + "\n";
            // SUCCESS appears as two columns (same and other txn id); one edge per distinct label
            if (sb.indexOf(edge) < 0) {
                sb.append(edge);
            }
        }
        sb.append("    REFUNDED --> [*]\n    CLOSED --> [*]\n```\n\n");
        sb.append("Precedence: account ids differ, then the transaction id on another order (PAID only), then the\n");
        sb.append(
                "class × order matrix; refund notices follow the refund table of [api.md](api.md#refunds) (shown here\n");
        sb.append(
                "for a new refund). The paid states (SUCCESS, PARTIALLY_REFUNDED, REFUNDED) all count as SUCCESS for\n");
        sb.append(
                "payment and close notices. \"ok\" is the success ack, \"fail 422\" the failure ack with status 422.\n\n");

        List<String> columns = new ArrayList<>();
        for (Case c : cases) {
            if (!columns.contains(c.column())) {
                columns.add(c.column());
            }
        }
        sb.append("| class ↓ / order → |");
        columns.forEach(col -> sb.append(' ').append(col).append(" |"));
        sb.append("\n|---|");
        columns.forEach(col -> sb.append("---|"));
        sb.append('\n');
        String currentRow = null;
        for (Case c : cases) {
            if (!c.row().equals(currentRow)) {
                if (currentRow != null) {
                    sb.append('\n');
                }
                currentRow = c.row();
                sb.append("| ").append(c.row()).append(" |");
            }
            sb.append(' ')
                    .append(cell(OrderStateMachine.decide(c.order(), null, c.n(), c.elsewhere())))
                    .append(" |");
        }
        sb.append('\n');
        return sb.toString();
    }

    @Test
    void committedDiagramMatchesTheStateMachine() throws IOException {
        String rendered = render();
        String committed = Files.exists(FILE) ? Files.readString(FILE, StandardCharsets.UTF_8) : "";
        if (!rendered.equals(committed)) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, rendered, StandardCharsets.UTF_8);
        }
        assertEquals(rendered, committed, FILE + " was out of date and has been rewritten: review and commit it");
    }
}
