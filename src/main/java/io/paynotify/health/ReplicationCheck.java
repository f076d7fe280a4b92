package io.paynotify.health;

import io.paynotify.metrics.Meters;
import io.paynotify.persistence.DurabilityCheck;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * At start, warns (and sets {@code paynotify_database_async_standbys_only} to 1) when the database streams to
 * standbys but no commit waits for one (docs/operations.md "Failover"): a failover to such a standby can lose
 * notifications that were already acknowledged, which the provider then never sends again. It warns rather than
 * refuses: a staging database or a disaster-recovery replica may be asynchronous on purpose, and the alert on the
 * gauge makes the choice visible. A database that cannot be read now leaves the gauge at NaN.
 */
@ApplicationScoped
public class ReplicationCheck {

    private static final Logger LOG = Logger.getLogger(ReplicationCheck.class);

    void onStart(@Observes StartupEvent event, DataSource dataSource, Meters meters) {
        try (Connection c = dataSource.getConnection()) {
            DurabilityCheck.Replication r = DurabilityCheck.replication(c);
            meters.asyncStandbysOnly(r.asynchronousOnly());
            if (r.asynchronousOnly()) {
                LOG.warnf(
                        "PostgreSQL streams to %d standby(s) but no commit waits for one (synchronous_standby_names"
                                + " '%s', synchronous_commit %s): a failover to a standby can lose notifications"
                                + " already acknowledged to the provider. Set synchronous_standby_names and keep"
                                + " synchronous_commit on (docs/operations.md \"Failover\").",
                        r.standbys(), r.synchronousStandbyNames(), r.synchronousCommit());
            }
        } catch (SQLException e) {
            LOG.warnf("replication not checked at start (SQLState %s)", e.getSQLState());
        }
    }
}
