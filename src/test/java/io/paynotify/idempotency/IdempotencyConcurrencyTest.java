package io.paynotify.idempotency;

import static io.paynotify.testing.MerchantClient.order;
import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.MerchantClient.Answer;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Idempotency-Key under concurrency and failure: the unique constraint is the lock, a 5xx frees the key. */
@QuarkusTest
class IdempotencyConcurrencyTest {

    final MerchantClient a = MerchantClient.a();

    static String no() {
        return "I" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    @Test
    void twentyIdenticalCreatesAtOnceMakeOneOrderAndOneKey() throws Exception {
        for (int round = 0; round < 3; round++) {
            String no = no();
            String key = "same-key-" + UUID.randomUUID();
            String body = order("wx-test", no, 888);
            List<Answer> answers = fireAtOnce(20, () -> a.create(key, body));

            int fresh201 = 0;
            byte[] firstBody = null;
            for (Answer r : answers) {
                assertTrue(r.status() == 201 || r.status() == 409, r::toString);
                assertEquals(key, r.header("X-Idempotency-Key").orElse(null));
                if (r.status() == 201) {
                    if ("false".equals(r.header("Idempotent-Replayed").orElse(null))) {
                        fresh201++;
                    }
                    if (firstBody == null) {
                        firstBody = r.body();
                    }
                    // every 201, replayed or not, is the same bytes
                    assertArrayEquals(firstBody, r.body());
                } else {
                    assertEquals("false", r.header("Idempotent-Replayed").orElse(null));
                    assertEquals("Idempotency-Key", r.json().getString("field"), r::toString);
                }
            }
            assertEquals(1, fresh201, () -> "answers: " + answers);
            System.out.printf(
                    "20 identical creates: %d x 201 (1 fresh), %d x 409%n",
                    answers.stream().filter(r -> r.status() == 201).count(),
                    answers.stream().filter(r -> r.status() == 409).count());
            assertEquals(1, Db.count("SELECT count(*) FROM orders WHERE channel = 'wx-test' AND out_trade_no = ?", no));
            assertEquals(
                    1,
                    Db.count(
                            "SELECT count(*) FROM idempotency_keys WHERE client_id = ? AND idempotency_key = ?",
                            TestChannels.CLIENT_A,
                            key));
        }
    }

    @Test
    void twentyClosesWithOneKeyRunTheCloseOnce() throws Exception {
        String no = no();
        anOrder().channel("wx-test").outTradeNo(no).amount(5).insert();
        String key = "close-key-" + UUID.randomUUID();
        List<Answer> answers = fireAtOnce(20, () -> a.close("wx-test", no, key));
        long fresh = answers.stream()
                .filter(r -> r.status() == 200
                        && "false".equals(r.header("Idempotent-Replayed").orElse(null)))
                .count();
        assertEquals(1, fresh, () -> "answers: " + answers);
        answers.forEach(r -> assertTrue(r.status() == 200 || r.status() == 409, r::toString));
        // the close ran once: version moved by exactly one
        assertEquals(
                1L,
                Db.row("SELECT version FROM orders WHERE out_trade_no = ?", no).get("version"));
    }

    /** A request that holds the key (its transaction is still open) makes the second one answer 409 within 2 s. */
    @Test
    void aKeyHeldByARunningRequestIs409() throws Exception {
        String no = no();
        String key = "held-" + UUID.randomUUID();
        String body = order("wx-test", no, 3);
        try (Connection c = Db.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO idempotency_keys (client_id, method_path,"
                    + " idempotency_key, fingerprint, created_at, expires_at) VALUES (?, 'POST /api/v1/orders', ?, ?,"
                    + " now(), now() + interval '1 hour')")) {
                ps.setString(1, TestChannels.CLIENT_A);
                ps.setString(2, key);
                ps.setBytes(3, MessageDigest.getInstance("SHA-256").digest(body.getBytes()));
                ps.executeUpdate();
            }
            long started = System.nanoTime();
            Answer r = a.create(key, body);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(409, r.status(), r::toString);
            assertEquals("Idempotency-Key", r.json().getString("field"));
            assertEquals("false", r.header("Idempotent-Replayed").orElse(null));
            assertEquals(key, r.header("X-Idempotency-Key").orElse(null));
            assertTrue(millis < 2_900, "answered after " + millis + " ms");
            System.out.printf("key held by a running request: 409 after %d ms%n", millis);
            c.rollback();
        }
        // the holder went away without an answer: the key is free and the operation runs now
        Answer after = a.create(key, body);
        assertEquals(201, after.status(), after::toString);
        assertEquals("false", after.header("Idempotent-Replayed").orElse(null));
    }

    /** A 5xx is never stored: the database times out on the order's lock, the retry with the same key runs anew. */
    @Test
    void aServerErrorReleasesTheKey() throws Exception {
        String no = no();
        anOrder().channel("wx-test").outTradeNo(no).amount(9).insert();
        String key = "fail-" + UUID.randomUUID();
        try (Connection c = Db.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM orders WHERE out_trade_no = ? FOR UPDATE")) {
                ps.setString(1, no);
                ps.executeQuery().close();
            }
            Answer r = a.close("wx-test", no, key);
            assertEquals(503, r.status(), r::toString);
            assertEquals("application/problem+json", r.header("Content-Type").orElse(null));
            assertEquals("1", r.header("Retry-After").orElse(null));
            assertEquals(key, r.header("X-Idempotency-Key").orElse(null));
            c.rollback();
        }
        assertEquals(0, Db.count("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", key));
        Answer retry = a.close("wx-test", no, key);
        assertEquals(200, retry.status(), retry::toString);
        assertEquals("false", retry.header("Idempotent-Replayed").orElse(null));
        assertEquals("CLOSED", retry.json().getString("state"));
    }

    /** A key used after its expiry counts as new: the operation runs again (here: the order exists, 409). */
    @Test
    void anExpiredKeyCountsAsNew() {
        String no = no();
        String key = "expiring-" + UUID.randomUUID();
        String body = order("ali-test", no, 10);
        Answer first = a.create(key, body);
        assertEquals(201, first.status());
        assertEquals(201, a.create(key, body).status(), "still live: replayed");

        Db.update(
                "UPDATE idempotency_keys SET expires_at = ? WHERE idempotency_key = ?",
                Timestamp.from(Instant.now().minusSeconds(1)),
                key);
        Answer again = a.create(key, body);
        assertEquals(409, again.status(), again::toString);
        assertEquals("false", again.header("Idempotent-Replayed").orElse(null));
        assertEquals("outTradeNo", again.json().getString("field"));
        assertEquals(1, Db.count("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", key));
        assertTrue(
                ((Instant) Db.row("SELECT expires_at FROM idempotency_keys WHERE idempotency_key = ?", key)
                                .get("expires_at"))
                        .isAfter(Instant.now().plusSeconds(23 * 3600)),
                "a fresh 24 h retention");
    }

    static List<Answer> fireAtOnce(int n, java.util.concurrent.Callable<Answer> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            var futures = new ArrayList<Future<Answer>>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.call();
                }));
            }
            ready.await(10, TimeUnit.SECONDS);
            go.countDown();
            var out = new ArrayList<Answer>();
            for (Future<Answer> f : futures) {
                out.add(f.get(30, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
