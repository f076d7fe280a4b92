package io.paynotify.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the monitoring files of {@code k8s/} (the PrometheusRule and the Grafana dashboard) and
 * {@code docs/operations.md} for {@link MonitoringRulesTest} and {@link MonitoringMetricNamesTest}: their
 * expressions, the metric names those use, and the guide's heading anchors.
 */
final class MonitoringFiles {

    static final Path RULE = Path.of("k8s/prometheusrule.yaml");
    static final Path DASHBOARD = Path.of("k8s/grafana-dashboard.json");
    static final Path KUSTOMIZATION = Path.of("k8s/kustomization.yaml");
    static final Path OPERATIONS = Path.of("docs/operations.md");

    /** The promtool unit tests of the rules, run next to the extracted rules file. */
    static final List<String> RULE_TESTS = List.of("alerts-test.yaml", "alerts-week-test.yaml");

    static final Path RULE_TESTS_DIR = Path.of("src/test/resources/monitoring");

    /** PromQL words that are neither functions nor metric names. */
    static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "offset",
            "bool",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "inf",
            "nan",
            "Inf",
            "NaN");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern BRACES = Pattern.compile("\\{[^}]*}");
    private static final Pattern BRACKETS = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LISTS =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![A-Za-z0-9_:.$])[A-Za-z_:][A-Za-z0-9_:]*");
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)");
    private static final Pattern TEMPLATE_QUERY = Pattern.compile("query\\s+\"((?:[^\"\\\\]|\\\\.)*)\"");

    private MonitoringFiles() {}

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }

    /** The PrometheusRule object. */
    static Map<String, Object> rule() {
        return map(yaml().load(read(RULE)));
    }

    /** Every rule (alerting and recording) of every group of the PrometheusRule's spec. */
    static List<Map<String, Object>> rules() {
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Object g : list(map(rule().get("spec")).get("groups"))) {
            for (Object r : list(map(g).get("rules"))) {
                rules.add(map(r));
            }
        }
        return rules;
    }

    static List<Map<String, Object>> alerts() {
        return rules().stream().filter(r -> r.containsKey("alert")).toList();
    }

    /**
     * The PromQL of the rules: every {@code expr}, and the queries that annotation templates run
     * ({@code {{ with query "..." }}}).
     */
    static List<String> ruleExpressions() {
        List<String> exprs = new ArrayList<>();
        for (Map<String, Object> r : rules()) {
            exprs.add(String.valueOf(r.get("expr")));
            Object annotations = r.get("annotations");
            if (annotations != null) {
                for (Object text : map(annotations).values()) {
                    Matcher m = TEMPLATE_QUERY.matcher(String.valueOf(text));
                    while (m.find()) {
                        exprs.add(m.group(1).replace("\\\"", "\""));
                    }
                }
            }
        }
        return exprs;
    }

    static JsonNode dashboard() {
        try {
            return new ObjectMapper().readTree(read(DASHBOARD));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel, those inside collapsed rows included. */
    static List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode p : dashboard().path("panels")) {
            panels.add(p);
            for (JsonNode inner : p.path("panels")) {
                panels.add(inner);
            }
        }
        return panels;
    }

    /** The PromQL of every panel target, with Grafana's variables still in it. */
    static List<String> dashboardExpressions() {
        List<String> exprs = new ArrayList<>();
        for (JsonNode p : panels()) {
            for (JsonNode t : p.path("targets")) {
                exprs.add(t.path("expr").asText());
            }
        }
        return exprs;
    }

    /** The metric names the dashboard's template variables read ({@code label_values(metric, label)}). */
    static Set<String> variableMetricNames() {
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode v : dashboard().path("templating").path("list")) {
            JsonNode q = v.path("query");
            String query = q.isTextual() ? q.asText() : q.path("query").asText();
            Matcher m = LABEL_VALUES.matcher(query);
            if (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** A dashboard expression with Grafana's variables replaced, so that promtool can parse it. */
    static String withoutGrafanaVariables(String expr) {
        return expr.replace("$__rate_interval", "5m")
                .replace("$__range", "1h")
                .replace("$__interval", "1m")
                .replace("$channel", ".*");
    }

    /**
     * The metric names in a PromQL expression: identifiers outside strings, label matchers, range brackets and
     * label lists, that are neither followed by {@code (} (a function or an aggregation) nor keywords. Recording-rule
     * names (with a colon) are left out: they are not the service's.
     */
    static Set<String> metricNames(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        s = BRACES.matcher(s).replaceAll("{}");
        s = BRACKETS.matcher(s).replaceAll("[]");
        s = LABEL_LISTS.matcher(s).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String id = m.group();
            int next = m.end();
            while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
                next++;
            }
            boolean call = next < s.length() && s.charAt(next) == '(';
            if (!call && !KEYWORDS.contains(id) && !id.contains(":")) {
                names.add(id);
            }
        }
        return names;
    }

    /** The anchors GitHub gives the headings of a Markdown file: lower case, punctuation dropped, spaces to '-'. */
    static Set<String> headingAnchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        boolean fenced = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            if (!fenced && line.matches("#{1,6} .*")) {
                anchors.add(anchor(line.replaceFirst("^#+ ", "")));
            }
        }
        return anchors;
    }

    static String anchor(String heading) {
        return heading.trim()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        if (!(o instanceof Map)) {
            throw new AssertionError("expected a mapping, got " + o);
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        if (!(o instanceof List)) {
            throw new AssertionError("expected a list, got " + o);
        }
        return (List<Object>) o;
    }
}
