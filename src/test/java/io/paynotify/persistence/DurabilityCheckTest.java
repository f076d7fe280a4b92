package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.paynotify.testing.Db;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The start refuses a database whose default is synchronous_commit = off. */
@QuarkusTest
class DurabilityCheckTest {

    @Test
    void refusesSynchronousCommitOffAndAcceptsTheDefault() throws Exception {
        try (Connection c = Db.connect()) {
            assertDoesNotThrow(() -> DurabilityCheck.requireDurableCommits(c));
            try (Statement s = c.createStatement()) {
                s.execute("SET synchronous_commit = off");
            }
            assertThrows(IllegalStateException.class, () -> DurabilityCheck.requireDurableCommits(c));
        }
    }
}
