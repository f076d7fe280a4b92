package io.paynotify.metrics;

import io.paynotify.persistence.AttentionCounts;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Transactions;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Refreshes the attention gauges of {@link Meters} ({@code paynotify_orders_attention{channel}} and
 * {@code paynotify_orders_attention_reasons{channel,reason}}) from one read of {@link AttentionCounts} every 30
 * seconds, so that a scrape of {@code /q/metrics} never touches the database. Every replica reads the same shared
 * table: the values are the cluster's, not the replica's (aggregate them with {@code max}).
 */
@ApplicationScoped
public class AttentionMetrics {

    private static final Logger LOG = Logger.getLogger("io.paynotify.metrics");

    private final Transactions transactions;
    private final Meters metrics;

    @Inject
    public AttentionMetrics(Transactions transactions, Meters metrics) {
        this.transactions = transactions;
        this.metrics = metrics;
    }

    @Scheduled(identity = "attention-metrics", every = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            refresh();
        } catch (DatabaseUnavailable e) {
            // the gauges keep their last values until the next refresh succeeds
            LOG.debugf("attention metrics not refreshed (SQLState %s)", e.sqlState());
        }
    }

    /** Reads the counts now and sets the gauges. */
    public AttentionCounts refresh() {
        AttentionCounts counts = transactions.autoCommit(AttentionCounts::read);
        metrics.ordersAttention(counts.byChannel(), counts.byChannelAndReason());
        return counts;
    }
}
