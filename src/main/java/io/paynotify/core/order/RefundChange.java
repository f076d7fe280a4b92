package io.paynotify.core.order;

import java.time.Instant;

/**
 * What a decision does to one refund row: create it or move it to a new status.
 *
 * @param outRefundNo the refund's identity within its trade
 * @param refundId the provider's refund id, or null
 * @param status the refund's status after the change
 * @param amount fen: the refund's amount, whatever its status (docs/api.md "Refunds"): the notice's own refund amount
 *     (v2 {@code refund_fee}, v3 {@code amount.refund}), or for a cumulative notice (Alipay) what it added to the
 *     order's refunded total; null when the notice states none (a v2 {@code CHANGE}/{@code REFUNDCLOSE} without
 *     {@code refund_fee}), which keeps the amount a refund row already holds. Only a SUCCESS refund counts in the
 *     order's refunded amount, and that total travels in {@link Decision#refundedAmount()}
 * @param succeededAt when it succeeded (only for SUCCESS), else null
 */
public record RefundChange(
        String outRefundNo, String refundId, RefundStatus status, Long amount, Instant succeededAt) {}
