package io.paynotify.events;

import io.paynotify.metrics.Meters;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Transactions;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Refreshes the webhook backlog gauges of {@link Meters} ({@code paynotify_webhook_deliveries_pending},
 * {@code paynotify_webhook_oldest_pending_seconds}, {@code paynotify_webhooks_disabled}) from one read of
 * {@link Deliveries#backlog} every 15 seconds, so that a scrape of {@code /q/metrics} never touches the database.
 * Every replica reads the same shared tables: the values are the cluster's, not the replica's.
 */
@ApplicationScoped
public class WebhookBacklogMetrics {

    private static final Logger LOG = Logger.getLogger("io.paynotify.events");

    private final Transactions transactions;
    private final Meters metrics;

    @Inject
    public WebhookBacklogMetrics(Transactions transactions, Meters metrics) {
        this.transactions = transactions;
        this.metrics = metrics;
    }

    @Scheduled(
            identity = "webhook-backlog-metrics",
            every = "15s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            refresh();
        } catch (DatabaseUnavailable e) {
            // the gauges keep their last values until the next refresh succeeds
            LOG.debugf("webhook backlog metrics not refreshed (SQLState %s)", e.sqlState());
        }
    }

    /** Reads the backlog now and sets the gauges. */
    public Deliveries.Backlog refresh() {
        Deliveries.Backlog b = transactions.autoCommit(Deliveries::backlog);
        metrics.webhookBacklog(b.pending(), b.oldestPendingSeconds(), b.disabledWebhooks());
        return b;
    }
}
