package io.paynotify.persistence;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import io.quarkus.flyway.FlywayDataSource;
import jakarta.inject.Singleton;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;

/**
 * Flyway's lock on the {@code migrations} datasource is a session advisory lock, not a transactional one
 * ({@code flyway.postgresql.transactional.lock=false}; Quarkus has no key for it). The transactional lock is an open
 * transaction for as long as the migrations run, and {@code CREATE INDEX CONCURRENTLY} (V18) waits for every open
 * transaction to end: with it, the build would wait for its own lock, for ever. The session lock still lets one
 * replica migrate at a time.
 */
@Singleton
@FlywayDataSource("migrations")
public class MigrationLock implements FlywayConfigurationCustomizer {

    @Override
    public void customize(FluentConfiguration configuration) {
        sessionLock(configuration);
    }

    /** Turns the transactional lock off (also for the tests' own Flyway runs). */
    public static FluentConfiguration sessionLock(FluentConfiguration configuration) {
        configuration
                .getPluginRegister()
                .getPlugin(PostgreSQLConfigurationExtension.class)
                .setTransactionalLock(false);
        return configuration;
    }
}
