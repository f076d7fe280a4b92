package io.paynotify.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.events.WebhookBacklogMetrics;
import io.paynotify.persistence.Deliveries;
import io.paynotify.testing.Db;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
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
            assertEquals(b.pending(), value(after, PENDING), 0.0);
            assertEquals(b.oldestPendingSeconds(), value(after, OLDEST), 1e-6);
        } finally {
            Db.update("DELETE FROM webhook_endpoints WHERE client_id = 'metrics-probe'");
            backlog.refresh();
        }
    }
}
