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
 * @param subMerchantId the sub-merchant of an order of a service-provider or ISV channel, else null
 * @param subAppId the sub-merchant's app id the order names, or null
 */
public record OrderSnapshot(
        OrderState state,
        long amountMinor,
        String currency,
        String transactionId,
        String paidProviderStatus,
        long refundedAmount,
        String subMerchantId,
        String subAppId) {

    /** An order of a direct channel. */
    public OrderSnapshot(
            OrderState state,
            long amountMinor,
            String currency,
            String transactionId,
            String paidProviderStatus,
            long refundedAmount) {
        this(state, amountMinor, currency, transactionId, paidProviderStatus, refundedAmount, null, null);
    }

    /** An order nothing was refunded from. */
    public OrderSnapshot(
            OrderState state, long amountMinor, String currency, String transactionId, String paidProviderStatus) {
        this(state, amountMinor, currency, transactionId, paidProviderStatus, 0);
    }
}
