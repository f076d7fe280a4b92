package io.paynotify.merchant;

import static io.paynotify.testing.MerchantClient.order;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.MerchantClient.Answer;
import io.paynotify.testing.TcpProxy;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** PostgreSQL hangs: the merchant API answers 503 with Retry-After within 3 s, and stores nothing. */
@QuarkusTest
class MerchantApiDatabaseDownTest {

    @Test
    void aHangingDatabaseIs503WithinThreeSecondsAndTheKeyStaysFree() throws Exception {
        MerchantClient a = MerchantClient.a();
        String no = "D" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        String key = "down-" + UUID.randomUUID();
        String body = order("wx-test", no, 42);
        // warm up: the pool holds live connections, which then hang mid-statement
        assertEquals(404, a.get("wx-test", no).status());

        long started;
        Answer create;
        Answer read;
        TcpProxy.hang();
        try {
            started = System.nanoTime();
            create = a.create(key, body);
            long createMillis = (System.nanoTime() - started) / 1_000_000;
            // the create's connection is still waiting now (the driver gives up after 3 s, the answer came at 2.5 s)
            var hung = new java.util.HashSet<>(TcpProxy.heldNow());
            long readStarted = System.nanoTime();
            read = a.get("wx-test", no);
            long readMillis = (System.nanoTime() - readStarted) / 1_000_000;

            assertEquals(503, create.status(), create::toString);
            assertEquals(
                    "application/problem+json", create.header("Content-Type").orElse(null));
            assertEquals("1", create.header("Retry-After").orElse(null));
            assertEquals(key, create.header("X-Idempotency-Key").orElse(null));
            assertEquals("false", create.header("Idempotent-Replayed").orElse(null));
            assertTrue(createMillis < 3_000, "create answered after " + createMillis + " ms");
            System.out.printf(
                    "database hangs: create 503 after %d ms, read 503 after %d ms, %d connections still hung%n",
                    createMillis, readMillis, TcpProxy.heldConnections());
            assertEquals(503, read.status(), read::toString);
            assertTrue(readMillis < 3_000, "read answered after " + readMillis + " ms");
            // keep hanging until the driver's 3 s socket timeout has made the abandoned create and read give up, so
            // that the abandoned transaction can never reach a COMMIT after the heal: every connection held now
            // (theirs among them) must be dropped. Connections that background work opens later do not matter.
            hung.addAll(TcpProxy.heldNow());
            assertTrue(hung.size() >= 1, "the create and the read hung on the database");
            try {
                await("the application gives up on the connections that hung")
                        .atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> !TcpProxy.anyStillHeld(hung));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(
                        "connections " + hung + " hung; still held now:\n" + TcpProxy.heldDescription(), e);
            }
        } finally {
            TcpProxy.heal();
        }
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));
        assertEquals(0, Db.count("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", key));

        // the 503 released the key: the same request now runs, once (retried while the pool replaces the
        // connections it lost)
        Answer retry = await("the merchant API answers again")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> a.create(key, body), answer -> answer.status() != 503);
        assertEquals(201, retry.status(), retry::toString);
        assertEquals("false", retry.header("Idempotent-Replayed").orElse(null));
        assertEquals(1, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));
    }
}
