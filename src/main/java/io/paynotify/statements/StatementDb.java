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

    /** Statements in autocommit mode (reads, staged inserts, batched deletes). */
    public <T> T auto(Transactions.Work<T> work) {
        permit.acquireUninterruptibly();
        try {
            return transactions.autoCommit(work);
        } finally {
            permit.release();
        }
    }
}
