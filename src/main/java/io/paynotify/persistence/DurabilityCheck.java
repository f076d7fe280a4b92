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
}
