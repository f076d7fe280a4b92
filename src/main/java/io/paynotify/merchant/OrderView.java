package io.paynotify.merchant;

import java.time.Instant;
import java.util.List;

/** One order as the merchant API shows it (CONTRACT.md §3 order JSON), read from the {@code orders} row. */
record OrderView(
        long id,
        String channel,
        String outTradeNo,
        String provider,
        long amount,
        String currency,
        String description,
        String state,
        String transactionId,
        Instant paidAt,
        Instant createdAt,
        Instant updatedAt,
        List<String> attention) {}
