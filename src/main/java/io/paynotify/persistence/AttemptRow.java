package io.paynotify.persistence;

import java.time.Instant;

/**
 * One attempt of a delivery.
 *
 * @param status the HTTP status, or null when none came back
 * @param error a short fixed text ({@code timeout}, {@code connection refused}), or null
 */
public record AttemptRow(long deliveryId, Instant at, Integer status, String error, int durationMs) {}
