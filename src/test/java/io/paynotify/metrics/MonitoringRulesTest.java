package io.paynotify.metrics;

import static io.paynotify.metrics.MonitoringFiles.list;
import static io.paynotify.metrics.MonitoringFiles.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alerts and the dashboard of {@code k8s/} without a cluster: {@code promtool check rules} and
 * {@code promtool test rules} on the PrometheusRule's {@code spec}, the dashboard's PromQL parsed by promtool too,
 * every alert's runbook a heading of docs/operations.md, and the kustomization shipping both. promtool comes with
 * Debian's {@code prometheus} package (CI installs it); without it these tests fail rather than skip. That the metric
 * names exist is {@link MonitoringMetricNamesTest}'s part, against the running service.
 */
@Tag("unit")
class MonitoringRulesTest {

    static final Set<String> SEVERITIES = Set.of("critical", "warning");

    @TempDir
    Path dir;

    @Test
    void theRuleIsAPrometheusOperatorRule() {
        Map<String, Object> rule = MonitoringFiles.rule();
        assertEquals("monitoring.coreos.com/v1", rule.get("apiVersion"));
        assertEquals("PrometheusRule", rule.get("kind"));
        assertFalse(MonitoringFiles.alerts().isEmpty());
    }

    @Test
    void promtoolChecksTheRules() throws Exception {
        writeRules(dir.resolve("rules.yaml"));
        Result r = promtool(dir, "check", "rules", "rules.yaml");
        assertEquals(0, r.exit(), "promtool check rules on the spec of k8s/prometheusrule.yaml:\n" + r.output());
    }

    @Test
    void promtoolUnitTestsOfTheAlertsPass() throws Exception {
        writeRules(dir.resolve("rules.yaml"));
        List<String> args = new ArrayList<>(List.of("test", "rules"));
        for (String test : MonitoringFiles.RULE_TESTS) {
            Files.copy(MonitoringFiles.RULE_TESTS_DIR.resolve(test), dir.resolve(test));
            args.add(test);
        }
        Result r = promtool(dir, args.toArray(String[]::new));
        assertEquals(0, r.exit(), "promtool test rules (src/test/resources/monitoring):\n" + r.output());
    }

    @Test
    void everyAlertIsUnitTested() {
        String tests = MonitoringFiles.RULE_TESTS.stream()
                .map(t -> MonitoringFiles.read(MonitoringFiles.RULE_TESTS_DIR.resolve(t)))
                .collect(Collectors.joining("\n"));
        for (Map<String, Object> alert : MonitoringFiles.alerts()) {
            assertTrue(
                    tests.contains(
                            "alertname: " + alert.get("alert") + "\n        exp_alerts:\n          - exp_labels"),
                    alert.get("alert") + " has a promtool test case in which it fires");
        }
    }

    @Test
    void theDashboardsPromqlParses() throws Exception {
        List<Map<String, Object>> rules = new ArrayList<>();
        int n = 0;
        for (String expr : MonitoringFiles.dashboardExpressions()) {
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("record", "dashboard:panel_query_" + ++n);
            rule.put("expr", MonitoringFiles.withoutGrafanaVariables(expr));
            rules.add(rule);
        }
        assertTrue(n > 10, "the dashboard's queries are found");
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("name", "dashboard");
        group.put("rules", rules);
        Files.writeString(dir.resolve("dashboard.yaml"), MonitoringFiles.yaml().dump(Map.of("groups", List.of(group))));
        Result r = promtool(dir, "check", "rules", "dashboard.yaml");
        assertEquals(0, r.exit(), "the PromQL of k8s/grafana-dashboard.json:\n" + r.output());
    }

    @Test
    void everyAlertHasASeverityASummaryAndARunbookInTheOperationsGuide() {
        String guide = MonitoringFiles.read(MonitoringFiles.OPERATIONS);
        Set<String> anchors = MonitoringFiles.headingAnchors(guide);
        assertTrue(anchors.contains("alerts-and-runbooks"), "docs/operations.md has the section Alerts and runbooks");
        Set<String> names = new HashSet<>();
        for (Map<String, Object> alert : MonitoringFiles.alerts()) {
            String name = String.valueOf(alert.get("alert"));
            assertTrue(names.add(name), "one rule per alert name: " + name);
            assertTrue(SEVERITIES.contains(map(alert.get("labels")).get("severity")), name + " severity");
            Map<String, Object> annotations = map(alert.get("annotations"));
            assertNotNull(annotations.get("summary"), name + " summary");
            assertNotNull(annotations.get("description"), name + " description");
            String url = String.valueOf(annotations.get("runbook_url"));
            assertTrue(url.contains("docs/operations.md#"), name + ": runbook_url into docs/operations.md: " + url);
            String fragment = url.substring(url.indexOf('#') + 1);
            assertEquals(MonitoringFiles.anchor(name), fragment, name + ": the runbook heading is the alert's name");
            assertTrue(anchors.contains(fragment), name + ": docs/operations.md has no heading for #" + fragment);
        }
        // and no runbook for an alert that no longer exists
        String section = guide.substring(guide.indexOf("### Alerts and runbooks"));
        section = section.substring(0, section.indexOf("\n### ", 1));
        Set<String> documented = section.lines()
                .filter(l -> l.startsWith("#### Paynotify"))
                .map(l -> l.substring(5).trim())
                .collect(Collectors.toSet());
        assertEquals(names, documented, "the runbooks of docs/operations.md are the alerts of k8s/prometheusrule.yaml");
    }

