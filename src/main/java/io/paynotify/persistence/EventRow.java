package io.paynotify.persistence;

import java.time.Instant;

/**
 * One row of {@code events}.
 *
 * @param id the internal sequence (keyset cursors walk it)
 * @param eventId the public id, {@code evt_…}
 * @param body the exact JSON every delivery sends
 */
public record EventRow(
        long id,
        String eventId,
        String type,
        String channel,
        String outTradeNo,
        long orderId,
        byte[] body,
        Instant createdAt) {

    @Override
    public String toString() {
        // the body carries the order: never in a log line
        return "EventRow[" + eventId + " " + type + " " + channel + "]";
    }
}
