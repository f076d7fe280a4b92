package io.paynotify.core.order;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import java.util.List;
import java.util.Objects;

/**
 * The order state machine of CONTRACT.md §1: a pure function from (order or none, notification) to a
 * {@link Decision}. It never throws for an expected business "no" and does no I/O; the caller holds the order's
 * row lock while it decides and writes the result in the same transaction.
 *
 * <p>Precedence: ACCOUNT_MISMATCH, then TRANSACTION_ON_OTHER_ORDER, then the matrix (class × order state).
 */
public final class OrderStateMachine {

    private OrderStateMachine() {}

    /**
     * Decides what one notification does.
     *
     * @param order the locked order, or null when none exists for (channel, outTradeNo)
     * @param n the verified notification
     * @param transactionOnOtherOrder true when n's transaction id already sits on another order of the provider
     * @return the decision; never null
     */
    public static Decision decide(OrderSnapshot order, VerifiedNotification n, boolean transactionOnOtherOrder) {
        Objects.requireNonNull(n, "notification");
        if (n.accountMismatch()) {
            return Decision.anomaly(Reason.ACCOUNT_MISMATCH, List.of());
        }
        if (n.notifyClass() == NotifyClass.PAID && transactionOnOtherOrder) {
            return Decision.anomaly(Reason.TRANSACTION_ON_OTHER_ORDER, List.of());
        }
        return switch (n.notifyClass()) {
            case PAID -> paid(order, n);
            case CLOSE -> close(order);
            case REFUND -> refund(order);
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
        return switch (order.state()) {
            case PENDING ->
                amountDiffers
                        ? Decision.anomaly(Reason.AMOUNT_MISMATCH, List.of())
                        : Decision.applied(OrderState.SUCCESS);
            case SUCCESS -> {
                if (!Objects.equals(order.transactionId(), n.transactionId())) {
                    yield Decision.anomaly(Reason.DUPLICATE_PAYMENT, mismatch);
                }
                // "the trade is now final" after a payment notice of another status (Alipay TRADE_FINISHED after
                // TRADE_SUCCESS) is news, not the same fact again
                if (n.finishedNotice() && !Objects.equals(n.providerStatus(), order.paidProviderStatus())) {
                    yield Decision.ignored(Reason.ALREADY_PAID, mismatch);
                }
                yield Decision.duplicate(mismatch);
            }
            case CLOSED -> Decision.anomaly(Reason.PAID_AFTER_CLOSE, mismatch);
        };
    }

    private static Decision close(OrderSnapshot order) {
        if (order == null) {
            return Decision.ignored(Reason.NO_ORDER, List.of());
        }
        return switch (order.state()) {
            case PENDING -> Decision.applied(OrderState.CLOSED);
            case SUCCESS -> Decision.anomaly(Reason.CLOSED_AFTER_PAID, List.of());
            case CLOSED -> Decision.duplicate(List.of());
        };
    }

    private static Decision refund(OrderSnapshot order) {
        if (order != null && order.state() == OrderState.PENDING) {
            return Decision.anomaly(Reason.REFUND_ON_UNPAID, List.of());
        }
        return Decision.ignored(Reason.REFUND, List.of());
    }
}
