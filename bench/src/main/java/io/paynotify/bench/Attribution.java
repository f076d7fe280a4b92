package io.paynotify.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 24 item 1: where PostgreSQL's work per notification goes, over one load step ({@code attribute=1}). Two
 * snapshots, one just before the step's first request and one after it (and after the webhook run's deliveries
 * have drained), of
 *
 * <ul>
 *   <li>{@code pg_stat_statements} (this database's statements: calls, rows, execution and planning time, WAL
 *       bytes, shared blocks dirtied), when the server preloads it ({@code PG=private} does);
 *   <li>{@code pg_stat_database.xact_commit} and {@code xact_rollback} of this database;
 *   <li>{@code pg_current_wal_lsn()}: WAL bytes written by the whole server (on a shared server, its other
 *       databases' too);
 *   <li>{@code pg_stat_user_tables} (rows inserted, updated, of them HOT, deleted) and {@code pg_statio_user_tables}
 *       (heap, index and TOAST blocks touched) of the paynotify schema, and the TOAST tables' own rows.
 * </ul>
 *
 * The cumulative statistics of PG 15 reach shared memory when a backend flushes them: at the latest 10 s after it
 * goes idle ({@code PGSTAT_IDLE_INTERVAL}), so each snapshot waits {@link #FLUSH_WAIT_MS} first (the first one for
 * the previous step's, which would otherwise land in the window)
 * ({@code pg_stat_statements} and the WAL position are immediate). Everything is divided by the step's
 * notifications (first deliveries and duplicates, as sent). The driver's own few statements in the window (this
 * class's snapshots, the webhook run's polls) show in the statement list under their own text.
 */
final class Attribution {

    static final long FLUSH_WAIT_MS = 11_000;

    private final String jdbc;
    private final Path out;
    private Snapshot before;

    Attribution(String jdbc, Path out) {
        this.jdbc = jdbc;
        this.out = out;
    }

    record Stmt(String query, long calls, long rows, double execMs, double planMs, long walBytes, long dirtied) {}

    record Table(String name, long ins, long upd, long hotUpd, long del, long heapBlks, long idxBlks, long toastBlks,
            long toastIns) {}

    record Snapshot(Map<String, Stmt> statements, boolean statementsAvailable, long commits, long rollbacks, String lsn,
            Map<String, Table> tables) {}

    /** The first snapshot, once the previous step's statistics have been flushed too (see the class comment). */
    void before() throws SQLException, InterruptedException {
        Thread.sleep(FLUSH_WAIT_MS);
        before = snapshot();
    }

    /** The second snapshot, the per-notification table written to {@code out}; returns it. */
    String after(long notifications, double rate, String label, double pgCpuPerNotification) throws Exception {
        Thread.sleep(FLUSH_WAIT_MS);
        Snapshot now = snapshot();
        double n = notifications;
        var t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "%n#### Attribution: %s (%,d notifications at %,.0f/s)%n%n", label,
                notifications, rate));
        long walBytes;
        try (Connection c = DriverManager.getConnection(jdbc); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff('" + now.lsn() + "', '" + before.lsn() + "')")) {
            rs.next();
            walBytes = rs.getLong(1);
        }
        t.append(String.format(Locale.ROOT,
                "Per notification: **%.3f commits** (%.4f rollbacks), **%,.0f WAL bytes** (the whole server's WAL"
                        + " position), PostgreSQL backends' CPU %.0f us.%n%n",
                (now.commits() - before.commits()) / n, (now.rollbacks() - before.rollbacks()) / n, walBytes / n,
                pgCpuPerNotification));
        t.append("| table | rows inserted | updated | of them HOT | deleted | heap blocks | index blocks | TOAST blocks"
                + " | TOAST rows inserted |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (var e : now.tables().entrySet()) {
            Table a = e.getValue();
            Table b = before.tables().getOrDefault(e.getKey(), new Table(e.getKey(), 0, 0, 0, 0, 0, 0, 0, 0));
            if (Math.abs(a.ins() - b.ins()) + Math.abs(a.upd() - b.upd()) + Math.abs(a.del() - b.del())
                    + Math.abs(a.heapBlks() - b.heapBlks()) + Math.abs(a.idxBlks() - b.idxBlks())
                    + Math.abs(a.toastBlks() - b.toastBlks()) < n / 200) {
                // nothing worth a row: under 0.005 per notification in all
                continue;
            }
            t.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.3f |%n",
                    e.getKey(), (a.ins() - b.ins()) / n, (a.upd() - b.upd()) / n, (a.hotUpd() - b.hotUpd()) / n,
                    (a.del() - b.del()) / n, (a.heapBlks() - b.heapBlks()) / n, (a.idxBlks() - b.idxBlks()) / n,
                    (a.toastBlks() - b.toastBlks()) / n, (a.toastIns() - b.toastIns()) / n));
        }
        t.append('\n');
        if (!now.statementsAvailable()) {
            t.append("Statements: pg_stat_statements is not loaded by this server (`PG=private` starts one that"
                    + " preloads it).\n");
        } else {
            var rows = new ArrayList<Stmt>();
            double totalMs = 0;
            for (var e : now.statements().entrySet()) {
                Stmt a = e.getValue();
                Stmt b = before.statements().get(e.getKey());
                Stmt d = b == null ? a : new Stmt(a.query(), a.calls() - b.calls(), a.rows() - b.rows(),
                        a.execMs() - b.execMs(), a.planMs() - b.planMs(), a.walBytes() - b.walBytes(),
                        a.dirtied() - b.dirtied());
                if (d.calls() > 0) {
                    rows.add(d);
                    totalMs += d.execMs() + d.planMs();
                }
            }
            rows.sort((x, y) -> Double.compare(y.execMs() + y.planMs(), x.execMs() + x.planMs()));
            t.append(String.format(Locale.ROOT,
                    "Statements (pg_stat_statements; %d distinct, %.0f us of execution per notification in all;"
                            + " planning is not tracked):%n%n",
                    rows.size(), totalMs * 1000 / n));
            t.append("| calls | rows | exec us | WAL bytes | blocks dirtied | statement |\n"
                    + "|---:|---:|---:|---:|---:|---|\n");
            int shown = 0;
            for (Stmt d : rows) {
                if (shown++ == 20) {
                    t.append(String.format(Locale.ROOT, "| | | | | | (%d more) |%n", rows.size() - 20));
                    break;
                }
                t.append(String.format(Locale.ROOT, "| %.3f | %.3f | %.1f | %,.0f | %.3f | `%s` |%n",
                        d.calls() / n, d.rows() / n, d.execMs() * 1000 / n, d.walBytes() / n, d.dirtied() / n,
                        shorten(d.query())));
            }
        }
        String md = t.toString();
        if (out != null) {
            Files.writeString(out, md, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        }
        return md;
    }

    private static String shorten(String q) {
        String one = q.replaceAll("\\s+", " ").replace("|", "\\|").replace("`", "'");
        return one.length() <= 160 ? one : one.substring(0, 157) + "...";
    }

    private Snapshot snapshot() throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbc); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            var statements = new LinkedHashMap<String, Stmt>();
            boolean available = true;
            st.execute("SAVEPOINT s");
            try (ResultSet rs = st.executeQuery("SELECT userid || '/' || queryid, query, calls, rows,"
                    + " total_exec_time, total_plan_time, wal_bytes, shared_blks_dirtied FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    + " AND query NOT LIKE '%pg_stat%' AND query NOT IN ('SAVEPOINT s', 'ROLLBACK TO SAVEPOINT s')")) {
                while (rs.next()) {
                    statements.put(rs.getString(1), new Stmt(rs.getString(2), rs.getLong(3), rs.getLong(4),
                            rs.getDouble(5), rs.getDouble(6), rs.getLong(7), rs.getLong(8)));
                }
            } catch (SQLException notLoaded) {
                available = false;
                st.execute("ROLLBACK TO SAVEPOINT s");
            }
            long commits;
            long rollbacks;
            String lsn;
            try (ResultSet rs = st.executeQuery("SELECT xact_commit, xact_rollback, pg_current_wal_lsn()::text FROM"
                    + " pg_stat_database WHERE datname = current_database()")) {
                rs.next();
                commits = rs.getLong(1);
                rollbacks = rs.getLong(2);
                lsn = rs.getString(3);
            }
            var tables = new LinkedHashMap<String, Table>();
            try (ResultSet rs = st.executeQuery("SELECT t.relname, t.n_tup_ins, t.n_tup_upd, t.n_tup_hot_upd,"
                    + " t.n_tup_del, coalesce(io.heap_blks_read, 0) + coalesce(io.heap_blks_hit, 0),"
                    + " coalesce(io.idx_blks_read, 0) + coalesce(io.idx_blks_hit, 0),"
                    + " coalesce(io.toast_blks_read, 0) + coalesce(io.toast_blks_hit, 0)"
                    + " + coalesce(io.tidx_blks_read, 0) + coalesce(io.tidx_blks_hit, 0),"
                    + " coalesce((SELECT n_tup_ins FROM pg_stat_all_tables x WHERE x.relid = c.reltoastrelid), 0)"
                    + " FROM pg_stat_user_tables t JOIN pg_statio_user_tables io USING (relid)"
                    + " JOIN pg_class c ON c.oid = t.relid WHERE t.schemaname = 'paynotify' ORDER BY t.relname")) {
                while (rs.next()) {
                    tables.put(rs.getString(1), new Table(rs.getString(1), rs.getLong(2), rs.getLong(3),
                            rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)));
                }
            }
            c.commit();
            return new Snapshot(statements, available, commits, rollbacks, lsn, tables);
        }
    }
}
