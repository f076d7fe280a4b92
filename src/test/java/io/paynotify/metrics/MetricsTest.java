package io.paynotify.metrics;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Management;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MetricsTest {

    @Inject
    Meters metrics;

    static String scrape() {
        return given().get(io.paynotify.testing.Management.url("/q/metrics"))
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    /** The value of the one series with exactly these labels (in any order), or 0 when absent. */
    static double value(String text, String name, Map<String, String> labels) {
        return Management.sum(text, name, labels);
    }

    @Test
    void notificationOutcomesRejectionsAndLatencyAreCountedAfterTraffic() {
        String before = scrape();
        String no = "MX" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder().channel(TestChannels.WX).outTradeNo(no).insert();
        Map<String, String> paid = WechatV2Fixtures.signed(
                WechatV2Fixtures.paid(no, "4200000077" + no.substring(2, 12), 100), TestChannels.WX_KEY, "MD5");
        given().body(WechatV2Fixtures.body(paid))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(200);
        given().body(WechatV2Fixtures.body(paid))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(200);
        // forged: the right fields signed with another key
        Map<String, String> forged = WechatV2Fixtures.signed(
                WechatV2Fixtures.paid(no, "4200000077" + no.substring(2, 12), 100), "x".repeat(32), "MD5");
        given().body(WechatV2Fixtures.body(forged))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(401);
        given().body("<xml><unclosed>".getBytes(StandardCharsets.UTF_8))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(400);
        String strange = "evil-" + UUID.randomUUID().toString().substring(0, 8);
        given().body(WechatV2Fixtures.body(paid))
                .post("/notify/wechatpay/" + strange)
                .then()
                .statusCode(404);
        // a WeChat channel on the Alipay endpoint is a channel of another provider
        given().body("a=b").post("/notify/alipay/" + TestChannels.WX).then().statusCode(404);

        String after = scrape();
        String wx = TestChannels.WX;
        assertDelta(
                before,
                after,
                "paynotify_notifications_total",
                Map.of("channel", wx, "provider", "WECHATPAY_V2", "outcome", "APPLIED", "reason", "none"),
                1);
        assertDelta(
                before,
                after,
                "paynotify_notifications_total",
                Map.of("channel", wx, "provider", "WECHATPAY_V2", "outcome", "DUPLICATE", "reason", "none"),
                1);
        assertDelta(
                before,
                after,
                "paynotify_notifications_rejected_total",
                Map.of("channel", wx, "provider", "WECHATPAY_V2", "cause", "SIGNATURE"),
                1);
        assertDelta(
                before,
                after,
                "paynotify_notifications_rejected_total",
                Map.of("channel", wx, "cause", "UNPARSEABLE"),
                1);
        assertDelta(
                before,
                after,
                "paynotify_notifications_rejected_total",
                Map.of("channel", "_unknown", "provider", "WECHATPAY_V2", "cause", "UNKNOWN_CHANNEL"),
                1);
        assertDelta(
                before,
                after,
                "paynotify_notifications_rejected_total",
                Map.of("channel", "_unknown", "provider", "ALIPAY", "cause", "UNKNOWN_CHANNEL"),
                1);
        assertDelta(
                before,
                after,
                "paynotify_ack_latency_seconds_count",
                Map.of("provider", "WECHATPAY_V2", "status", "200"),
                2);
        assertDelta(
                before,
                after,
                "paynotify_ack_latency_seconds_count",
                Map.of("provider", "WECHATPAY_V2", "status", "401"),
                1);
        assertTrue(after.contains("paynotify_ack_latency_seconds_bucket{"), "a histogram, with buckets");
        assertTrue(after.contains("le=\"0.1\""), "fixed buckets around the 3 s deadline");

        // every rejection series exists from the start, at zero where nothing happened yet
        assertTrue(
                after.contains("paynotify_notifications_rejected_total{cause=\"DECRYPTION\",channel=\""
                        + TestChannels.WX3 + "\",provider=\"WECHATPAY_V3\"}"),
                "pre-registered");
        // paths nothing serves do not become labels of the HTTP metrics either
        given().get("/admin/" + strange).then().statusCode(401);
        given().get("/api/v1/orders/" + strange + "/x")
                .then()
                .statusCode(org.hamcrest.Matchers.anyOf(org.hamcrest.Matchers.is(401), org.hamcrest.Matchers.is(404)));
        after = scrape();
        // labels never carry what a request sent: not the path's channel, not an order number
        String leaked =
                after.lines().filter(l -> l.contains(strange)).collect(java.util.stream.Collectors.joining("\n"));
        assertEquals("", leaked, "an unknown channel name must not become a label");
        assertFalse(after.contains(no), "an outTradeNo must not become a label");
    }

    @Test
    void preRegisteredCausesAreExactlyTheRejectionCauses() {
        var causes = new java.util.ArrayList<String>(java.util.List.of(Meters.ADMISSION));
        java.util.Arrays.stream(io.paynotify.provider.NotifyRejection.Cause.values())
                .map(Enum::name)
                .forEach(causes::add);
        assertEquals(causes, Meters.REJECTION_CAUSES);
    }

    @Test
    void merchantApiReplaysAndConflictsAreCounted() {
        String before = scrape();
        var client = io.paynotify.testing.MerchantClient.a();
        String no =
                "MET" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        String key = java.util.UUID.randomUUID().toString();
        String body = io.paynotify.testing.MerchantClient.order(io.paynotify.testing.TestChannels.WX, no, 100);
        client.create(key, body);
        client.create(key, body);
        client.create(key, io.paynotify.testing.MerchantClient.order(io.paynotify.testing.TestChannels.WX, no, 200));
        String after = scrape();
        assertDelta(before, after, "paynotify_idempotency_conflicts_total", Map.of("kind", "OTHER_BODY"), 1);
        assertTrue(counter(after, "paynotify_idempotency_replays_total")
                        - counter(before, "paynotify_idempotency_replays_total")
                >= 1);
    }

    static double counter(String scrape, String name) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    @Test
    void idempotencyAndCleanupCountersAreExported() {
        String before = scrape();
        metrics.idempotencyReplay();
        metrics.idempotencyConflict(Meters.IdempotencyConflict.IN_FLIGHT);
        metrics.idempotencyConflict(Meters.IdempotencyConflict.OTHER_BODY);
        metrics.cleanupRun(7);
        metrics.cleanupFailed();
        metrics.rejected("no-such-channel", null, "STALE");
        String after = scrape();
        assertTrue(after.matches("(?s).*\\npaynotify_idempotency_replays_total(\\{[^}]*\\})? [0-9.E]+\\n.*"), after);
        assertDelta(before, after, "paynotify_idempotency_conflicts_total", Map.of("kind", "IN_FLIGHT"), 1);
        assertDelta(before, after, "paynotify_idempotency_conflicts_total", Map.of("kind", "OTHER_BODY"), 1);
        assertDelta(before, after, "paynotify_idempotency_cleanup_runs_total", Map.of("result", "ok"), 1);
        assertDelta(before, after, "paynotify_idempotency_cleanup_runs_total", Map.of("result", "failed"), 1);
        assertTrue(after.contains("paynotify_idempotency_cleanup_removed_total"));
        assertDelta(
                before,
                after,
                "paynotify_notifications_rejected_total",
                Map.of("channel", "_unknown", "provider", "_unknown", "cause", "STALE"),
                1);
        assertFalse(after.contains("no-such-channel"));
    }

    static void assertDelta(String before, String after, String name, Map<String, String> labels, double expected) {
        double delta = value(after, name, labels) - value(before, name, labels);
        if (Math.abs(delta - expected) > 1e-9) {
            throw new AssertionError(name + labels + " changed by " + delta + ", expected " + expected);
        }
    }
}
