package io.paynotify.core.order;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.RefundNotice;
import io.paynotify.core.notify.VerifiedNotification;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The order state machine of docs/state-machine.md and docs/api.md "Refunds": a pure function from (order or none, its refund or none,
 * notification) to a {@link Decision}. It never throws for an expected business "no" and does no I/O; the caller
 * holds the order's row lock while it decides and writes the result in the same transaction.
 *
 * <p>Precedence: ACCOUNT_MISMATCH (an id of the channel differs; then, once the order is found, the sub-merchant of
 * a service-provider or ISV notice differs from the order's), then TRANSACTION_ON_OTHER_ORDER, then the matrix (class × order state), in which
 * every paid state (SUCCESS, PARTIALLY_REFUNDED, REFUNDED) counts as SUCCESS; REFUND notices follow the refund
 * table of docs/api.md "Refunds", first matching row wins.
 */
public final class OrderStateMachine {

    private OrderStateMachine() {}

    /**
     * Decides what one payment, close, informational or unknown notification does (refunds need their row: use
     * {@link #decide(OrderSnapshot, RefundSnapshot, VerifiedNotification, boolean)}).
     */
    public static Decision decide(OrderSnapshot order, VerifiedNotification n, boolean transactionOnOtherOrder) {
        return decide(order, null, n, transactionOnOtherOrder);
    }

    /**
     * Decides what one notification does.
     *
     * @param order the locked order, or null when none exists for (channel, outTradeNo)
     * @param refund the refund the notice names, as it stands (null when it has no row yet)
     * @param n the verified notification
     * @param transactionOnOtherOrder true when n's transaction id already sits on another order of the provider
     * @return the decision; never null
     */
    public static Decision decide(
            OrderSnapshot order, RefundSnapshot refund, VerifiedNotification n, boolean transactionOnOtherOrder) {
        Objects.requireNonNull(n, "notification");
        if (n.accountMismatch()) {
            return Decision.anomaly(Reason.ACCOUNT_MISMATCH, List.of());
        }
        // step b: on a service-provider or ISV channel, the notice's merchant must be the order's
        if (order != null
                && n.subMerchant() != null
                && !n.subMerchant().matches(order.subMerchantId(), order.subAppId())) {
            return Decision.anomaly(Reason.ACCOUNT_MISMATCH, List.of());
        }
        if (n.notifyClass() == NotifyClass.PAID && transactionOnOtherOrder) {
            return Decision.anomaly(Reason.TRANSACTION_ON_OTHER_ORDER, List.of());
        }
        return switch (n.notifyClass()) {
            case PAID -> paid(order, n);
            case CLOSE -> close(order);
            case REFUND -> refund(order, refund, n);
            case INFO ->
                order == null
                        ? Decision.ignored(Reason.NO_ORDER, List.of())
                        : Decision.ignored(Reason.NOT_FINAL, List.of());
            case UNKNOWN -> Decision.anomaly(Reason.UNKNOWN_STATUS, List.of());
        };
    }

    private static Decision paid(OrderSnapshot order, VerifiedNotification n) {
        if (order == null) {
            return Decision.anomaly(Reason.UNKNOWN_ORDER, List.of());
        }
        boolean amountDiffers = n.amountMinor() == null
                || n.amountMinor() != order.amountMinor()
                || !n.currency().equals(order.currency());
        List<Reason> mismatch = amountDiffers ? List.of(Reason.AMOUNT_MISMATCH) : List.of();
        if (order.state() == OrderState.PENDING) {
            return amountDiffers
                    ? Decision.anomaly(Reason.AMOUNT_MISMATCH, List.of())
                    : Decision.applied(OrderState.SUCCESS);
        }
        if (order.state() == OrderState.CLOSED) {
            return Decision.anomaly(Reason.PAID_AFTER_CLOSE, mismatch);
        }
        // a paid state: SUCCESS, PARTIALLY_REFUNDED or REFUNDED
        if (!Objects.equals(order.transactionId(), n.transactionId())) {
            return Decision.anomaly(Reason.DUPLICATE_PAYMENT, mismatch);
        }
        // "the trade is now final" after a payment notice of another status (Alipay TRADE_FINISHED after
        // TRADE_SUCCESS) is news, not the same fact again
        if (n.finishedNotice() && !Objects.equals(n.providerStatus(), order.paidProviderStatus())) {
            return Decision.ignored(Reason.ALREADY_PAID, mismatch);
        }
        return Decision.duplicate(mismatch);
    }

    private static Decision close(OrderSnapshot order) {
        if (order == null) {
            return Decision.ignored(Reason.NO_ORDER, List.of());
        }
        return switch (order.state()) {
            case PENDING -> Decision.applied(OrderState.CLOSED);
            case SUCCESS, PARTIALLY_REFUNDED, REFUNDED -> Decision.anomaly(Reason.CLOSED_AFTER_PAID, List.of());
            case CLOSED -> Decision.duplicate(List.of());
        };
    }

    /** The refund table of docs/api.md "Refunds", first matching row wins. */
    private static Decision refund(OrderSnapshot order, RefundSnapshot existing, VerifiedNotification n) {
        RefundNotice r = n.refund();
        if (!r.identified()) {
            return Decision.ignored(Reason.REFUND, List.of());
        }
        if (order == null) {
            return Decision.ignored(Reason.NO_ORDER, List.of());
        }
        if (order.state() == OrderState.PENDING) {
            // failure ack: the provider retries the refund until the payment is applied
            return Decision.anomaly(Reason.REFUND_ON_UNPAID, List.of(), false);
        }
        if (order.state() == OrderState.CLOSED) {
            return Decision.anomaly(Reason.REFUND_ON_UNPAID, List.of(), true);
        }
        if (n.transactionId() != null && !n.transactionId().equals(order.transactionId())) {
            return Decision.anomaly(Reason.REFUND_TRANSACTION_MISMATCH, List.of());
        }
        if (r.tradeTotal() != null && r.tradeTotal() != order.amountMinor()) {
            return Decision.anomaly(Reason.AMOUNT_MISMATCH, List.of());
        }
        if (r.cumulative()) {
            if (r.amount() == null || r.amount() <= 0) {
                return Decision.ignored(Reason.REFUND, List.of());
            }
            if (r.amount() <= order.refundedAmount() && (!r.ownRefundNo() || existing != null)) {
                return Decision.duplicate(List.of());
            }
        }
        if (existing != null && existing.status() == RefundStatus.CLOSED) {
            return r.status() == RefundStatus.CLOSED
                    ? Decision.duplicate(List.of())
                    : Decision.ignored(Reason.ALREADY_FINAL, List.of());
        }
        boolean succeeded = existing != null && existing.status() == RefundStatus.SUCCESS;
        return switch (r.status()) {
            case SUCCESS -> {
                if (succeeded) {
                    yield Decision.duplicate(List.of());
                }
                // a cumulative notice adds what its running total has over what is counted so far
                long added = r.cumulative()
                        ? Math.max(0, r.amount() - order.refundedAmount())
                        : r.amount() == null ? 0 : r.amount();
                long total = order.refundedAmount() + added;
                if (total > order.amountMinor()) {
                    yield Decision.anomaly(Reason.REFUND_EXCEEDS_AMOUNT, List.of());
                }
                // the state follows the refunded amount; a notice that adds nothing (Alipay, out of order) keeps it
                OrderState to = added == 0
                        ? null
                        : total == order.amountMinor() ? OrderState.REFUNDED : OrderState.PARTIALLY_REFUNDED;
                Instant at = r.succeededAt() != null ? r.succeededAt() : n.receivedAt();
                yield Decision.applied(to)
                        .withRefund(
                                new RefundChange(r.outRefundNo(), r.refundId(), RefundStatus.SUCCESS, added, at),
                                to,
                                added == 0 ? null : total);
            }
            case CLOSED, PROCESSING, ABNORMAL -> {
                if (succeeded) {
                    // a refund that succeeded never goes back
                    yield Decision.ignored(Reason.ALREADY_FINAL, List.of());
                }
                yield switch (r.status()) {
                    case ABNORMAL ->
                        Decision.anomaly(Reason.REFUND_ABNORMAL, List.of())
                                .withRefund(change(r, RefundStatus.ABNORMAL), null, null);
                    case CLOSED -> Decision.applied(null).withRefund(change(r, RefundStatus.CLOSED), null, null);
                    default ->
                        existing == null
                                ? Decision.ignored(Reason.NOT_FINAL, List.of())
                                        .withRefund(change(r, RefundStatus.PROCESSING), null, null)
                                : Decision.ignored(Reason.NOT_FINAL, List.of());
                };
            }
        };
    }

    /**
     * A refund that moves to a status other than SUCCESS keeps the amount its notice states: an operator acting on an
     * ABNORMAL or CLOSED refund needs to know how much did not reach the payer. A cumulative notice's amount is the
     * trade's running total, not this refund's, so it states none here (Alipay notifies only successful refunds).
     */
    private static RefundChange change(RefundNotice r, RefundStatus to) {
        return new RefundChange(r.outRefundNo(), r.refundId(), to, r.cumulative() ? null : r.amount(), null);
    }
}
