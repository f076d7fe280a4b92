package io.paynotify.statements;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.config.Channel;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.query.QueryResult;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.StatementDifferences;
import io.paynotify.reconcile.ActiveQuery;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The active queries statement differences schedule (CONTRACT.md §11 "Effects"): after the commit that created a
 * MISSING_LOCALLY on a PENDING order of a query-enabled channel, one query through §9's path
 * ({@link ActiveQuery#queryForStatement}: counted on the order, within {@code max-rate}, recorded with source
 * {@code QUERY}); its result is kept on the difference, and a PAID answer that applied resolves it.
 */
@ApplicationScoped
public class StatementQueries {

    private static final Logger LOG = Logger.getLogger(StatementQueries.class);

    private final ActiveQuery activeQuery;
    private final StatementDb db;
    private final ExecutorService worker =
            Executors.newSingleThreadExecutor(DaemonThreads.named("paynotify-statement-query"));
    private final AtomicInteger inFlight = new AtomicInteger();

    @Inject
    StatementQueries(ActiveQuery activeQuery, StatementDb db) {
        this.activeQuery = activeQuery;
        this.db = db;
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    /** Queues the queries of a committed transaction. */
    void schedule(Channel channel, List<Reconciler.Query> queries) {
        for (Reconciler.Query q : queries) {
            inFlight.incrementAndGet();
            worker.execute(() -> {
                try {
                    run(channel, q);
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        }
    }

    /** Queries queued or running (for tests). */
    public int inFlight() {
        return inFlight.get();
    }

    private void run(Channel channel, Reconciler.Query q) {
        try {
            ActiveQuery.Outcome outcome = activeQuery.queryForStatement(channel, q.outTradeNo());
            OrderRow after = db.read(c -> Orders.find(c, channel.name(), q.outTradeNo()));
            boolean paid = outcome.result() == QueryResult.PAID
                    && outcome.notificationId() != null
                    && after != null
                    && after.state() != OrderState.PENDING
                    && after.state() != OrderState.CLOSED;
            db.tx(c -> {
                StatementDifferences.queried(
                        c, q.differenceId(), outcome.result().name(), paid);
                return null;
            });
        } catch (ActiveQuery.NotQueryable e) {
            LOG.debugf("statement query channel=%s outTradeNo=%s not run: %s", channel.name(), q.outTradeNo(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warnf("statement query channel=%s outTradeNo=%s failed: %s", channel.name(), q.outTradeNo(), e);
        }
    }
}
