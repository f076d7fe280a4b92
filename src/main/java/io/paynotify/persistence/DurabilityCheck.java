package io.paynotify.persistence;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Refuses to start when PostgreSQL's default is {@code synchronous_commit = off}: a success ack promises a durable
 * commit (docs/api.md "Principles", the one rule above all), and with that setting a committed transaction can vanish in
 * a crash. The service never turns it off itself.
 */
@ApplicationScoped
public class DurabilityCheck {

    void onStart(@Observes StartupEvent event, DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            requireDurableCommits(c);
        }
    }

    /** Throws when the session's synchronous_commit (the database/role/server default) is off. */
    public static void requireDurableCommits(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW synchronous_commit")) {
            rs.next();
            if ("off".equalsIgnoreCase(rs.getString(1))) {
                throw new IllegalStateException("PostgreSQL synchronous_commit is off: a committed notification could"
                        + " be lost in a crash after its success ack. Set it to on (the default) for this database.");
            }
        }
    }

    /**
     * What the database says about its standbys, as any role may read it: the streaming standbys connected
     * ({@code pg_stat_replication} lists every WAL sender, its details only to privileged roles), the default
     * {@code synchronous_commit} and {@code synchronous_standby_names}.
     */
    public record Replication(long standbys, String synchronousCommit, String synchronousStandbyNames) {

        /**
         * True when standbys stream but no commit waits for any of them: {@code synchronous_standby_names} is empty,
         * or {@code synchronous_commit} is {@code local}. A failover to such a standby can lose transactions that
         * committed on the primary, and so notifications already acknowledged to the provider (which will not send
         * them again).
         */
        public boolean asynchronousOnly() {
            return standbys > 0
                    && (synchronousStandbyNames == null
                            || synchronousStandbyNames.isBlank()
                            || "local".equalsIgnoreCase(synchronousCommit));
        }
    }

    /** Reads {@link Replication} on that connection (one query). */
    public static Replication replication(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM pg_stat_replication),"
                        + " current_setting('synchronous_commit'), current_setting('synchronous_standby_names')")) {
            rs.next();
            return new Replication(rs.getLong(1), rs.getString(2), rs.getString(3));
        }
    }
}
