package io.paynotify.persistence;

import java.time.Instant;

/**
 * One row of {@code notifications}: a verified delivery and what it did.
 *
 * @param amount the amount the notice stated in fen, or null
 * @param source {@code NOTIFY} (a provider's delivery) or {@code QUERY} (an answer of the active query)
 * @param rawBody the body exactly as received (personal data: shown to operators only, never logged), or null
 *     once erased
 * @param decoded the decrypted content as a JSON object text (v3 resource, v2 req_info), or null
 * @param personalDataErasedAt when {@code rawBody} and {@code decoded} were erased after
 *     {@code paynotify.notifications.personal-data-retention} (or the body this row shares with an earlier delivery
 *     of the same day was), else null
 */
public record NotificationRow(
        long id,
        String channel,
        String outTradeNo,
        String provider,
        Instant receivedAt,
        String outcome,
        String reason,
        String providerStatus,
        String transactionId,
        Long amount,
        String source,
        byte[] rawBody,
        String decoded,
        Instant personalDataErasedAt) {

    @Override
    public String toString() {
        return "NotificationRow[" + id + " " + channel + " " + outcome + "]";
    }
}
