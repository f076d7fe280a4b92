package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Migrations run outside the request timeouts: the tests' extra migration step (db/test-migration/V9000) sleeps
 * longer than a request's 1.5 s statement timeout and refuses to run under a request's lock timeout. That the
 * application started at all shows it completed; this test reads the record.
 */
@QuarkusTest
class MigrationLimitsTest {

    @Test
    void aSlowMigrationStepCompletes() {
        Map<String, Object> row =
                Db.row("SELECT success, execution_time FROM flyway_schema_history WHERE version = '9000'");
        assertEquals(Boolean.TRUE, row.get("success"));
        assertTrue(((Number) row.get("execution_time")).intValue() >= 2000, "the step took " + row);
    }

    @Inject
    Transactions transactions;

    @Test
    void requestsKeepTheirOwnTimeouts() {
        // the application's pool is untouched by the migrations' limits
        assertEquals("1500ms", transactions.autoCommit(c -> setting(c, "statement_timeout")));
        assertEquals("1s", transactions.autoCommit(c -> setting(c, "lock_timeout")));
    }

    private static String setting(java.sql.Connection c, String name) throws java.sql.SQLException {
        try (var s = c.createStatement();
                var rs = s.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
