package io.paynotify.core.statement;

import io.paynotify.core.order.OrderState;

/**
 * The local order a bill line is compared with.
 *
 * @param state its state
 * @param amount its amount in fen
 * @param transactionId the provider's transaction id of a paid order, else null
 * @param subMerchantId its sub-merchant on a partner channel, else null
 */
public record LedgerOrder(OrderState state, long amount, String transactionId, String subMerchantId) {}
