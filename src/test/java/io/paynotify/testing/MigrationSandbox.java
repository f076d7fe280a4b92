package io.paynotify.testing;

import io.paynotify.persistence.MigrationLock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.Flyway;

/**
 * A schema of its own in the run's database, migrated by Flyway up to a chosen version, so that a test can put rows
 * of an older schema in place and then prove what a later migration does to a database that already holds data (as
 * every production database does). Closing it drops the schema.
 */
public final class MigrationSandbox implements AutoCloseable {

    private final String url;
    private final String schema;

    private MigrationSandbox(String url, String schema) {
        this.url = url;
        this.schema = schema;
    }

    /** A new, empty schema; nothing is migrated yet. */
    public static MigrationSandbox create() {
        String url = ConfigProvider.getConfig().getValue("pntest.direct-jdbc-url", String.class);
        String schema =
                "migration_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        return new MigrationSandbox(url, schema);
    }

    /** Applies the service's migrations up to and including {@code version} ("8"), or all of them (null). */
    public MigrationSandbox migrateTo(String version) {
        // the service's own session lock: V18's CREATE INDEX CONCURRENTLY waits for a transactional one for ever
        var flyway = MigrationLock.sessionLock(Flyway.configure())
                .dataSource(url, "postgres", "")
                .schemas(schema)
                .createSchemas(true)
                .locations("classpath:db/migration");
        if (version != null) {
            flyway.target(version);
        }
        flyway.load().migrate();
        return this;
    }

    /** Applies every remaining migration. */
    public MigrationSandbox migrateAll() {
        return migrateTo(null);
    }

    /** A connection whose search path is this schema. */
    public Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(url, "postgres", "");
        try (Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
        }
        return c;
    }

    /** Runs statements (DDL or DML with literal values) in this schema. */
    public void execute(String... sql) {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (String one : sql) {
                s.execute(one);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
