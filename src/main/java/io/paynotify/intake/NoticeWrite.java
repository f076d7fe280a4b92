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
