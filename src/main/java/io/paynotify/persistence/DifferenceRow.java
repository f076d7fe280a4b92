package io.paynotify.persistence;

import java.time.Instant;
import java.time.LocalDate;

/** One row of {@code statement_differences}, as {@link StatementDifferences} reads it (CONTRACT.md §11). */
public record DifferenceRow(
        long id,
        String channel,
        LocalDate billDate,
        String kind,
        String outTradeNo,
        String outRefundNo,
        String subMerchantId,
        String transactionId,
        Long billAmount,
        Long localAmount,
        String localState,
        String status,
        String note,
        String queryResult,
        Instant createdAt,
        Instant updatedAt,
        Instant resolvedAt) {}
