package io.paynotify.core.order;

/**
 * The part of a locked order row the state machine needs.
 *
 * @param state the current state
 * @param amountMinor the expected total in fen
 * @param currency the expected currency
 * @param transactionId the provider transaction id set when it was paid, or null
 * @param paidProviderStatus the provider status of the notification that paid it, or null
 * @param refundedAmount fen refunded so far (refunds in SUCCESS)
 */
public record OrderSnapshot(
        OrderState state,
        long amountMinor,
        String currency,
        String transactionId,
        String paidProviderStatus,
        long refundedAmount) {

    /** An order nothing was refunded from. */
    public OrderSnapshot(
            OrderState state, long amountMinor, String currency, String transactionId, String paidProviderStatus) {
        this(state, amountMinor, currency, transactionId, paidProviderStatus, 0);
    }
}
