package io.paynotify.core.order;

import java.util.ArrayList;
import java.util.List;

/**
 * What the state machine decided for one notification.
 *
 * @param outcome the outcome recorded with the notification
 * @param reason the reason code (IGNORED and ANOMALY only), else null
 * @param newState the state the order moves to, or null when it stays
 * @param attention reason codes to add to the order's attention (empty for none)
 * @param successAck true when the provider gets its success ack, false for the failure ack (422)
 * @param refund what happens to a refund row (REFUND notices only), or null when no refund row changes
 * @param refundedAmount the order's refunded amount after the decision, or null when it stays
 */
public record Decision(
        Outcome outcome,
        Reason reason,
        OrderState newState,
        List<Reason> attention,
        boolean successAck,
        RefundChange refund,
        Long refundedAmount) {

    public Decision {
        attention = List.copyOf(attention);
    }

    /** A decision that touches no refund. */
    public Decision(Outcome outcome, Reason reason, OrderState newState, List<Reason> attention, boolean successAck) {
        this(outcome, reason, newState, attention, successAck, null, null);
    }

    static Decision applied(OrderState to) {
        return new Decision(Outcome.APPLIED, null, to, List.of(), true);
    }

    static Decision duplicate(List<Reason> attention) {
        return new Decision(Outcome.DUPLICATE, null, null, attention, true);
    }

    static Decision ignored(Reason reason, List<Reason> attention) {
        return new Decision(Outcome.IGNORED, reason, null, attention, reason.successAck());
    }

    static Decision anomaly(Reason reason, List<Reason> extraAttention) {
        return anomaly(reason, extraAttention, reason.successAck());
    }

    static Decision anomaly(Reason reason, List<Reason> extraAttention, boolean successAck) {
        var attention = new ArrayList<Reason>();
        attention.add(reason);
        for (Reason r : extraAttention) {
            if (!attention.contains(r)) {
                attention.add(r);
            }
        }
        return new Decision(Outcome.ANOMALY, reason, null, attention, successAck);
    }

    /** The same decision, also changing a refund row (and the order's refunded amount and state, where given). */
    Decision withRefund(RefundChange change, OrderState to, Long refunded) {
        return new Decision(outcome, reason, to, attention, successAck, change, refunded);
    }

    /**
     * The reasons this decision adds to an order's attention list: those of {@link #attention()} that the list does
     * not hold yet, in order. The list is append-only, so the new list is {@code current} followed by these.
     */
    public List<String> addedAttention(List<String> current) {
        var added = new ArrayList<String>();
        for (Reason r : attention) {
            if (!current.contains(r.name()) && !added.contains(r.name())) {
                added.add(r.name());
            }
        }
        return added;
    }

    /**
     * True when applying this decision would leave the order and its refunds exactly as they are: no new state, no
     * refund row changed, no reason the attention list lacks. Such a decision (a duplicate, an ignored notice) needs
     * no write but the delivery's row.
     */
    public boolean changesNothing(List<String> currentAttention) {
        return newState == null
                && refund == null
                && refundedAmount == null
                && addedAttention(currentAttention).isEmpty();
    }

    /** True when this decision pays the order: only then are transactionId and paidAt set. */
    public boolean pays() {
        return outcome == Outcome.APPLIED && newState == OrderState.SUCCESS;
    }
}
