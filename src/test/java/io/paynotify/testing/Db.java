package io.paynotify.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Direct JDBC access to the run's database for arranging and asserting, bypassing the proxy (so it still works
 * while a test makes the application's database hang).
 */
public final class Db {

    private Db() {}

    public static Connection connect() throws SQLException {
        String url = System.getProperty("pntest.direct-jdbc-url");
        if (url == null) {
            url = ConfigProvider.getConfig().getValue("pntest.direct-jdbc-url", String.class);
        }
        Connection c = DriverManager.getConnection(url + "?options=-c%20search_path%3Dpaynotify", "postgres", "");
        return c;
    }

    /**
     * Inserts a PENDING order directly (tests of the intake do not depend on the merchant API) and returns its id.
     * The same as {@code OrderBuilder.anOrder()...insert()}, which new tests use.
     */
    public static long insertOrder(String channel, String provider, String outTradeNo, long amount) {
        return OrderBuilder.anOrder()
                .channel(channel)
                .provider(provider)
                .outTradeNo(outTradeNo)
                .amount(amount)
                .insert()
                .id();
    }

    /** Runs one update statement. */
    public static int update(String sql, Object... args) {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Rows of a query as column-name maps (arrays become lists, timestamps Instants). */
    public static List<Map<String, Object>> rows(String sql, Object... args) {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                var out = new ArrayList<Map<String, Object>>();
                int cols = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    var row = new LinkedHashMap<String, Object>();
                    for (int i = 1; i <= cols; i++) {
                        Object v = rs.getObject(i);
                        if (v instanceof java.sql.Array a) {
                            v = List.of((Object[]) a.getArray());
                        } else if (v instanceof java.sql.Timestamp t) {
                            v = t.toInstant();
                        }
                        row.put(rs.getMetaData().getColumnLabel(i), v);
                    }
                    out.add(row);
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One row, which must exist. */
    public static Map<String, Object> row(String sql, Object... args) {
        List<Map<String, Object>> rows = rows(sql, args);
        if (rows.size() != 1) {
            throw new AssertionError("expected one row, got " + rows.size() + " for " + sql);
        }
        return rows.get(0);
    }

    public static long count(String sql, Object... args) {
        return ((Number) row(sql, args).values().iterator().next()).longValue();
    }

    public static Instant now() {
        return Instant.now();
    }
}
