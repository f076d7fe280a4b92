package io.paynotify.metrics;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.testing.Management;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every metric name that k8s/prometheusrule.yaml and k8s/grafana-dashboard.json use is one the running service
 * exports on {@code /q/metrics} (management port), so that renaming a metric breaks the build, not the pager.
 */
@QuarkusTest
class MonitoringMetricNamesTest {

    /**
     * Metrics the rules or the dashboard may use that the service does not export (kube-state-metrics, Prometheus'
     * own {@code up}). Empty: the alerts rely on the service's own series only, so that they work with the pod
     * annotations as well as with a ServiceMonitor, with or without kube-state-metrics.
     */
    static final Set<String> NOT_THE_SERVICES = Set.of();

    @Inject
    Meters metrics;

    @Test
    void everyMetricNameOfTheRulesAndTheDashboardIsExported() {
        exerciseTheService();
        String scrape = Management.scrape();
        Set<String> exported = scrape.lines()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0])
                .collect(Collectors.toCollection(TreeSet::new));

        Set<String> used = new LinkedHashSet<>();
        MonitoringFiles.ruleExpressions().forEach(e -> used.addAll(MonitoringFiles.metricNames(e)));
        MonitoringFiles.dashboardExpressions().forEach(e -> used.addAll(MonitoringFiles.metricNames(e)));
        used.addAll(MonitoringFiles.variableMetricNames());
        assertTrue(used.size() > 10, "the tokenizer finds the names: " + used);

        List<String> missing = used.stream()
                .filter(n -> !NOT_THE_SERVICES.contains(n))
                .filter(n -> !exported.contains(n))
                .toList();
        assertEquals(
                List.of(),
                missing,
                "used in k8s/prometheusrule.yaml or k8s/grafana-dashboard.json but not exported by the service"
                        + " (renamed?); exported paynotify series: "
                        + exported.stream()
                                .filter(n -> n.startsWith("paynotify_"))
                                .toList());
        List<String> foreign = used.stream()
                .filter(n -> !n.startsWith("paynotify_") && !NOT_THE_SERVICES.contains(n))
                .toList();
        assertEquals(List.of(), foreign, "a metric that is not the service's goes in NOT_THE_SERVICES, with why");
    }

    @Test
    void theSeriesTheAlertsCountExistAtZeroFromTheStart() {
        String scrape = Management.scrape();
        // a DUPLICATE_PAYMENT nobody sent yet: increase() sees the first one only when the series is already there
        assertTrue(
                scrape.contains("paynotify_notifications_total{channel=\"" + TestChannels.WX_HOOK
                        + "\",outcome=\"ANOMALY\",provider=\"WECHATPAY_V2\",reason=\"DUPLICATE_PAYMENT\"}"),
                "ANOMALY series are registered for every channel");
        for (String reason : List.of("AMOUNT_MISMATCH", "DUPLICATE_PAYMENT", "REFUND_EXCEEDS_AMOUNT")) {
            assertTrue(scrape.contains("reason=\"" + reason + "\""), reason + " is one of the pre-registered reasons");
        }
        assertTrue(
                scrape.contains(
                        "paynotify_webhook_attempts_total{client=\"" + TestChannels.HOOK_A + "\",result=\"gone\"}"),
                "webhook attempts are registered for every client with a webhook");
        assertTrue(scrape.contains("paynotify_readiness_changes_total "), "unlabelled readiness changes");
        assertTrue(
                scrape.contains("paynotify_orders_attention{channel=\"" + TestChannels.ALI + "\"}"),
                "attention gauges for every channel");
        assertTrue(
                scrape.contains("paynotify_isv_tokens_invalid{channel=\"" + TestChannels.ALI_ISV + "\"} 0.0"),
                "the ISV tokens gauge of every isv channel, 0 where the channel does not query");
        String appCertSn = io.paynotify.simulator.sign.AlipayPki.sn(
                TestChannels.aliCertPki().app());
        assertTrue(
                scrape.lines()
                        .anyMatch(l -> l.startsWith("paynotify_certificate_expiry_seconds{")
                                && l.contains("channel=\"" + TestChannels.ALI_CERT + "\"")
                                && l.contains("key=\"app-cert\"")
                                && l.contains("sn=\"" + appCertSn + "\"")),
                "the expiry of every configured certificate: "
                        + scrape.lines()
                                .filter(l -> l.startsWith("paynotify_certificate_expiry_seconds"))
                                .toList());
    }

    /**
     * Makes the series that appear only with traffic appear: one signed, applied WeChat v2 notification (the ack
     * latency histogram), a readiness check, and a query result (the test configuration has no query-enabled
     * channel, since the service would query it; where one is configured its series are registered at start).
     */
    void exerciseTheService() {
        String no = "MON" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder().channel(TestChannels.WX).outTradeNo(no).insert();
        Map<String, String> paid = WechatV2Fixtures.signed(
                WechatV2Fixtures.paid(no, "4200000088" + no.substring(3, 13), 100), TestChannels.WX_KEY, "MD5");
        given().body(WechatV2Fixtures.body(paid))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(200);
        given().get(Management.url("/q/health/ready")).then().statusCode(200);
        metrics.query(TestChannels.WX, QueryResult.ERROR, QueryError.VERIFICATION);
    }
}
