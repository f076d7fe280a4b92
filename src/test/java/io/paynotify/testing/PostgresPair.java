package io.paynotify.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two PostgreSQL 15 servers of their own on free 127.0.0.1 ports (docs/operations.md "Failover"): a primary with
 * {@code synchronous_standby_names = 'standby1'} and {@code synchronous_commit = on}, and a streaming standby made
 * by {@code pg_basebackup}, for FailoverIT. Both run from {@link #BIN} as {@code postgres} when the test runs as root
 * (PostgreSQL refuses root). The primary's settings are command-line options, so the promoted standby does not wait
 * for a standby of its own. Closing stops both and removes their directories.
 */
public final class PostgresPair implements AutoCloseable {

    public static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    public static final String STANDBY_NAME = "standby1";

    public final int primaryPort;
    public final int standbyPort;
    private final Path dir;
    private final Path primary;
    private final Path standby;

    private PostgresPair(Path dir, int primaryPort, int standbyPort) {
        this.dir = dir;
        this.primaryPort = primaryPort;
        this.standbyPort = standbyPort;
        this.primary = dir.resolve("primary");
        this.standby = dir.resolve("standby");
    }

    /** initdb, the primary started, the standby copied and started, and its replication synchronous. */
    public static PostgresPair start() throws Exception {
        return start(true);
    }

    /**
     * As {@link #start()}; with {@code synchronous} false the primary has no {@code synchronous_standby_names}: the
     * standby streams asynchronously (what the start warns about).
     */
    public static PostgresPair start(boolean synchronous) throws Exception {
        assertTrue(Files.isExecutable(BIN.resolve("initdb")), BIN + "/initdb is missing (postgresql-15)");
        Path dir = Files.createTempDirectory("pgpair-");
        var pair = new PostgresPair(dir, PackagedApp.freePort(), PackagedApp.freePort());
        if ("root".equals(System.getProperty("user.name"))) {
            run("chown", "postgres", dir.toString());
        }
        runAsPostgres(
                BIN.resolve("initdb").toString(),
                "-D",
                pair.primary.toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8");
        runAsPostgres(
                BIN.resolve("pg_ctl").toString(),
                "-D",
                pair.primary.toString(),
                "-w",
                "-t",
                "30",
                "-l",
                dir.resolve("primary.log").toString(),
                "-o",
                pair.options(pair.primaryPort)
                        + (synchronous ? " -c synchronous_standby_names=" + STANDBY_NAME : "")
                        + " -c synchronous_commit=on",
                "start");
        runAsPostgres(
                BIN.resolve("pg_basebackup").toString(),
                "-h",
                "127.0.0.1",
                "-p",
                Integer.toString(pair.primaryPort),
                "-U",
                "postgres",
                "-D",
                pair.standby.toString(),
                "-X",
                "stream",
                "-R",
                "-c",
                "fast",
                "--no-sync");
        // -R wrote standby.signal and primary_conninfo; the name is what synchronous_standby_names matches
        runAsPostgres(
                "sh",
                "-c",
                "echo \"primary_conninfo = 'host=127.0.0.1 port=" + pair.primaryPort
                        + " user=postgres application_name=" + STANDBY_NAME + "'\" >> " + pair.standby
                        + "/postgresql.auto.conf");
        runAsPostgres(
                BIN.resolve("pg_ctl").toString(),
                "-D",
                pair.standby.toString(),
                "-w",
                "-t",
                "30",
                "-l",
                dir.resolve("standby.log").toString(),
                "-o",
                pair.options(pair.standbyPort),
                "start");
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> (synchronous ? "sync" : "async")
                        .equals(pair.query(
                                pair.primaryPort,
                                "postgres",
                                "SELECT coalesce(max(sync_state), 'none') FROM pg_stat_replication WHERE application_name = '"
                                        + STANDBY_NAME + "'")));
        return pair;
    }

    private String options(int port) {
        return "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + dir
                + " -c max_connections=100 -c shared_buffers=32MB";
    }

    /** {@code jdbc:postgresql://primary,standby/db?targetServerType=primary}, as the service is given both hosts. */
    public String bothHostsUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + primaryPort + ",127.0.0.1:" + standbyPort + "/" + database
                + "?targetServerType=primary&hostRecheckSeconds=1";
    }

    public static String url(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** One value of one query on that server. */
    public String query(int port, String database, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(port, database), "postgres", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    public void execute(int port, String database, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(port, database), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * SIGKILL of the primary's postmaster and every process of it, at once: a dead machine, not a shutdown. Only the
     * processes this pair started, by their ids.
     */
    public void killPrimary() throws Exception {
        long postmaster = Long.parseLong(
                Files.readAllLines(primary.resolve("postmaster.pid")).get(0).trim());
        // stopped first, so that no backend forked between the listing and the kill survives it
        run("kill", "-STOP", Long.toString(postmaster));
        List<String> pids = new ArrayList<>();
        pids.add(Long.toString(postmaster));
        ProcessHandle.of(postmaster).orElseThrow().children().forEach(p -> pids.add(Long.toString(p.pid())));
        var kill = new ArrayList<String>(List.of("kill", "-KILL"));
        kill.addAll(pids);
        run(kill.toArray(String[]::new));
    }

    /** {@code pg_ctl promote -w}: the standby leaves recovery and takes writes. */
    public void promoteStandby() throws Exception {
        runAsPostgres(BIN.resolve("pg_ctl").toString(), "-D", standby.toString(), "-w", "-t", "30", "promote");
        assertEquals("f", query(standbyPort, "postgres", "SELECT pg_is_in_recovery()"));
    }

    @Override
    public void close() throws Exception {
        for (Path data : List.of(primary, standby)) {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                try {
                    runAsPostgres(
                            BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop");
                } catch (AssertionError alreadyGone) {
                    // the killed primary left its pid file behind
                }
            }
        }
        run("rm", "-rf", dir.toString());
    }

    static void runAsPostgres(String... command) throws IOException, InterruptedException {
        var full = new ArrayList<String>();
        if ("root".equals(System.getProperty("user.name"))) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(command));
        run(full.toArray(String[]::new));
    }

    static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (" + p.exitValue() + "): " + out);
        }
    }
}
