package io.paynotify.provider;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.StatementError;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;

/**
 * One provider's daily bill (CONTRACT.md §11 "Fetching" and "Reading a bill"): downloads a day's bill file to a
 * temporary file, and reads a file (as downloaded, or as an operator uploaded it) line by line. One
 * {@code @ApplicationScoped} implementation per provider package, found by {@link #provider()}, as {@link OrderQuery}.
 * It never touches the database; {@link #fetch} never throws (every failure is a {@link Fetch.Failed}).
 */
public interface BillSource {

    /** The most bytes a bill may have as transferred (CONTRACT.md §11 "Limits"); an upload over it answers 413. */
    long MAX_TRANSFERRED_BYTES = 64L * 1024 * 1024;

    /** The provider this source serves. */
    Provider provider();

    /**
     * Downloads the bill of {@code billDate} (a Beijing day) of a statements-enabled {@code channel} of this provider into
     * {@code target}, exactly as transferred (gzip, text or zip bytes). API calls keep the 5 s limit of §9; the bill
     * download itself may run for {@code downloadTimeout} once its first byte arrived within 5 s.
     */
    Fetch fetch(Channel channel, LocalDate billDate, Path target, Duration downloadTimeout);

    /**
     * Reads a bill file as transferred (the output of {@link #fetch}, or an upload) and hands every detail line to
     * {@code sink}, in order. Nothing of the file may be trusted before this returns: a caller stages lines and uses
     * them only once the read ended without a problem.
     *
     * @throws BillProblem {@code UNPARSEABLE}, {@code TRUNCATED}, {@code TOO_LARGE}, {@code HASH} (v3: the gunzipped
     *     file's SHA-1 differs from {@code expectedSha1}), {@code WRONG_DAY} or {@code WRONG_ACCOUNT}
     */
    void read(Channel channel, Path file, BillRequest request, String expectedSha1, BillSink sink) throws BillProblem;

    /**
     * Whether the provider's refunds are compared per order (Alipay: an order's refund lines of all stored bills
     * against its {@code refundedAmount}) rather than per refund number (WeChat) (CONTRACT.md §11 "Comparing").
     */
    default boolean refundsPerOrder() {
        return provider() == Provider.ALIPAY;
    }

    /** What a fetch gave. */
    sealed interface Fetch {

        /**
         * The bill is in the target file.
         *
         * @param bytes its size as transferred
         * @param expectedSha1 WeChat v3: the answer's {@code hash_value} the gunzipped file must match, else null
         */
        record Downloaded(long bytes, String expectedSha1) implements Fetch {}

        /** The provider has no bill for that day ({@code NO_BILL}). */
        record NoBill(String detail) implements Fetch {}

        /** The bill is not ready yet ({@code NOT_READY}: retried). */
        record NotReady(String detail) implements Fetch {}

        /** The fetch failed with one of the contract's error codes; {@code detail} holds no secret. */
        record Failed(StatementError error, String detail) implements Fetch {}
    }
}
