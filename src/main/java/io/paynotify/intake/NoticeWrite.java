package io.paynotify.intake;

import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.core.order.Reason;
import io.paynotify.core.order.RefundSnapshot;
import io.paynotify.events.EventOutbox;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.RefundRow;
import io.paynotify.persistence.Refunds;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The business write of one notice, on its locked order and in the caller's transaction: decide with the pure
 * {@link OrderStateMachine}, record the delivery, apply the decision to the order (pay, close, refund or flag), and
 * write the merchant events it causes. This is the file to open for "a notice of this kind now also does X"; how
 * notices are batched, locked and retried is {@link BatchTransaction}'s business.
 */
@Singleton
class NoticeWrite {

    private final EventOutbox outbox;
    private final IntakeFaults faults;

    @Inject
    NoticeWrite(EventOutbox outbox, IntakeFaults faults) {
        this.outbox = outbox;
        this.faults = faults;
    }

    /** A written notice: its outcome and its order as this transaction now holds it (null: no order). */
    record Written(IntakeOutcome outcome, OrderRow order) {}

    /**
     * Decides one notice on its locked order ({@code order} null: none exists) and writes what the decision says.
     *
     * @param transactionElsewhere true when the notice's transaction id already sits on another order
     */
    Written write(Connection c, VerifiedNotification n, Source source, OrderRow order, boolean transactionElsewhere)
            throws SQLException {
        Decision d = decide(c, n, order, transactionElsewhere);
        Long notificationId = Notifications.insertCapped(c, n, source, order == null ? null : order.id(), d);
        faults.afterNotificationInsert(c, n);
        if (order == null) {
            return new Written(IntakeOutcome.decided(d, notificationId, 0), null);
        }
        List<String> added = d.addedAttention(order.attention());
        OrderRow after = apply(c, n, order, d);
        if (n.queryWhenUnbound() && d.reason() == Reason.ACCOUNT_MISMATCH) {
            // an ISV notice that names no merchant: only the provider's answer can say whose payment it was
            Orders.dueNow(c, order.id());
        }
        // in this transaction: the events exist if and only if the change commits
        int events = outbox.afterDecision(c, after, d, added);
        return new Written(IntakeOutcome.decided(d, notificationId, events), after);
    }

    /**
     * Whether a notice can be written with its batch's statements ({@link #plan}, {@link #writeAll}): one that names
     * no refund (whose row must be read and written) and makes no query due.
     */
    static boolean batchable(VerifiedNotification n) {
        return n.refund() == null && !n.queryWhenUnbound();
    }

    /**
     * A batchable notice decided on its order as the batch left it, nothing written yet.
     *
     * @param before its order before it (null: no order)
     * @param after its order after it: {@code before} itself when the decision changes nothing
     */
    record Planned(
            VerifiedNotification n,
            Source source,
            OrderRow before,
            Decision d,
            OrderRow after,
            List<String> addedAttention) {}

    /** Decides a {@link #batchable} notice and computes the order it leaves, without a statement. */
    static Planned plan(VerifiedNotification n, Source source, OrderRow order, boolean transactionElsewhere) {
        Decision d = OrderStateMachine.decide(order == null ? null : order.snapshot(), null, n, transactionElsewhere);
        if (order == null) {
            return new Planned(n, source, null, d, null, List.of());
        }
        return new Planned(n, source, order, d, changed(n, order, d), d.addedAttention(order.attention()));
    }

    /**
     * Writes a batch of planned notices, in arrival order, with one statement per table: their notification rows,
     * the orders as the last of each left them, their events. Each member's outcome, in order.
     */
    List<IntakeOutcome> writeAll(Connection c, List<Planned> planned) throws SQLException {
        var rows = new ArrayList<Notifications.Insert>(planned.size());
        for (Planned p : planned) {
            rows.add(new Notifications.Insert(
                    p.n(), p.source(), p.before() == null ? null : p.before().id(), p.d()));
        }
        Long[] ids = Notifications.insertAll(c, rows);
        for (Planned p : planned) {
            faults.afterNotificationInsert(c, p.n());
        }
        var changes = new LinkedHashMap<Long, Orders.Change>();
        var decided = new ArrayList<EventOutbox.Decided>();
        for (Planned p : planned) {
            if (p.before() == null) {
                continue;
            }
            if (p.after() != p.before()) {
                changes.merge(
                        p.after().id(),
                        new Orders.Change(p.before(), p.after(), 1),
                        (was, now) -> new Orders.Change(was.before(), now.after(), was.changes() + 1));
            }
            decided.add(new EventOutbox.Decided(p.after(), p.d(), p.addedAttention()));
        }
        if (!changes.isEmpty()) {
            Orders.applyAll(c, changes.values());
        }
        // in this transaction: the events exist if and only if the changes commit
        int[] events = outbox.afterDecisions(c, decided);
        var out = new ArrayList<IntakeOutcome>(planned.size());
        int e = 0;
        for (int i = 0; i < planned.size(); i++) {
            Planned p = planned.get(i);
            out.add(IntakeOutcome.decided(p.d(), ids[i], p.before() == null ? 0 : events[e++]));
        }
        return out;
    }

