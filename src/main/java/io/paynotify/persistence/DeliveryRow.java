package io.paynotify.persistence;

import java.time.Instant;

/**
 * One row of {@code deliveries}: an event on its way to one client's webhook.
 *
 * @param attempts attempts since it was last queued (a redeliver resets it)
 * @param leaseUntil while in the future, a replica is attempting it
 */
public record DeliveryRow(
        long id,
        long eventRowId,
        String clientId,
        String webhookUrl,
        String state,
        int attempts,
        Instant nextAttemptAt,
        Instant leaseUntil,
        Instant lastAttemptAt,
        Integer lastStatus,
        String lastError) {}
