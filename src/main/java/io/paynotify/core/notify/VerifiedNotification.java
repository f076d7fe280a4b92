package io.paynotify.core.notify;

import java.time.Instant;
import java.util.Objects;

/**
 * A notification that passed every check before the state machine: channel, size, parse, required fields,
 * signature, freshness and decryption. Only such notifications are ever stored.
 *
 * @param provider the provider of the channel
 * @param channel the configured channel name
 * @param outTradeNo the merchant's order number, exactly as sent
 * @param transactionId the provider's transaction id, or null
 * @param amountMinor the order total in fen as the provider states it, or null when absent or malformed
 * @param currency the currency compared with the order (CONTRACT.md §1), never null
 * @param providerStatus the provider status as sent (trade_status, result_code, trade_state, refund_status)
 * @param notifyClass what the status means
 * @param finishedNotice true for an Alipay TRADE_FINISHED, which is no duplicate after a TRADE_SUCCESS
 * @param paidAt the provider's payment time, or null when absent or malformed
 * @param accountMismatch true when an account id differs from the channel (ACCOUNT_MISMATCH)
 * @param notifyId the provider's id of this notice (Alipay notify_id, v3 id), or null
 * @param rawBody the body exactly as received
 * @param decoded the decrypted content as a JSON object text (v3 resource, v2 req_info), or null
 * @param receivedAt when the delivery arrived
 */
public record VerifiedNotification(
        Provider provider,
        String channel,
        String outTradeNo,
        String transactionId,
        Long amountMinor,
        String currency,
        String providerStatus,
        NotifyClass notifyClass,
        boolean finishedNotice,
        Instant paidAt,
        boolean accountMismatch,
        String notifyId,
        byte[] rawBody,
        String decoded,
        Instant receivedAt) {

    public VerifiedNotification {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(outTradeNo, "outTradeNo");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(notifyClass, "notifyClass");
        Objects.requireNonNull(rawBody, "rawBody");
        Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** Never prints the raw body: it carries personal data. */
    @Override
    public String toString() {
        return "VerifiedNotification[" + provider + " " + channel + " " + outTradeNo + " " + notifyClass + " "
                + providerStatus + "]";
    }
}
