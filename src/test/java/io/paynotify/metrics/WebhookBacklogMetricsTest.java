package io.paynotify.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.events.WebhookBacklogMetrics;
import io.paynotify.persistence.Deliveries;
import io.paynotify.testing.Db;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The webhook backlog gauges on {@code /q/metrics} (management port): present from the start, unlabelled, and
 * showing what the last scheduled read of the database found.
 */
@QuarkusTest
class WebhookBacklogMetricsTest {

    static final String PENDING = "paynotify_webhook_deliveries_pending";
    static final String OLDEST = "paynotify_webhook_oldest_pending_seconds";
    static final String DISABLED = "paynotify_webhooks_disabled";

    @Inject
    WebhookBacklogMetrics backlog;

    /** The value of an unlabelled series; fails when it is absent. */
    static double value(String text, String name) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + " (\\S+)$", Pattern.MULTILINE)
                .matcher(text);
        assertTrue(m.find(), name + " is exported without labels");
        return Double.parseDouble(m.group(1));
    }

    @Test
    void theThreeGaugesAreExportedAndFollowTheDatabase() {
        String text = MetricsTest.scrape();
        for (String name : new String[] {PENDING, OLDEST, DISABLED}) {
            assertTrue(text.contains("# TYPE " + name + " gauge"), name + " is a gauge");
            assertTrue(value(text, name) >= 0, name);
        }

        String url = "http://metrics-probe.invalid/hook";
        Db.update(
                "INSERT INTO webhook_endpoints (client_id, webhook_url, disabled_at) VALUES ('metrics-probe', ?, now())",
                url);
        try {
            Deliveries.Backlog b = backlog.refresh();
            long disabled = Db.count("SELECT count(*) FROM webhook_endpoints WHERE disabled_at IS NOT NULL");
            assertEquals(disabled, b.disabledWebhooks());
            String after = MetricsTest.scrape();
            assertEquals(disabled, value(after, DISABLED), 0.0);
            // the service's own scheduled refresh may land between a refresh here and the scrape (the oldest age
            // grows with the clock, earlier tests' deliveries may complete): a refresh and the scrape right after
            // it agree
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                Deliveries.Backlog now = backlog.refresh();
                String scraped = MetricsTest.scrape();
                return value(scraped, PENDING) == now.pending()
                        && Math.abs(value(scraped, OLDEST) - now.oldestPendingSeconds()) < 1.0;
            });
        } finally {
            Db.update("DELETE FROM webhook_endpoints WHERE client_id = 'metrics-probe'");
            backlog.refresh();
        }
    }
}
