package io.paynotify.statements;

import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.Semaphore;

/**
 * The one way statement work reaches PostgreSQL: every transaction of it waits for this replica's single permit, so
 * statement work never holds more than one pool connection per replica (CONTRACT.md §11 "Work never delays
 * notifications"), however many fetches, uploads and renewals run at once.
 */
@ApplicationScoped
public class StatementDb {

    /** The statement timeout of {@link #auto}'s statements, which hold no order lock. */
    static final String AUTO_STATEMENT_TIMEOUT = "30s";

    private final Transactions transactions;
    private final Semaphore permit = new Semaphore(1, true);

    @Inject
    StatementDb(Transactions transactions) {
        this.transactions = transactions;
    }

    /** One short transaction (retried on a conflict). */
    public <T> T tx(Transactions.Work<T> work) {
        return withPermit(() -> transactions.inTransaction(Transactions.Retry.ON_CONFLICT, work));
    }

    /**
     * One short read (a statement row, the metrics' counts, the scheduler's due days) in autocommit under the pool's
     * own bounds (1.5 s statement, 3 s socket): on a hung database it gives its connection up as quickly as a request
     * does, unlike {@link #auto}'s 35 s.
     */
    public <T> T read(Transactions.Work<T> work) {
        return withPermit(() -> transactions.autoCommit(work));
    }

    /**
     * One unit of statement work that locks no order (a read, a staged insert, a batched delete), in a transaction of
     * its own under {@link #AUTO_STATEMENT_TIMEOUT} instead of the pool's 1.5 s: a page of a million-line set, or a
     * batched delete, may take longer on a busy database, and cutting it off would only make the day's work start
     * again. The longer timeout is {@code SET LOCAL}, so it ends with the transaction, behind PgBouncer too.
     */
    public <T> T auto(Transactions.Work<T> work) {
        return withPermit(() -> transactions.underStatementTimeout(AUTO_STATEMENT_TIMEOUT, work));
    }

    /** Every way in waits for this replica's one permit, so statement work holds at most one pool connection. */
    private <T> T withPermit(java.util.function.Supplier<T> work) {
        permit.acquireUninterruptibly();
        try {
            return work.get();
        } finally {
            permit.release();
        }
    }
}
