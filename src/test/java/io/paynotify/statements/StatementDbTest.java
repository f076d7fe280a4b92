package io.paynotify.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.paynotify.persistence.Transactions;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Statement work's units run under their own, longer statement timeout (they lock no order), and the pool's
 * connections keep the pool's 1.5 s afterwards: a session setting left behind would let a notification's statement
 * run for 30 s (behind PgBouncer's transaction pooling, PgBouncerIT checks the same through a shared server
 * connection).
 */
@QuarkusTest
class StatementDbTest {

    @Inject
    StatementDb db;

    @Inject
    Transactions transactions;

    private static String timeout(Connection c) throws SQLException {
        try (var st = c.createStatement();
                var rs = st.executeQuery("SHOW statement_timeout")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void statementWorkRunsUnderTheLongerTimeoutAndLeavesThePoolsOwn() {
        String pools = transactions.autoCommit(StatementDbTest::timeout);
        assertNotEquals(StatementDb.AUTO_STATEMENT_TIMEOUT, pools, "the pool's own (application.properties)");
        assertEquals(StatementDb.AUTO_STATEMENT_TIMEOUT, db.auto(StatementDbTest::timeout));
        // the short reads keep the pool's bounds: on a hung database they give up as quickly as a request
        assertEquals(pools, db.read(StatementDbTest::timeout));
        assertEquals(3_000, db.read(Connection::getNetworkTimeout));
        // every pool connection afterwards, whichever the pool hands out
        for (int i = 0; i < 30; i++) {
            assertEquals(pools, transactions.autoCommit(StatementDbTest::timeout));
            assertEquals(pools, transactions.inTransaction(Transactions.Retry.ON_CONFLICT, StatementDbTest::timeout));
        }
    }

    /**
     * The longer timeout holds on the client side too: a statement longer than the driver's 3 s socket timeout (and
     * than the pool's 1.5 s) ends normally, and every pool connection afterwards has its 3 s socket timeout again.
     */
    @Test
    void aStatementLongerThanTheSocketTimeoutEndsAndThePoolKeepsItsSocketTimeout() {
        int pools = transactions.autoCommit(Connection::getNetworkTimeout);
        assertEquals(3_000, pools, "application.properties: socketTimeout=3");
        String slept = db.auto(c -> {
            try (var st = c.createStatement();
                    var rs = st.executeQuery("SELECT pg_sleep(3.3)::text")) {
                rs.next();
                return rs.getString(1);
            }
        });
        assertEquals("", slept);
        for (int i = 0; i < 30; i++) {
            assertEquals(pools, transactions.autoCommit(Connection::getNetworkTimeout));
        }
    }

    @Test
    void aFailedStatementStillLeavesThePoolsTimeout() {
        String pools = transactions.autoCommit(StatementDbTest::timeout);
        try {
            db.auto(c -> {
                try (var st = c.createStatement()) {
                    st.execute("SELECT no_such_column FROM no_such_table");
                }
                return null;
            });
        } catch (RuntimeException expected) {
            // the statement's failure, as DatabaseUnavailable
        }
        for (int i = 0; i < 30; i++) {
            assertEquals(pools, transactions.autoCommit(StatementDbTest::timeout));
        }
    }
}
