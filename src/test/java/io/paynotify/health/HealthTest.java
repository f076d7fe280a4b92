package io.paynotify.health;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TcpProxy;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
class HealthTest {

    @Test
    void readyWhenPostgresAnswersAndMigrationsAreApplied() throws Exception {
        given().get(io.paynotify.testing.Management.url("/q/health/ready"))
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("database"))
                .body("checks.find { it.name == 'database' }.data.schema", equalTo(newestMigration()));
        given().get(io.paynotify.testing.Management.url("/q/health/live"))
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
    }

    /** The newest V<n>__*.sql of this build, read from the sources rather than written into the test. */
    /** The newest migration the tests apply: the application's, plus the tests' own (db/test-migration). */
    static String newestMigration() throws Exception {
        int newest = 0;
        for (String dir : new String[] {"src/main/resources/db/migration", "src/test/resources/db/test-migration"}) {
            try (var files = Files.list(Path.of(dir))) {
                newest = Math.max(
                        newest,
                        files.map(f -> f.getFileName().toString())
                                .filter(n -> n.matches("V[0-9]+__.*\\.sql"))
                                .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__"))))
                                .max()
                                .orElse(0));
            }
        }
        return String.valueOf(newest);
    }

    @Test
    void readinessGoesDownQuicklyWhenPostgresHangsAndComesBack() throws Exception {
        given().get(io.paynotify.testing.Management.url("/q/health/ready"))
                .then()
                .statusCode(200);
        try {
            TcpProxy.hang();
            long start = System.nanoTime();
            Response r = given().get(io.paynotify.testing.Management.url("/q/health/ready"));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(503, r.statusCode());
            assertEquals("DOWN", r.jsonPath().getString("status"));
            // the check's own budget is 2 s; a generous bound well under a probe's timeout
            assertTrue(ms < 5_000, "readiness answered after " + ms + " ms");
            // liveness does not depend on the database: a hanging database must not get the pod restarted
            given().get(io.paynotify.testing.Management.url("/q/health/live"))
                    .then()
                    .statusCode(200);
            // the admin API answers 503 with Retry-After within the bounded timeouts, never hangs
            start = System.nanoTime();
            given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                    .get("/admin/orders?limit=1")
                    .then()
                    .statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1");
            ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < 6_000, "admin answered after " + ms + " ms");
        } finally {
            TcpProxy.heal();
        }
        // ready again once PostgreSQL answers (and the pool has replaced the connections it lost)
        await("ready again once PostgreSQL answers")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> given().get(io.paynotify.testing.Management.url("/q/health/ready"))
                                .statusCode()
                        == 200);
    }
}
