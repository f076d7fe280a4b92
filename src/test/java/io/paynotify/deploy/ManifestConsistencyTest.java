package io.paynotify.deploy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.testing.Management;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.WithName;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Parses k8s/*.yaml and the Dockerfiles and checks them against the application's own configuration
 * (application.properties, {@link PaynotifyConfig}, the running test application's ports and health paths), so
 * the manifests and the code cannot drift apart.
 */
@QuarkusTest
class ManifestConsistencyTest {

    static final Path K8S = Path.of("k8s");
    static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z0-9_]+)}");

    static Map<String, Map<String, Object>> byKind = new HashMap<>();
    /** The Services by name (there are two: the public one and the management one). */
    static Map<String, Map<String, Object>> services = new HashMap<>();

    static Properties appProperties = new Properties();

    @BeforeAll
    static void load() throws Exception {
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        try (Stream<Path> files = Files.list(K8S)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object doc : yaml.loadAll(Files.readString(f))) {
                    Map<String, Object> m = map(doc);
                    String kind = (String) m.get("kind");
                    assertNotNull(kind, f + " has a kind");
                    if (kind.equals("Service")) {
                        services.put(name(m), m);
                        continue;
                    }
                    assertFalse(byKind.containsKey(kind), "one " + kind + " only");
                    byKind.put(kind, m);
                }
            }
        }
        try (var in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            appProperties.load(in);
        }
    }

    // ---- the Deployment against the running application ----

    @Test
    void deploymentRunsSeveralHardenedReplicas() {
        Map<String, Object> spec = map(deployment().get("spec"));
        assertTrue(((Number) spec.get("replicas")).intValue() >= 2, "at least 2 replicas");
        Map<String, Object> pod = podSpec();
        Map<String, Object> c = container();
        Map<String, Object> sc = map(c.get("securityContext"));
        assertEquals(Boolean.TRUE, sc.get("readOnlyRootFilesystem"));
        assertEquals(Boolean.FALSE, sc.get("allowPrivilegeEscalation"));
        assertTrue(
                Boolean.TRUE.equals(sc.get("runAsNonRoot"))
                        || Boolean.TRUE.equals(map(pod.get("securityContext")).get("runAsNonRoot")),
                "non-root");
        assertEquals(List.of("ALL"), map(sc.get("capabilities")).get("drop"));
        Map<String, Object> resources = map(c.get("resources"));
        for (String kind : List.of("requests", "limits")) {
            for (String r : List.of("cpu", "memory")) {
                assertNotNull(map(resources.get(kind)).get(r), kind + "." + r);
            }
        }
        assertTrue(mebibytes(map(resources.get("limits")).get("memory"))
                >= mebibytes(map(resources.get("requests")).get("memory")));
        // the read-only root needs a writable /tmp
        assertTrue(list(c.get("volumeMounts")).stream().anyMatch(v -> "/tmp".equals(map(v).get("mountPath"))));
    }

    @Test
    void portsMatchTheApplicationAndTheImages() throws Exception {
        Config config = ConfigProvider.getConfig();
        int appPort = Integer.parseInt(appProperties.getProperty("quarkus.http.port", "8080"));
        assertEquals(8080, appPort);
        Map<String, Object> port = map(list(container().get("ports")).get(0));
        assertEquals(appPort, ((Number) port.get("containerPort")).intValue());
        assertEquals("http", port.get("name"));
        assertEquals("true", appProperties.getProperty("quarkus.management.enabled"), "/q on its own port");
        int managementPort = Integer.parseInt(appProperties.getProperty("quarkus.management.port", "9000"));
        Map<String, Object> management = map(list(container().get("ports")).get(1));
        assertEquals(managementPort, ((Number) management.get("containerPort")).intValue());
        assertEquals("management", management.get("name"));
        assertEquals(2, list(container().get("ports")).size(), "the application port and the management port");
        for (String dockerfile : List.of("Dockerfile", "Dockerfile.jvm")) {
            List<String> lines = Files.readAllLines(Path.of(dockerfile));
            assertTrue(lines.contains("EXPOSE " + appPort), dockerfile + " exposes the port");
            assertTrue(lines.contains("EXPOSE " + managementPort), dockerfile + " exposes the management port");
            String user = lines.stream()
                    .filter(l -> l.startsWith("USER "))
                    .reduce((a, b) -> b)
                    .orElseThrow();
            assertTrue(user.matches("USER [1-9][0-9]*"), dockerfile + " runs as a numeric non-root user: " + user);
        }
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains("FROM quay.io/quarkus/ubi9-quarkus-mandrel-builder-image:"));
        assertTrue(dockerfile.contains("FROM quay.io/quarkus/ubi9-quarkus-micro-image:2.0"));
        assertNotNull(config);
    }

    @Test
    void probesUseTheApplicationsHealthPathsAndAnswer() {
        Config config = ConfigProvider.getConfig();
        String root = "/"
                + config.getOptionalValue("quarkus.http.non-application-root-path", String.class)
                        .orElse("q")
                        .replaceAll("^/|/$", "");
        String health = root + "/"
                + config.getOptionalValue("quarkus.smallrye-health.root-path", String.class)
                        .orElse("health")
                        .replaceAll("^/|/$", "");
        String live = health + "/"
                + config.getOptionalValue("quarkus.smallrye-health.liveness-path", String.class)
                        .orElse("live");
        String ready = health + "/"
                + config.getOptionalValue("quarkus.smallrye-health.readiness-path", String.class)
                        .orElse("ready");
        assertEquals("/q/health/live", live);
        assertEquals("/q/health/ready", ready);
        Map<String, Object> c = container();
        assertEquals(live, probePath(c, "livenessProbe"));
        assertEquals(ready, probePath(c, "readinessProbe"));
        assertEquals(live, probePath(c, "startupProbe"));
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertEquals(
                    "management",
                    map(map(c.get(probe)).get("httpGet")).get("port"),
                    probe + " uses the management port");
            given().get(Management.url(probePath(c, probe))).then().statusCode(200);
            // and the application port does not serve it
            given().get(probePath(c, probe)).then().statusCode(404);
        }
        Map<String, Object> annotations =
                map(map(map(deployment().get("spec")).get("template")).get("metadata")).entrySet().stream()
                        .filter(e -> e.getKey().equals("annotations"))
                        .findFirst()
                        .map(e -> map(e.getValue()))
                        .orElseThrow();
        String metrics = (String) annotations.get("prometheus.io/path");
        assertEquals(root + "/metrics", metrics);
        assertEquals(
                appProperties.getProperty("quarkus.management.port", "9000"),
                annotations.get("prometheus.io/port"),
                "Prometheus scrapes the management port");
        given().get(Management.url(metrics)).then().statusCode(200);
        given().get(metrics).then().statusCode(404);
    }

    @Test
    void terminationGraceCoversShutdownDelayAndTimeout() {
        Duration delay = quarkusDuration(appProperties.getProperty("quarkus.shutdown.delay", "0S"));
        Duration timeout = quarkusDuration(appProperties.getProperty("quarkus.shutdown.timeout", "0S"));
        assertEquals("true", appProperties.getProperty("quarkus.shutdown.delay-enabled"));
        int grace = ((Number) podSpec().get("terminationGracePeriodSeconds")).intValue();
        assertTrue(grace > delay.plus(timeout).toSeconds(), "grace " + grace + " s > " + delay.plus(timeout));
        // the readiness probe notices the delay well within it
        Map<String, Object> readiness = map(container().get("readinessProbe"));
        assertTrue(((Number) readiness.get("periodSeconds")).intValue() <= delay.toSeconds());
    }

    // ---- configuration names ----

    @Test
    void everyEnvironmentVariableIsAConfigNameOrAReferenceInTheConfigMap() {
        Set<String> referenced = configMapReferences();
        Set<String> known = knownConfigNames().stream()
                .map(ManifestConsistencyTest::envName)
                .collect(Collectors.toSet());
        Set<String> defined = new HashSet<>();
        for (Object o : list(container().get("env"))) {
            Map<String, Object> env = map(o);
            String name = (String) env.get("name");
            defined.add(name);
            assertTrue(
                    known.contains(name) || referenced.contains(name),
                    name + " is neither a configuration name of the application nor used by the ConfigMap");
            Map<String, Object> from = map(env.getOrDefault("valueFrom", Map.of()));
            if (from.containsKey("secretKeyRef")) {
                Map<String, Object> ref = map(from.get("secretKeyRef"));
                Map<String, Object> secret = byKind.get("Secret");
                assertEquals(name(secret), ref.get("name"), name);
                assertTrue(
                        map(secret.get("stringData")).containsKey((String) ref.get("key")),
                        name + ": the Secret template has key " + ref.get("key"));
            } else if (from.containsKey("configMapKeyRef")) {
                Map<String, Object> ref = map(from.get("configMapKeyRef"));
                assertEquals(name(byKind.get("ConfigMap")), ref.get("name"), name);
                assertTrue(configMapData().containsKey((String) ref.get("key")), name + ": ConfigMap key");
            } else {
                assertNotNull(env.get("value"), name + " has a value");
            }
        }
        for (String r : referenced) {
            assertTrue(defined.contains(r), "${" + r + "} in the ConfigMap is set by the Deployment");
        }
        // every Secret key is used
        Set<String> used = list(container().get("env")).stream()
                .map(o -> map(map(o).getOrDefault("valueFrom", Map.of())).get("secretKeyRef"))
                .filter(java.util.Objects::nonNull)
                .map(r -> (String) map(r).get("key"))
                .collect(Collectors.toSet());
        assertEquals(map(byKind.get("Secret").get("stringData")).keySet(), used, "no unused Secret key");
        // the datasource secrets come from the Secret, never from a literal
        for (String secretName : List.of("QUARKUS_DATASOURCE_PASSWORD", "PAYNOTIFY_ADMIN_TOKENS")) {
            Map<String, Object> env = list(container().get("env")).stream()
                    .map(ManifestConsistencyTest::map)
                    .filter(e -> secretName.equals(e.get("name")))
                    .findFirst()
                    .orElseThrow();
            assertTrue(map(env.get("valueFrom")).containsKey("secretKeyRef"), secretName + " from the Secret");
        }
    }

    @Test
    void theConfigMapIsMountedWhereQuarkusConfigLocationsPoints() {
        String location = list(container().get("env")).stream()
                .map(ManifestConsistencyTest::map)
                .filter(e -> "QUARKUS_CONFIG_LOCATIONS".equals(e.get("name")))
                .findFirst()
                .map(e -> (String) e.get("value"))
                .orElseThrow();
        Map<String, Object> volume = list(podSpec().get("volumes")).stream()
                .map(ManifestConsistencyTest::map)
                .filter(v -> v.containsKey("configMap"))
                .findFirst()
                .orElseThrow();
        Map<String, Object> cm = map(volume.get("configMap"));
        assertEquals(name(byKind.get("ConfigMap")), cm.get("name"));
        Map<String, Object> item = map(list(cm.get("items")).get(0));
        assertTrue(configMapData().containsKey((String) item.get("key")));
        Map<String, Object> mount = list(container().get("volumeMounts")).stream()
                .map(ManifestConsistencyTest::map)
                .filter(m -> volume.get("name").equals(m.get("name")))
                .findFirst()
                .orElseThrow();
        assertEquals(location, mount.get("mountPath") + "/" + item.get("path"));
    }

    @Test
    void everyConfigMapPropertyIsKnownToTheApplicationAndTheChannelsStart() throws Exception {
        Properties p = configMapProperties();
        assertFalse(p.isEmpty());
        Set<String> quarkusKeys = appProperties.stringPropertyNames().stream()
                .map(k -> k.replaceFirst("^%[^.]+\\.", ""))
                .collect(Collectors.toSet());
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("paynotify.")) {
                assertTrue(paynotifyKey(key), key + " is a key of PaynotifyConfig");
            } else {
                assertTrue(quarkusKeys.contains(key), key + " is set in application.properties");
            }
        }
        // the ConfigMap's channels and clients pass the registry's start-up checks (secrets stand in)
        var values = new HashMap<String, String>();
        for (String key : p.stringPropertyNames()) {
            values.put(key, REFERENCE.matcher(p.getProperty(key)).replaceAll("0123456789abcdef0123456789abcdef"));
        }
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                // Quarkus' duration syntax ("24h"), as the application reads it
                .withConverter(Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withSources(new PropertiesConfigSource(values, "configmap", 100))
                .build();
        ChannelRegistry registry = new ChannelRegistry(
                config.getConfigMapping(PaynotifyConfig.class), io.paynotify.testing.KeyParsers.all());
        assertFalse(registry.channels().isEmpty());
    }

    // ---- Service, Ingress, HPA, PDB ----

    @Test
    void serviceIngressAutoscalerAndBudgetPointAtTheDeployment() {
        Map<String, Object> podLabels =
                map(map(map(map(deployment().get("spec")).get("template")).get("metadata"))
                        .get("labels"));
        assertEquals(Set.of("paynotify", "paynotify-management"), services.keySet());
        Map<String, Object> service = services.get("paynotify");
        assertEquals(podLabels, map(map(service.get("spec")).get("selector")));
        assertEquals(1, list(map(service.get("spec")).get("ports")).size(), "the public Service: one port");
        Map<String, Object> servicePort =
                map(list(map(service.get("spec")).get("ports")).get(0));
        assertEquals("http", servicePort.get("targetPort"));
        Map<String, Object> managementService = services.get("paynotify-management");
        assertEquals(podLabels, map(map(managementService.get("spec")).get("selector")));
        assertEquals(
                List.of("management"),
                list(map(managementService.get("spec")).get("ports")).stream()
                        .map(o -> map(o).get("targetPort"))
                        .toList());

        Map<String, Object> ingress = byKind.get("Ingress");
        var paths = new ArrayList<String>();
        for (Object rule : list(map(ingress.get("spec")).get("rules"))) {
            for (Object o : list(map(map(rule).get("http")).get("paths"))) {
                Map<String, Object> path = map(o);
                paths.add((String) path.get("path"));
                assertEquals("Prefix", path.get("pathType"));
                Map<String, Object> backend = map(map(path.get("backend")).get("service"));
                assertEquals(name(service), backend.get("name"));
                assertEquals(servicePort.get("name"), map(backend.get("port")).get("name"));
            }
        }
        assertEquals(List.of("/notify", "/api"), paths, "only /notify/** and /api/** face the internet");
        assertFalse(map(ingress.get("spec")).containsKey("defaultBackend"));

        Map<String, Object> hpa = map(byKind.get("HorizontalPodAutoscaler").get("spec"));
        assertEquals(name(deployment()), map(hpa.get("scaleTargetRef")).get("name"));
        assertEquals("Deployment", map(hpa.get("scaleTargetRef")).get("kind"));
        int replicas = ((Number) map(deployment().get("spec")).get("replicas")).intValue();
        assertTrue(((Number) hpa.get("minReplicas")).intValue() >= replicas);
        assertTrue(((Number) hpa.get("maxReplicas")).intValue() >= ((Number) hpa.get("minReplicas")).intValue());

        Map<String, Object> pdb = map(byKind.get("PodDisruptionBudget").get("spec"));
        assertEquals(podLabels, map(map(pdb.get("selector")).get("matchLabels")));
        assertTrue(((Number) pdb.get("minAvailable")).intValue() < replicas, "a node can still be drained");
    }

    @Test
    void theNetworkPolicyAdmitsEachPortFromItsNamespaceOnly() {
        Map<String, Object> policy = byKind.get("NetworkPolicy");
        assertNotNull(policy, "a NetworkPolicy");
        Map<String, Object> spec = map(policy.get("spec"));
        Map<String, Object> podLabels =
                map(map(map(map(deployment().get("spec")).get("template")).get("metadata"))
                        .get("labels"));
        assertEquals(podLabels, map(map(spec.get("podSelector")).get("matchLabels")));
        assertEquals(List.of("Ingress", "Egress"), spec.get("policyTypes"));

        var admitted = new HashMap<String, String>();
        for (Object o : list(spec.get("ingress"))) {
            Map<String, Object> rule = map(o);
            List<Object> from = list(rule.get("from"));
            assertEquals(1, from.size(), "each port is admitted from one place");
            Map<String, Object> source = map(from.get(0));
            assertEquals(Set.of("namespaceSelector"), source.keySet(), "from a namespace, never from anywhere");
            String namespace = (String)
                    map(map(source.get("namespaceSelector")).get("matchLabels")).get("kubernetes.io/metadata.name");
            for (Object p : list(rule.get("ports"))) {
                assertNotNull(namespace);
                assertNull(admitted.put(String.valueOf(map(p).get("port")), namespace), "one rule per port");
            }
        }
        assertEquals(Map.of("http", "ingress-nginx", "management", "monitoring"), admitted);

        var egressPorts = new HashSet<Integer>();
        for (Object o : list(spec.get("egress"))) {
            for (Object p : list(map(o).get("ports"))) {
                egressPorts.add(((Number) map(p).get("port")).intValue());
            }
        }
        assertEquals(Set.of(5432, 53, 443), egressPorts, "out: PostgreSQL, DNS and HTTPS only");
    }

    @Test
    void kustomizationAppliesEverythingButTheSecretTemplate() throws Exception {
        List<Object> resources = list(byKind.get("Kustomization").get("resources"));
        try (Stream<Path> files = Files.list(K8S)) {
            Set<String> manifests = files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml"))
                    .collect(Collectors.toSet());
            Set<String> expected = new HashSet<>(manifests);
            expected.remove("secret.template.yaml");
            assertEquals(
                    expected,
                    new HashSet<>(resources.stream().map(String::valueOf).toList()));
        }
        for (Object v : map(byKind.get("Secret").get("stringData")).values()) {
            String value = String.valueOf(v);
            assertTrue(value.equals("REPLACE_ME") || value.length() < 16, "the template holds no real secret");
        }
    }

    // ---- helpers ----

    /** Every configuration name the application defines: application.properties and PaynotifyConfig's fixed keys. */
    static Set<String> knownConfigNames() {
        Set<String> names = new HashSet<>();
        appProperties.stringPropertyNames().forEach(k -> names.add(k.replaceFirst("^%[^.]+\\.", "")));
        names.add("paynotify.admin.tokens");
        names.add("paynotify.idempotency.retention");
        // standard SmallRye/Quarkus key naming an extra properties file (docs/operations.md "Configuration")
        names.add("quarkus.config.locations");
        return names;
    }

    /** True when the key is one PaynotifyConfig maps (names read from the interface itself). */
    static boolean paynotifyKey(String key) {
        Matcher channel =
                Pattern.compile("paynotify\\.channels\\.\"([^\"]+)\"\\.(.+)").matcher(key);
        if (channel.matches()) {
            if (!ChannelRegistry.CHANNEL_NAME.matcher(channel.group(1)).matches()) {
                return false;
            }
            String rest = channel.group(2);
            Set<String> names = propertyNames(PaynotifyConfig.ChannelConfig.class);
            return names.contains(rest)
                    || (rest.matches("platform-keys\\.\"[^\"]+\"") && names.contains("platform-keys"));
        }
        Matcher client =
                Pattern.compile("paynotify\\.clients\\.\"([^\"]+)\"\\.(.+)").matcher(key);
        if (client.matches()) {
            return propertyNames(PaynotifyConfig.ClientConfig.class).contains(client.group(2));
        }
        if (key.startsWith("paynotify.admin.")) {
            return propertyNames(PaynotifyConfig.Admin.class).contains(key.substring("paynotify.admin.".length()));
        }
        if (key.startsWith("paynotify.idempotency.")) {
            return propertyNames(PaynotifyConfig.Idempotency.class)
                    .contains(key.substring("paynotify.idempotency.".length()));
        }
        return false;
    }

    static Set<String> propertyNames(Class<?> mapping) {
        Set<String> names = new HashSet<>();
        for (Method m : mapping.getDeclaredMethods()) {
            if (m.isDefault() || m.isSynthetic() || java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            WithName w = m.getAnnotation(WithName.class);
            names.add(
                    w != null
                            ? w.value()
                            : m.getName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT));
        }
        return names;
    }

    /** MicroProfile Config's environment-variable form of a property name. */
    static String envName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    static Duration quarkusDuration(String text) {
        return Duration.parse("PT" + text.toUpperCase(Locale.ROOT));
    }

    static Set<String> configMapReferences() {
        Set<String> refs = new HashSet<>();
        Properties p = configMapProperties();
        for (String key : p.stringPropertyNames()) {
            Matcher m = REFERENCE.matcher(p.getProperty(key));
            while (m.find()) {
                refs.add(m.group(1));
            }
        }
        return refs;
    }

    static Properties configMapProperties() {
        Properties p = new Properties();
        try {
            p.load(new StringReader((String) configMapData().get("application.properties")));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }

    static Map<String, Object> configMapData() {
        return map(byKind.get("ConfigMap").get("data"));
    }

    static Map<String, Object> deployment() {
        return byKind.get("Deployment");
    }

    static Map<String, Object> podSpec() {
        return map(map(map(deployment().get("spec")).get("template")).get("spec"));
    }

    static Map<String, Object> container() {
        List<Object> containers = list(podSpec().get("containers"));
        assertEquals(1, containers.size());
        return map(containers.get(0));
    }

    static String probePath(Map<String, Object> container, String probe) {
        return (String) map(map(container.get(probe)).get("httpGet")).get("path");
    }

    static String name(Map<String, Object> resource) {
        return (String) map(resource.get("metadata")).get("name");
    }

    static long mebibytes(Object quantity) {
        String q = String.valueOf(quantity);
        if (q.endsWith("Gi")) {
            return Long.parseLong(q.substring(0, q.length() - 2)) * 1024;
        }
        assertTrue(q.endsWith("Mi"), "memory in Mi or Gi: " + q);
        return Long.parseLong(q.substring(0, q.length() - 2));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        assertTrue(o instanceof Map, "a mapping: " + o);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        assertTrue(o instanceof List, "a list: " + o);
        return (List<Object>) o;
    }
}
