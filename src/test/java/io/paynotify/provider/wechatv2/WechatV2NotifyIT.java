package io.paynotify.provider.wechatv2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Db;
import io.paynotify.testing.PackagedApp;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WechatV2NotifyTest}'s end-to-end check against the packaged application (target/quarkus-app), which failsafe
 * runs after packaging: a signed WeChat Pay v2 payment notification moves a pending order to SUCCESS once, and the
 * provider's retry of it is acknowledged the same way without a second change.
 *
 * <p>A plain JUnit class like the other {@code *IT} (it starts the process itself through {@link PackagedApp}), not a
 * {@code @QuarkusIntegrationTest}: that one's launcher bootstrapped for about 25 s before the application started
 * and, on a loaded machine, once missed the "Listening on" line in the shared test log (CI, 60 s wait). The
 * channels are {@link TestChannels#config()}'s, on a fresh database; the child's output goes to
 * {@code target/wechatv2-notify-it/}.
 */
class WechatV2NotifyIT {

    static final Path LOGS = Path.of("target", "wechatv2-notify-it");

    final HttpClient http = PackagedApp.httpClient(Duration.ofSeconds(5));
    String database;
    Process process;

    @BeforeEach
    void freshDatabase() throws Exception {
        PackagedApp.requireArtifact();
        Files.createDirectories(LOGS);
        database = PackagedApp.freshDatabase();
        System.setProperty("pntest.direct-jdbc-url", PackagedApp.jdbcUrl(database)); // for Db
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            PackagedApp.stop(process);
        } finally {
            System.clearProperty("pntest.direct-jdbc-url");
            PackagedApp.dropDatabase(database);
        }
    }

    @Test
    void paidNotificationMovesPendingOrderToSuccessOnce() throws Exception {
        int port = PackagedApp.freePort();
        int managementPort = PackagedApp.freePort();
        var config = new HashMap<>(TestChannels.config());
        config.putAll(PackagedApp.instanceConfig(PackagedApp.jdbcUrl(database), port, managementPort));
        Path log = LOGS.resolve(PackagedApp.runId() + ".log");
        process = PackagedApp.start(config, List.of(), log);
        PackagedApp.awaitReady(process, managementPort, Duration.ofSeconds(120), log);

        String no = WechatV2NotifyTest.newOrderNo();
        Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, 101);
        byte[] body = WechatV2Fixtures.body(WechatV2Fixtures.signed(
                WechatV2Fixtures.paid(no, "4200000001" + no.substring(2, 12), 101), TestChannels.WX_KEY, "MD5"));
        var notify = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/notify/wechatpay/" + TestChannels.WX))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "text/xml")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();

        for (String delivery : List.of("first delivery", "the provider's retry")) {
            HttpResponse<String> r = http.send(notify, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), delivery + ": " + r.body());
            assertEquals(
                    "application/xml",
                    r.headers().firstValue("Content-Type").orElse("").split(";")[0],
                    delivery);
            assertEquals(WechatV2NotifyTest.OK, r.body(), delivery);
        }

        var order =
                Db.row("SELECT state, paid_at FROM orders WHERE channel = ? AND out_trade_no = ?", TestChannels.WX, no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals("2014-09-03T05:15:40Z", order.get("paid_at").toString());
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'DUPLICATE'", no));
    }
}
