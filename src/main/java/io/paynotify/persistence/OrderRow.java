package io.paynotify.persistence;

import io.paynotify.core.order.OrderSnapshot;
import io.paynotify.core.order.OrderState;
import java.time.Instant;
import java.util.List;

/**
 * One row of {@code orders}, as {@link Orders} reads it. The APIs render it (merchant and admin alike); the intake
 * hands the state machine its {@link #snapshot()}.
 *
 * @param attention reason codes, oldest first (append-only)
 * @param paidProviderStatus the provider status of the notification that paid it, or null
 * @param refundedAmount fen refunded so far (refunds in SUCCESS only)
 * @param lastQueriedAt when the provider was last asked about this order (active query), or null
 * @param queryCount how often the provider was asked
 * @param subMerchantId the sub-merchant of an order of a service-provider or ISV channel, else null
 * @param subAppId the sub-merchant's app id the order names (service providers), or null
 */
public record OrderRow(
        long id,
        String channel,
        String outTradeNo,
        String provider,
        long amount,
        String currency,
        String description,
        OrderState state,
        String transactionId,
        Instant paidAt,
        String paidProviderStatus,
        long refundedAmount,
        List<String> attention,
        Instant createdAt,
        Instant updatedAt,
        Instant lastQueriedAt,
        int queryCount,
        String subMerchantId,
        String subAppId) {

    public OrderRow {
        attention = List.copyOf(attention);
    }

    /** What the pure state machine needs of this order. */
    public OrderSnapshot snapshot() {
        return new OrderSnapshot(
                state, amount, currency, transactionId, paidProviderStatus, refundedAmount, subMerchantId, subAppId);
    }
}
