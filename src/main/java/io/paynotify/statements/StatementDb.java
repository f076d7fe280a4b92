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
        permit.acquireUninterruptibly();
        try {
            return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, work);
        } finally {
            permit.release();
        }
    }

    /**
     * Statements in autocommit mode (reads, staged inserts, batched deletes). They lock no order, so they run under
     * {@link #AUTO_STATEMENT_TIMEOUT} instead of the pool's 1.5 s: a page of a million-line set, or a batched delete,
     * may take longer on a busy database, and cutting it off would only make the day's work start again. The
     * session's own value comes back ({@code RESET}) before the connection returns to the pool.
     */
    public <T> T auto(Transactions.Work<T> work) {
        permit.acquireUninterruptibly();
        try {
            return transactions.autoCommit(AUTO_STATEMENT_TIMEOUT, work);
        } finally {
            permit.release();
        }
    }
}
