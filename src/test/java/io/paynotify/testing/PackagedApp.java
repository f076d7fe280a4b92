package io.paynotify.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The packaged application as a child process, for the {@code *IT} classes that start it themselves (a kill, two
 * instances, a small heap, a refused start): what the build packaged, the command that runs it with a configuration
 * of system properties, a fresh database of its own, free ports and the wait for readiness. Failsafe runs these after
 * packaging; they need PostgreSQL on 127.0.0.1:5432 (trust auth, user postgres), like the Quarkus tests.
 */
public final class PackagedApp {

    /**
     * What the build packaged, as Quarkus records it for {@code @QuarkusIntegrationTest}: {@code type=jar} and
     * {@code path=quarkus-app/quarkus-run.jar}, or with {@code -Dnative} the executable; never a stale leftover.
     */
    public static final Path ARTIFACT = Path.of("target", "quarkus-artifact.properties");

    static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/postgres";

    /**
     * Every packaged JVM here lives for seconds: the quick compiler only, which cuts a start's CPU by about a third
     * (5.4 s to 3.5 s to readiness, measured on the 2-core build machine); an IT's own flags come after and win.
     */
    static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1");

    private PackagedApp() {}

    /** Fails the test unless the build packaged the application (run mvn verify). */
    public static void requireArtifact() {
        assertTrue(
                Files.isRegularFile(ARTIFACT),
                ARTIFACT + " is missing: run mvn verify (failsafe runs this after packaging)");
    }

    /**
     * {@code java -XX:TieredStopAtLevel=1 <jvm…> -D… -jar target/quarkus-app/quarkus-run.jar}, or {@code target/…-runner <jvm…> -D…} when the
     * build was native: the configuration as system properties either way.
     */
    public static List<String> command(Map<String, String> config, List<String> jvm) throws IOException {
        var built = new Properties();
        try (var in = Files.newInputStream(ARTIFACT)) {
            built.load(in);
        }
        Path artifact = ARTIFACT.resolveSibling(built.getProperty("path")).toAbsolutePath();
        assertTrue(Files.isRegularFile(artifact), artifact + " is missing");
        var command = new ArrayList<String>();
        switch (built.getProperty("type")) {
            case "jar" -> {
                command.add(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
                command.addAll(QUICK_START);
                command.addAll(jvm);
                config.forEach((k, v) -> command.add("-D" + k + "=" + v));
                command.add("-jar");
                command.add(artifact.toString());
            }
            case "native" -> {
                command.add(artifact.toString());
                command.addAll(jvm.stream().filter(a -> a.startsWith("-Xm")).toList());
                config.forEach((k, v) -> command.add("-D" + k + "=" + v));
            }
            default -> throw new AssertionError("cannot start a " + built.getProperty("type") + " artifact");
        }
        return command;
    }

    /**
     * What every packaged instance of the ITs is started with: the {@code it} profile (not prod, whose start-up
     * checks refuse loopback webhooks and test keys; the application warns that they are off), that database, both
     * ports on 127.0.0.1, and plain-text console logs instead of prod's JSON lines, for whoever reads the ITs' logs.
     * Each IT adds its channels, clients and whatever else it tests.
     */
    public static Map<String, String> instanceConfig(String jdbcUrl, int port, int managementPort) {
        var c = new java.util.LinkedHashMap<String, String>();
        c.put("quarkus.profile", "it");
        c.put("quarkus.datasource.jdbc.url", jdbcUrl);
        c.put("quarkus.http.host", "127.0.0.1");
        c.put("quarkus.http.port", Integer.toString(port));
        c.put("quarkus.management.host", "127.0.0.1");
        c.put("quarkus.management.port", Integer.toString(managementPort));
        c.put("quarkus.log.console.json.enabled", "false");
        return c;
    }

    /** Kills the instance, if one was started, and waits up to 30 s for it to be gone. */
    public static void stop(Process process) throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** Starts the application with that configuration, its output (both streams) into {@code log}. */
    public static Process start(Map<String, String> config, List<String> jvm, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(command(config, jvm))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Waits until the instance's readiness check answers 200 on its management port; fails if it exits. */
    public static void awaitReady(Process process, int managementPort, Duration within, Path log) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI ready = URI.create("http://127.0.0.1:" + managementPort + "/q/health/ready");
        await().atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new AssertionError("the instance exited with " + process.exitValue() + ", see " + log);
            }
            try {
                return http.send(
                                        HttpRequest.newBuilder(ready)
                                                .timeout(Duration.ofSeconds(5))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200;
            } catch (IOException notListeningYet) {
                return false;
            }
        });
    }

    /** A signed merchant API POST (docs/api.md "Signing a request") to the instance on that port. */
    public static HttpResponse<String> merchantPost(
            HttpClient http, int port, String clientId, String secret, String path, String json) throws Exception {
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String timestamp = Long.toString(java.time.Instant.now().getEpochSecond());
        String key = java.util.UUID.randomUUID().toString();
        String signature = io.paynotify.merchant.MerchantSignature.sign(
                secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), "POST", path, timestamp, key, body);
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Content-Type", "application/json")
                        .header("X-Client-Id", clientId)
                        .header("X-Timestamp", timestamp)
                        .header("Idempotency-Key", key)
                        .header("X-Signature", signature)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Random bytes for a run's secrets (client secrets, webhook secrets, admin tokens). */
    public static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** A name for this run's logs and order numbers: the time and a random suffix. */
    public static String runId() {
        return System.currentTimeMillis() + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 20));
    }

    /** The HTTP/1.1 client the packaged-process tests talk to a service with. */
    public static HttpClient httpClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .build();
    }

    /** A free port on the loopback interface. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * A new, empty database, named as {@link FreshDatabaseResource} names its own ({@code paynotify_test_…}) so that a
     * leftover one is recognised; drop it with {@link #dropDatabase}.
     */
    public static String freshDatabase() throws SQLException {
        String name = "paynotify_test_" + System.currentTimeMillis() + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 20));
        admin("CREATE DATABASE " + name);
        return name;
    }

    public static void dropDatabase(String name) throws SQLException {
        if (name != null) {
            admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    /** The JDBC URL of that database on the local PostgreSQL. */
    public static String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:5432/" + database;
    }

    /** Runs one statement as the administrator, on the {@code postgres} database. */
    public static void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(ADMIN_URL, "postgres", "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
