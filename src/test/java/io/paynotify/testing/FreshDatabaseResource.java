package io.paynotify.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Gives each test run its own fresh PostgreSQL database on 127.0.0.1:5432 (no Docker here, so no Dev Services),
 * reached through a {@link TcpProxy} so that tests can make the database hang, and the test channels of
 * {@link TestChannels}. The database is dropped when the run ends.
 */
public class FreshDatabaseResource implements QuarkusTestResourceLifecycleManager {

    static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/postgres";
    static final String USER = "postgres";

    private String database;
    private TcpProxy proxy;

    @Override
    public Map<String, String> start() {
        database = "paynotify_test_" + System.currentTimeMillis() + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 20));
        execute("CREATE DATABASE " + database);
        try {
            proxy = new TcpProxy(5432);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test database proxy", e);
        }
        TcpProxy.heal();
        WebhookReceiver.reservePort();
        StallingEndpoint.reservePort();
        var config = new HashMap<String, String>(TestChannels.config());
        config.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database);
        config.put("pntest.direct-jdbc-url", "jdbc:postgresql://127.0.0.1:5432/" + database);
        // also for @QuarkusIntegrationTest, whose test JVM does not see the application's configuration
        System.setProperty("pntest.direct-jdbc-url", "jdbc:postgresql://127.0.0.1:5432/" + database);
        return config;
    }

    @Override
    public void stop() {
        TcpProxy.heal();
        try {
            if (proxy != null) {
                proxy.close();
            }
        } catch (Exception ignored) {
            // closing sockets only
        }
        if (database != null) {
            execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    private static void execute(String sql) {
        try (Connection c = DriverManager.getConnection(ADMIN_URL, USER, "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run: " + sql, e);
        }
    }
}
