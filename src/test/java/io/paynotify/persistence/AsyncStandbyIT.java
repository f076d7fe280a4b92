package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.PostgresPair;
import io.paynotify.testing.TestChannels;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 item 2 (docs/operations.md "Failover"): a database streaming to an asynchronous standby only starts the
 * packaged service with a warning and {@code paynotify_database_async_standbys_only} at 1; FailoverIT's synchronous
 * pair reads 0.
 */
class AsyncStandbyIT {

    static final Path LOGS = Path.of("target", "failover-it");
    static final Pattern GAUGE = Pattern.compile("(?m)^paynotify_database_async_standbys_only(?:\\{[^}]*})? (\\S+)$");

    PostgresPair pair;
    Process service;

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (service != null) {
                service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            if (pair != null) {
                pair.close();
            }
        }
    }

    @Test
    void asynchronousStandbysOnlyWarnAtStartWithAMetric() throws Exception {
        PackagedApp.requireArtifact();
        Files.createDirectories(LOGS);
        pair = PostgresPair.start(false);
        pair.execute(pair.primaryPort, "postgres", "CREATE DATABASE paynotify");
        try (Connection c =
                DriverManager.getConnection(PostgresPair.url(pair.primaryPort, "paynotify"), "postgres", "")) {
            DurabilityCheck.Replication r = DurabilityCheck.replication(c);
            assertEquals(1, r.standbys());
            assertTrue(r.asynchronousOnly(), r.toString());
        }
        int port = PackagedApp.freePort();
        int management = PackagedApp.freePort();
        Path log = LOGS.resolve(PackagedApp.runId() + "-async-instance.log");
        service = PackagedApp.start(config(pair.bothHostsUrl("paynotify"), port, management), List.of(), log);
        PackagedApp.awaitReady(service, management, Duration.ofSeconds(90), log);
        assertEquals("1.0", gauge(management), "the metric says what the warning says");
        assertTrue(
                Files.readString(log).contains("no commit waits for one"),
                "the start warns about asynchronous standbys, see " + log);
    }

    /** The value of {@code paynotify_database_async_standbys_only} on that management port. */
    static String gauge(int management) throws Exception {
        String text = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + management + "/q/metrics"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher m = GAUGE.matcher(text);
        assertTrue(m.find(), "paynotify_database_async_standbys_only is exported");
        return m.group(1);
    }

    static Map<String, String> config(String url, int port, int management) {
        var c = new LinkedHashMap<String, String>();
        for (Map.Entry<String, String> e : TestChannels.config().entrySet()) {
            if (e.getKey().startsWith("paynotify.channels.\"" + TestChannels.WX + "\"")) {
                c.put(e.getKey(), e.getValue());
            }
        }
        c.put("paynotify.admin.tokens", TestChannels.ADMIN_TOKEN);
        c.putAll(PackagedApp.instanceConfig(url, port, management));
        return c;
    }
}
