package io.paynotify.health;

import io.paynotify.metrics.Meters;
import io.quarkus.flyway.FlywayDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.jboss.logging.Logger;

/**
 * {@code /q/health/ready}: UP only when a primary PostgreSQL (not in recovery) answers and the newest migration this build
 * carries is recorded as applied in {@code flyway_schema_history} (docs/operations.md "Health").
 *
 * <p>The check never waits on the database for more than {@link #BUDGET_MS}: it runs on its own two threads and
 * answers DOWN when the answer is late, so a hanging PostgreSQL takes the pod out of the Service quickly instead of
 * blocking the probe until the kubelet's timeout. A check still stuck from an earlier probe makes the next one DOWN
 * at once rather than piling up threads.
 *
 * <p>"Applied" compares versions, not counts: during a rolling update a newer replica may already have applied a
 * later migration, and this replica is still ready as long as its own newest one is there. The newest version in
 * the build is read once from Flyway (it cannot change while the process runs).
 *
 * <p>Every answer is also recorded in {@link Meters#readiness}, so that an alert sees a replica whose
 * readiness flaps (docs/operations.md "Alerts and runbooks").
 *
 * <p>Quarkus' own datasource readiness check is switched off ({@code quarkus.datasource.health.enabled=false}):
 * it has no time bound of its own, and this check covers it.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    /** The whole check answers within this many milliseconds; the probe's own timeout is larger. */
    static final long BUDGET_MS = 2_000;

    private static final Logger LOG = Logger.getLogger(DatabaseReadiness.class);

    private final DataSource dataSource;
    private final Flyway flyway;
    private final Meters metrics;
    private final ThreadPoolExecutor executor =
            new ThreadPoolExecutor(0, 2, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "paynotify-readiness");
                t.setDaemon(true);
                return t;
            });

    private volatile String expectedVersion;

    @Inject
    public DatabaseReadiness(DataSource dataSource, @FlywayDataSource("migrations") Flyway flyway, Meters metrics) {
        this.dataSource = dataSource;
        this.flyway = flyway;
        this.metrics = metrics;
    }

    /** Checks, and records the answer in {@code paynotify_ready} and {@code paynotify_readiness_changes_total}. */
    @Override
    public HealthCheckResponse call() {
        HealthCheckResponse response = check();
        metrics.readiness(response.getStatus() == HealthCheckResponse.Status.UP);
        return response;
    }

    private HealthCheckResponse check() {
        HealthCheckResponseBuilder r = HealthCheckResponse.named("database");
        Future<String> check;
        try {
            check = executor.submit(this::probe);
        } catch (RejectedExecutionException e) {
            return r.down()
                    .withData("reason", "an earlier check is still waiting for PostgreSQL")
                    .build();
        }
        try {
            String problem = check.get(BUDGET_MS, TimeUnit.MILLISECONDS);
            if (problem != null) {
                return r.down().withData("reason", problem).build();
            }
            return r.up().withData("schema", expectedVersion).build();
        } catch (TimeoutException e) {
            check.cancel(true);
            return r.down()
                    .withData("reason", "PostgreSQL did not answer within " + BUDGET_MS + " ms")
                    .build();
        } catch (ExecutionException e) {
            LOG.debugf("readiness: %s", e.getCause().getClass().getName());
            return r.down()
                    .withData("reason", "PostgreSQL could not be reached")
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return r.down().withData("reason", "interrupted").build();
        }
    }

    /** Null when ready, else a fixed reason text (never a message from the driver: it may name hosts or users). */
    private String probe() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(2);
                // a standby answers too: ready only on the primary (docs/operations.md "Failover")
                try (ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return "PostgreSQL is a standby (in recovery), not the primary";
                    }
                }
            }
            String expected = expectedVersion();
            if (expected == null) {
                return "no migration found in this build";
            }
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT 1 FROM flyway_schema_history WHERE version = ? AND success")) {
                ps.setQueryTimeout(2);
                ps.setString(1, expected);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? null : "migration " + expected + " is not applied";
                }
            } catch (SQLException e) {
                return "the migration history cannot be read";
            }
        }
    }

    private String expectedVersion() {
        String v = expectedVersion;
        if (v == null) {
            MigrationVersion newest = null;
            for (MigrationInfo m : flyway.info().all()) {
                if (m.getState().isResolved()
                        && m.getVersion() != null
                        && (newest == null || m.getVersion().compareTo(newest) > 0)) {
                    newest = m.getVersion();
                }
            }
            v = newest == null ? null : newest.getVersion();
            expectedVersion = v;
        }
        return v;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}
