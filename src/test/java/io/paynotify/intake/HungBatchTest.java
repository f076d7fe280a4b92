package io.paynotify.intake;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.testing.ArmedIntakeFaults;
import io.paynotify.testing.Db;
import io.paynotify.testing.TcpProxy;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A database that hangs in the middle of a batch (after one member applied and the next inserted its row): every
 * member gets the provider's failure ack within the deadline, nothing of the batch is committed, and the provider's
 * retries then apply each notification exactly once.
 */
@QuarkusTest
class HungBatchTest {

    /**
     * HTTP/1.1, as the providers send: the default client's h2c upgrade once ended in an HTTP/2 GOAWAY for the three
     * concurrent requests on one connection (fresh-clone CI), which tested nothing of ours.
     */
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TestHTTPResource("/notify/wechatpay/" + TestChannels.WX)
    URI notify;

    @Inject
    NotificationIntake intake;

    @AfterEach
    void heal() {
        ArmedIntakeFaults.releaseBatches();
        TcpProxy.heal();
    }

    @Test
    void everyMemberIs503WithinTheDeadlineAndNoneIsApplied() throws Exception {
        int writer = 0;
        List<String> nos = BatchCommitTest.pendingOrdersOn(writer, 3);
        String plug = BatchCommitTest.ordersOn(writer, 1).get(0);
        List<byte[]> bodies = new ArrayList<>();
        for (String no : nos) {
            bodies.add(WechatV2Fixtures.body(
                    WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, "4200" + no, 100), TestChannels.WX_KEY, "MD5")));
        }
        // the second member's notification row is in; then the database stops answering
        ArmedIntakeFaults.arm(nos.get(1), (c, n) -> TcpProxy.hang());

        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        try {
            ArmedIntakeFaults.holdBatches();
            intake.submit(plugNotice(plug), Source.NOTIFY, System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !ArmedIntakeFaults.batchSizes().isEmpty());
            for (byte[] body : bodies) {
                sent.add(System.nanoTime());
                answers.add(HTTP.sendAsync(
                        HttpRequest.newBuilder(notify)
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            await().atMost(Duration.ofSeconds(2)).until(() -> intake.queued(writer) == bodies.size());
            ArmedIntakeFaults.releaseBatches();

            for (int i = 0; i < answers.size(); i++) {
                HttpResponse<String> r = answers.get(i).get(10, TimeUnit.SECONDS);
                long ms = (System.nanoTime() - sent.get(i)) / 1_000_000;
                assertEquals(503, r.statusCode(), "member " + i);
                assertTrue(ms < 5_000, "member " + i + " answered after " + ms + " ms");
            }
            assertEquals(List.of(1, 3), ArmedIntakeFaults.batchSizes(), "the plug, then the three in one batch");

            // the writer gives the batch up (its socket times out) before the database answers again: from then on
            // nothing it sent can commit (it never sent a COMMIT)
            await().atMost(Duration.ofSeconds(20)).until(() -> ArmedIntakeFaults.finishedBatches() == 2);
        } finally {
            ArmedIntakeFaults.disarm(nos.get(1));
            TcpProxy.heal();
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Db.count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                + " AND state LIKE 'idle in transaction%'")
                        == 0);
        for (String no : nos) {
            assertEquals(
                    "PENDING",
                    Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no)
                            .get("state"),
                    no);
            assertEquals(0, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", no), no);
        }

        // the provider's retries: each applied exactly once
        for (int i = 0; i < nos.size(); i++) {
            byte[] body = bodies.get(i);
            Response r = await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> given().body(body).post("/notify/wechatpay/" + TestChannels.WX),
                            x -> x.statusCode() != 503);
            assertEquals(200, r.statusCode());
            assertEquals(
                    "SUCCESS",
                    Db.row("SELECT state FROM orders WHERE out_trade_no = ?", nos.get(i))
                            .get("state"));
            assertEquals(
                    1,
                    Db.count(
                            "SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'",
                            nos.get(i)));
        }
    }

    private static VerifiedNotification plugNotice(String no) {
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V2,
                        TestChannels.WX,
                        no,
                        NotifyClass.INFO,
                        "USERPAYING",
                        "<xml/>".getBytes(StandardCharsets.UTF_8),
                        Instant.now())
                .build();
    }
}
