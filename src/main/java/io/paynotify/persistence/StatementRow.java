package io.paynotify.persistence;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * One row of {@code statements}, as {@link Statements} reads it, with the day's OPEN differences counted.
 *
 * @param storedStatus {@code READ} (a bill was read: the status shown is derived), {@code NO_BILL},
 *     {@code NOT_READY} or {@code ERROR}
 * @param error the error code of an {@code ERROR} day, else null
 * @param source {@code FETCH} or {@code UPLOAD}
 * @param firstAttemptAt the first fetch attempt of the current series of retries, or null
 * @param openDifferences the day's OPEN differences
 */
public record StatementRow(
        String channel,
        LocalDate billDate,
        String storedStatus,
        String error,
        String source,
        Instant fetchedAt,
        String fileSha256,
        int attempts,
        Instant firstAttemptAt,
        Instant nextAttemptAt,
        long paymentCount,
        long paymentAmount,
        long refundCount,
        long refundAmount,
        long foreignCount,
        long foreignAmount,
        BigDecimal fees,
        long openDifferences) {

    /** The status CONTRACT.md §11 shows: a read bill is DIFFERENCES while the day has an OPEN difference. */
    public String status() {
        if (!"READ".equals(storedStatus)) {
            return storedStatus;
        }
        return openDifferences > 0 ? "DIFFERENCES" : "RECONCILED";
    }

    /** Whether the day is settled for the missing-at-provider windows: a bill read, or no bill at all. */
    public boolean settled() {
        return "READ".equals(storedStatus) || "NO_BILL".equals(storedStatus);
    }
}
