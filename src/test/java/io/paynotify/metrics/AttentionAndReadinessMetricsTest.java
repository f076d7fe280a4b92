package io.paynotify.metrics;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.paynotify.testing.Db;
import io.paynotify.testing.Management;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The gauges behind the attention and readiness panels and alerts: {@code paynotify_orders_attention},
 * {@code paynotify_orders_attention_reasons} (read from the database by {@link AttentionMetrics}),
 * {@code paynotify_ready} and {@code paynotify_readiness_changes_total} (set by the readiness check).
 */
@QuarkusTest
class AttentionAndReadinessMetricsTest {

    static final String ORDERS = "paynotify_orders_attention";
    static final String REASONS = "paynotify_orders_attention_reasons";

    @Inject
    AttentionMetrics attention;

    @Inject
    Meters metrics;

    @Test
    void theAttentionGaugesFollowTheFlaggedOrdersWithBoundedLabels() {
        String prefix = "ATT" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String gone = "gone-" + UUID.randomUUID().toString().substring(0, 8);
        anOrder()
                .channel(TestChannels.ALI)
                .outTradeNo(prefix + "1")
                .attention("AMOUNT_MISMATCH")
                .attention("DUPLICATE_PAYMENT")
                .insert();
        anOrder()
                .channel(TestChannels.ALI)
                .outTradeNo(prefix + "2")
                .attention("AMOUNT_MISMATCH")
                .insert();
        anOrder().channel(TestChannels.ALI).outTradeNo(prefix + "3").insert();
        // a channel no longer configured and a reason code this build does not know: both fold into _unknown
        anOrder()
                .channel(gone)
                .outTradeNo(prefix + "4")
                .attention("NOT_A_REASON")
                .insert();
        try {
            attention.refresh();
            String scrape = Management.scrape();
            assertEquals(
                    Db.count("SELECT count(*) FROM orders WHERE channel = ? AND attention <> '{}'", TestChannels.ALI),
                    Management.sum(scrape, ORDERS, Map.of("channel", TestChannels.ALI)),
                    0.0);
            for (String reason : new String[] {"AMOUNT_MISMATCH", "DUPLICATE_PAYMENT", "PAID_AFTER_CLOSE"}) {
                assertEquals(
                        Db.count(
                                "SELECT count(*) FROM orders WHERE channel = ? AND ? = ANY(attention)",
                                TestChannels.ALI,
                                reason),
                        Management.sum(scrape, REASONS, Map.of("channel", TestChannels.ALI, "reason", reason)),
                        0.0,
                        reason);
            }
            assertEquals(
                    Db.count(
                            "SELECT count(*) FROM orders WHERE channel NOT IN (SELECT unnest(?::text[]))"
                                    + " AND attention <> '{}'",
                            configuredChannels()),
                    Management.sum(scrape, ORDERS, Map.of("channel", Meters.UNKNOWN)),
                    0.0);
            assertFalse(scrape.contains(gone), "an unconfigured channel name is no label");
            assertFalse(scrape.contains("NOT_A_REASON"), "an unknown reason is no label");
        } finally {
            Db.update("DELETE FROM orders WHERE out_trade_no LIKE ?", prefix + "%");
        }
        // a series whose orders are gone goes back to what the database holds, not to its last value
        attention.refresh();
        String after = Management.scrape();
        assertEquals(
                Db.count(
                        "SELECT count(*) FROM orders WHERE channel = ? AND 'DUPLICATE_PAYMENT' = ANY(attention)",
                        TestChannels.ALI),
                Management.sum(after, REASONS, Map.of("channel", TestChannels.ALI, "reason", "DUPLICATE_PAYMENT")),
                0.0);
    }

    @Test
    void theReadinessCheckSetsTheGaugeAndCountsChanges() {
        given().get(Management.url("/q/health/ready")).then().statusCode(200);
        String before = Management.scrape();
        assertEquals(1.0, WebhookBacklogMetricsTest.value(before, "paynotify_ready"), 0.0);
        double changes = WebhookBacklogMetricsTest.value(before, "paynotify_readiness_changes_total");

        metrics.readiness(false);
        assertEquals(0.0, WebhookBacklogMetricsTest.value(Management.scrape(), "paynotify_ready"), 0.0);
        given().get(Management.url("/q/health/ready")).then().statusCode(200);
        given().get(Management.url("/q/health/ready")).then().statusCode(200);

        String after = Management.scrape();
        assertEquals(1.0, WebhookBacklogMetricsTest.value(after, "paynotify_ready"), 0.0);
        assertEquals(
                changes + 2,
                WebhookBacklogMetricsTest.value(after, "paynotify_readiness_changes_total"),
                0.0,
                "DOWN and back UP are two changes; a repeated UP is none");
    }

    static String configuredChannels() {
        return "{"
                + String.join(
                        ",",
                        TestChannels.config().keySet().stream()
                                .filter(k -> k.startsWith("paynotify.channels.\"") && k.endsWith("\".provider"))
                                .map(k -> k.substring(
                                        "paynotify.channels.\"".length(), k.length() - "\".provider".length()))
                                .toList())
                + "}";
    }
}
