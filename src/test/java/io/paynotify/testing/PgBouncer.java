package io.paynotify.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code pgbouncer} (1.18) in transaction pooling mode on a free 127.0.0.1 port, in front of the local
 * PostgreSQL (docs/operations.md "PgBouncer"), for the packaged ITs. Its files live in a directory of its own; as
 * root it runs as {@code postgres} (PgBouncer refuses root). Closing it stops the process.
 */
public final class PgBouncer implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/sbin/pgbouncer");

    private final Process process;
    private final Path dir;
    public final int port;

    private PgBouncer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /**
     * Starts PgBouncer for one database of the local PostgreSQL, with the settings docs/operations.md gives.
     *
     * @param database the database name, the same on both sides
     * @param poolSize server connections per (database, user): what every replica's pool shares
     */
    public static PgBouncer start(String database, int poolSize) throws IOException {
        assertTrue(Files.isExecutable(BINARY), BINARY + " is missing: apt-get install pgbouncer (.ci/run does)");
        int port = PackagedApp.freePort();
        Path dir = Files.createTempDirectory(
                "pgbouncer-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path users = dir.resolve("userlist.txt");
        Files.writeString(users, "\"postgres\" \"\"\n");
        Path ini = dir.resolve("pgbouncer.ini");
        Files.writeString(
                ini,
                String.join(
                        "\n",
                        "[databases]",
                        database + " = host=127.0.0.1 port=5432 dbname=" + database,
                        "[pgbouncer]",
                        "listen_addr = 127.0.0.1",
                        "listen_port = " + port,
                        "unix_socket_dir =",
                        "auth_type = trust",
                        "auth_file = " + users,
                        "pool_mode = transaction",
                        "default_pool_size = " + poolSize,
                        "max_client_conn = 500",
                        // pgjdbc sends extra_float_digits; the service's options come from the role instead
                        "ignore_startup_parameters = extra_float_digits,options",
                        "server_reset_query =",
                        "logfile = " + dir.resolve("pgbouncer.log"),
                        "pidfile = " + dir.resolve("pgbouncer.pid"),
                        ""));
        for (Path p : List.of(users, ini)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        }
        var command = new ArrayList<String>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(BINARY.toString());
        command.add(ini.toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile())
                .start();
        var bouncer = new PgBouncer(process, dir, port);
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("pgbouncer exited: " + Files.readString(dir.resolve("stdout.log")));
                    }
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                        return true;
                    } catch (IOException notYet) {
                        return false;
                    }
                });
        return bouncer;
    }

    /** The JDBC URL of the database through PgBouncer. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** PgBouncer's own log. */
    public String log() throws IOException {
        Path log = dir.resolve("pgbouncer.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws Exception {
        Path pid = dir.resolve("pgbouncer.pid");
        if (Files.exists(pid)) {
            // the pgbouncer process itself (under runuser it is a grandchild)
            new ProcessBuilder("kill", Files.readString(pid).trim()).start().waitFor(5, TimeUnit.SECONDS);
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
