package io.paynotify.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Retention: expired keys go in statements of at most 1000 rows, also with two replicas at once. */
@QuarkusTest
class IdempotencyCleanupJobTest {

    @Inject
    IdempotencyCleanupJob job;

    static final String INSERT = "INSERT INTO idempotency_keys (client_id, method_path, idempotency_key,"
            + " fingerprint, status_code, content_type, response_body, first_response_at, created_at, expires_at)"
            + " SELECT ?, 'POST /api/v1/orders', ? || g, sha256(g::text::bytea), 201, 'application/json', '{}'::bytea,"
            + " now() - interval '2 days', now() - interval '2 days', now() + ?::interval - g * interval '1 ms'"
            + " FROM generate_series(1, ?) g";

    /** Expired keys (a day past their expiry) and live ones (a day to go), all with a stored answer. */
    static void seed(String client, int expired, int live) {
        Db.update(INSERT, client, "k-", "-1 day", expired);
        Db.update(INSERT, client, "live-", "1 day", live);
        assertEquals(
                expired,
                Db.count("SELECT count(*) FROM idempotency_keys WHERE client_id = ? AND expires_at <= now()", client));
    }

    /**
     * A statement-level trigger that records how many rows each DELETE statement on the table removed: the
     * database's own account, independent of what the job reports.
     */
    static void installProbe() {
        Db.update("CREATE TABLE IF NOT EXISTS cleanup_probe (id serial PRIMARY KEY, deleted int NOT NULL)");
        Db.update("TRUNCATE cleanup_probe");
        Db.update("CREATE OR REPLACE FUNCTION cleanup_probe_fn() RETURNS trigger LANGUAGE plpgsql AS $$"
                + " BEGIN INSERT INTO cleanup_probe (deleted) SELECT count(*) FROM gone; RETURN NULL; END $$");
        Db.update("CREATE TRIGGER cleanup_probe_trg AFTER DELETE ON idempotency_keys REFERENCING OLD TABLE AS gone"
                + " FOR EACH STATEMENT EXECUTE FUNCTION cleanup_probe_fn()");
    }

    static List<Long> probeAndRemove() {
        var out = new ArrayList<Long>();
        Db.rows("SELECT deleted FROM cleanup_probe ORDER BY id")
                .forEach(r -> out.add(((Number) r.get("deleted")).longValue()));
        Db.update("DROP TRIGGER cleanup_probe_trg ON idempotency_keys");
        Db.update("DROP TABLE cleanup_probe");
        return out;
    }

    @Test
    void deletesExpiredKeysInBatchesOfAtMostAThousand() throws Exception {
        seed("cleanup-single", 2500, 10);
        long expired = Db.count("SELECT count(*) FROM idempotency_keys WHERE expires_at <= now()");
        installProbe();
        List<Integer> counts;
        try {
            counts = job.run();
        } finally {
            List<Long> perStatement = probeAndRemove();
            assertTrue(perStatement.stream().allMatch(n -> n <= 1000), "rows per DELETE statement: " + perStatement);
            assertEquals(
                    expired, perStatement.stream().mapToLong(Long::longValue).sum(), perStatement::toString);
        }
        // the scheduled run may run at the same moment and take a share; the probe above counts both
        assertTrue(counts.stream().mapToInt(Integer::intValue).sum() <= expired, counts::toString);
        counts.forEach(n -> assertTrue(n <= IdempotencyCleanupJob.BATCH, "a statement deleted " + n));
        assertEquals(
                0,
                Db.count("SELECT count(*) FROM idempotency_keys WHERE client_id = 'cleanup-single'"
                        + " AND idempotency_key LIKE 'k-%'"));
        assertEquals(
                10,
                Db.count("SELECT count(*) FROM idempotency_keys WHERE client_id = 'cleanup-single'"
                        + " AND idempotency_key LIKE 'live-%'"));
        assertEquals(0, Db.count("SELECT count(*) FROM idempotency_keys WHERE expires_at <= now()"));
    }

    @Test
    void twoReplicasCleaningAtTheSameMomentStayCorrect() throws Exception {
        seed("cleanup-double", 2500, 10);
        long expired = Db.count("SELECT count(*) FROM idempotency_keys WHERE expires_at <= now()");
        installProbe();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            var futures = new ArrayList<Future<List<Integer>>>();
            for (int i = 0; i < 2; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return job.run();
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<List<Integer>> f : futures) {
                List<Integer> counts = f.get(60, TimeUnit.SECONDS);
                counts.forEach(n -> assertTrue(n <= IdempotencyCleanupJob.BATCH, "a statement deleted " + n));
                total += counts.stream().mapToInt(Integer::intValue).sum();
            }
            // no error and no double count; the probe below shows every expired row deleted exactly once
            assertTrue(total <= expired && total > 0, "deleted " + total);
        } finally {
            pool.shutdownNow();
            List<Long> perStatement = probeAndRemove();
            assertTrue(perStatement.stream().allMatch(n -> n <= 1000), "rows per DELETE statement: " + perStatement);
            assertEquals(
                    expired, perStatement.stream().mapToLong(Long::longValue).sum(), perStatement::toString);
        }
        assertEquals(
                0,
                Db.count("SELECT count(*) FROM idempotency_keys WHERE client_id = 'cleanup-double'"
                        + " AND idempotency_key LIKE 'k-%'"));
        assertEquals(
                10,
                Db.count("SELECT count(*) FROM idempotency_keys WHERE client_id = 'cleanup-double'"
                        + " AND idempotency_key LIKE 'live-%'"));
    }
}