    @Test
    void theDashboardUsesTheDatasourceVariableAndAChannelVariable() {
        JsonNode d = MonitoringFiles.dashboard();
        assertTrue(d.path("schemaVersion").asInt() >= 36, "a current Grafana schema");
        Map<String, JsonNode> variables = new LinkedHashMap<>();
        d.path("templating")
                .path("list")
                .forEach(v -> variables.put(v.path("name").asText(), v));
        assertEquals("datasource", variables.get("datasource").path("type").asText());
        assertEquals("prometheus", variables.get("datasource").path("query").asText());
        assertEquals("query", variables.get("channel").path("type").asText());
        Set<Integer> ids = new HashSet<>();
        for (JsonNode p : MonitoringFiles.panels()) {
            assertTrue(ids.add(p.path("id").asInt()), "panel ids are unique: " + p.path("id"));
            if (p.path("type").asText().equals("row")) {
                continue;
            }
            String title = p.path("title").asText();
            assertEquals("${datasource}", p.path("datasource").path("uid").asText(), title);
            assertFalse(p.path("targets").isEmpty(), title + " has queries");
            for (JsonNode t : p.path("targets")) {
                assertEquals("${datasource}", t.path("datasource").path("uid").asText(), title);
            }
        }
    }

    @Test
    void theKustomizationInstallsTheRuleAndTheDashboardForGrafanasSidecar() {
        Map<String, Object> k = map(MonitoringFiles.yaml().load(MonitoringFiles.read(MonitoringFiles.KUSTOMIZATION)));
        assertTrue(list(k.get("resources")).contains("prometheusrule.yaml"));
        boolean found = false;
        for (Object g : list(k.get("configMapGenerator"))) {
            Map<String, Object> generator = map(g);
            if (list(generator.get("files")).contains("grafana-dashboard.json")) {
                Map<String, Object> options = map(generator.get("options"));
                assertEquals("1", map(options.get("labels")).get("grafana_dashboard"), "the sidecar's label");
                found = true;
            }
        }
        assertTrue(found, "a configMapGenerator ships k8s/grafana-dashboard.json");
    }

    @Test
    void theTokenizerFindsMetricNamesOnly() {
        assertEquals(
                Set.of("a_total", "b_bucket", "c"),
                MonitoringFiles.metricNames("sum by (le, x) (rate(a_total{x=~\"y|z\",w!=\"v\"}[5m] offset 1w)) / "
                        + "histogram_quantile(0.99, sum without (q) (rate(b_bucket[$__rate_interval]))) > 2 * c "
                        + "and on (p) d:recorded or absent(c) unless vector(1)"));
    }

    /** The spec of the PrometheusRule, which is plain Prometheus rule-file YAML ({@code groups:}). */
    static void writeRules(Path file) throws IOException {
        Files.writeString(
                file, MonitoringFiles.yaml().dump(MonitoringFiles.rule().get("spec")));
    }

    record Result(int exit, String output) {}

    static Result promtool(Path workDir, String... args) throws Exception {
        String promtool = promtool();
        List<String> command = new ArrayList<>();
        command.add(promtool);
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("promtool " + String.join(" ", args) + " did not finish within 120 s");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** promtool on the PATH; a missing one fails the test (CI installs it), it never skips. */
    static String promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "promtool");
            if (f.isFile() && f.canExecute()) {
                return f.getPath();
            }
        }
        File debian = new File("/usr/bin/promtool");
        if (debian.canExecute()) {
            return debian.getPath();
        }
        fail("promtool is not installed: it checks k8s/prometheusrule.yaml. Install it with"
                + " `apt-get install prometheus` (Debian's package ships /usr/bin/promtool; .ci/run does this)");
        return null;
    }
}