    /**
     * The order as {@link #apply} leaves it, computed: the columns its update sets, times as PostgreSQL stores them.
     */
    private static OrderRow changed(VerifiedNotification n, OrderRow o, Decision d) {
        if (d.changesNothing(o.attention())) {
            return o;
        }
        if (d.refund() != null) {
            throw new IllegalStateException("a refund decision is written on its own");
        }
        var attention = new ArrayList<>(o.attention());
        attention.addAll(d.addedAttention(o.attention()));
        Instant now = Orders.stored(n.receivedAt());
        OrderState state = o.state();
        String transactionId = o.transactionId();
        Instant paidAt = o.paidAt();
        String paidProviderStatus = o.paidProviderStatus();
        if (d.pays()) {
            if (o.state() != OrderState.PENDING) {
                throw new IllegalStateException("a payment of an order that is not PENDING");
            }
            state = OrderState.SUCCESS;
            transactionId = n.transactionId();
            paidAt = Orders.stored(n.paidAt() != null ? n.paidAt() : n.receivedAt());
            paidProviderStatus = n.providerStatus();
        } else if (d.newState() == OrderState.CLOSED) {
            if (o.state() != OrderState.PENDING) {
                throw new IllegalStateException("a close of an order that is not PENDING");
            }
            state = OrderState.CLOSED;
        }
        return new OrderRow(
                o.id(),
                o.channel(),
                o.outTradeNo(),
                o.provider(),
                o.amount(),
                o.currency(),
                o.description(),
                state,
                transactionId,
                paidAt,
                paidProviderStatus,
                o.refundedAmount(),
                attention,
                o.createdAt(),
                now,
                o.lastQueriedAt(),
                o.queryCount(),
                o.subMerchantId(),
                o.subAppId());
    }

    /** The decision alone, on the order as read (locked or not) and the refund the notice names. */
    static Decision decide(Connection c, VerifiedNotification n, OrderRow order, boolean transactionElsewhere)
            throws SQLException {
        return OrderStateMachine.decide(
                order == null ? null : order.snapshot(), refund(c, order, n), n, transactionElsewhere);
    }

    /** The refund a REFUND notice names, as it stands (protected by the order's row lock), or null. */
    private static RefundSnapshot refund(Connection c, OrderRow order, VerifiedNotification n) throws SQLException {
        if (order == null || n.refund() == null || !n.refund().identified()) {
            return null;
        }
        RefundRow row = Refunds.find(c, n.channel(), n.outTradeNo(), n.refund().outRefundNo());
        return row == null ? null : row.snapshot();
    }

    /** Writes the decision's change of the order; returns the order as it now stands. */
    private static OrderRow apply(Connection c, VerifiedNotification n, OrderRow order, Decision d)
            throws SQLException {
        if (d.changesNothing(order.attention())) {
            // a duplicate or an ignored notice: the order stays as it is
            return order;
        }
        var attention = new ArrayList<>(order.attention());
        attention.addAll(d.addedAttention(order.attention()));
        Instant now = n.receivedAt();
        if (d.refund() != null) {
            Refunds.apply(c, order.id(), n.channel(), n.outTradeNo(), d.refund(), now);
            return Orders.refund(c, order.id(), d.newState(), d.refundedAmount(), attention, now);
        } else if (d.pays()) {
            Instant paidAt = n.paidAt() != null ? n.paidAt() : n.receivedAt();
            return Orders.pay(c, order.id(), n.transactionId(), paidAt, n.providerStatus(), attention, now);
        } else if (d.newState() == OrderState.CLOSED) {
            return Orders.close(c, order.id(), attention, now);
        } else {
            return Orders.flag(c, order.id(), attention, now);
        }
    }
}
