package io.paynotify.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small TCP proxy between the application and PostgreSQL, so that tests can make the database "hang": in hang
 * mode it keeps accepting connections and reading what arrives, and passes nothing on in either direction (the
 * server seems alive and never answers). What it held back passes once traffic flows again, as from a server that
 * was only slow; a connection whose client gave up meanwhile is closed after that.
 *
 * <p>The mode is a JVM system property, because the test resource and the test class live in different class
 * loaders: {@link #hang()} and {@link #heal()} flip it from anywhere, and {@link #heldConnections()} reads back, the
 * same way, how many connections are still waiting on the hang.
 */
public final class TcpProxy implements AutoCloseable {

    private static final String MODE = "pntest.proxy.mode";
    private static final String HELD = "pntest.proxy.held";
    private static final String HELD_IDS = "pntest.proxy.held.ids";
    private static final String HELD_WHAT = "pntest.proxy.held.what";
    private static final byte[] END = new byte[0];

    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Set<Link> held = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        System.setProperty(HELD, "0");
        daemon(this::acceptLoop, "test-db-proxy");
    }

    public int port() {
        return server.getLocalPort();
    }

    /** From now on nothing passes in either direction; new connections are accepted and left unanswered. */
    public static void hang() {
        System.setProperty(MODE, "hang");
    }

    /** Traffic passes again. */
    public static void heal() {
        System.clearProperty(MODE);
    }

    static boolean hanging() {
        return "hang".equals(System.getProperty(MODE));
    }

    /**
     * How many connections have sent something the proxy has not passed on (or are owed an answer it holds back)
     * and are still open at the client's end. During a hang these are the client's hung connections; it drops to
     * zero once the client has given up on every one of them (its socket timeout closed them).
     */
    public static int heldConnections() {
        return Integer.parseInt(System.getProperty(HELD, "0"));
    }

    /** The connections held now, by id: for {@link #anyStillHeld}. */
    public static java.util.Set<String> heldNow() {
        var out = new java.util.HashSet<String>();
        for (String id : System.getProperty(HELD_IDS, ",").split(",")) {
            if (!id.isEmpty()) {
                out.add(id);
            }
        }
        return out;
    }

    /** The connections held now, each with the printable text of the last bytes it sent (for a failure message). */
    public static String heldDescription() {
        return System.getProperty(HELD_WHAT, "");
    }

    private static String printable(byte[] buf, int n) {
        var b = new StringBuilder();
        for (int i = 0; i < n && b.length() < 300; i++) {
            int ch = buf[i] & 0xff;
            b.append(ch >= 32 && ch < 127 ? (char) ch : '.');
        }
        return b.toString();
    }

    /**
     * True while any of these connections (from {@link #heldNow}) is still held: once none is, the client has given up
     * on each of them (its socket timeout closed them), whatever connections were held after them.
     */
    public static boolean anyStillHeld(java.util.Set<String> ids) {
        var now = heldNow();
        return ids.stream().anyMatch(now::contains);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                // as the driver does on its own socket: no Nagle delay on the small writes of a conversation with
                // PostgreSQL (a write that follows an unacknowledged one would wait for the peer's delayed ACK, ~40 ms)
                client.setTcpNoDelay(true);
                sockets.add(client);
                new Link(client).start();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    /**
     * One client connection and, from its first bytes on, its upstream connection. Each direction has a reader that
     * never stops reading (so a client that gives up is seen at once, even during a hang) and a writer that passes
     * the chunks on while traffic flows.
     */
    private static final java.util.concurrent.atomic.AtomicLong LINK_IDS = new java.util.concurrent.atomic.AtomicLong();

    private final class Link {
        private final long id = LINK_IDS.incrementAndGet();
        private final Socket client;
        private final BlockingQueue<byte[]> toUpstream = new LinkedBlockingQueue<>();
        private final BlockingQueue<byte[]> toClient = new LinkedBlockingQueue<>();
        /**
         * Chunks the client sent that are not yet written to PostgreSQL: what a heal would deliver (a COMMIT, say).
         * Chunks on their way back are not counted: an idle client may never read an unsolicited message.
         */
        private final AtomicInteger pending = new AtomicInteger();

        private volatile boolean clientGone;
        /**
         * PostgreSQL has answered this connection's startup. A connection opened during a hang never is: its startup
         * packet can carry no transaction, and the driver's login thread may hold it open until the heal. (The one
         * byte that answers the driver's SSLRequest, {@code N}, comes before the startup and does not count.)
         */
        private volatile boolean established;

        private long bytesFromServer;
        /** The printable part of the last chunk the client sent: what a held connection is waiting on. */
        private volatile String last = "";

        private volatile Socket upstream;

        Link(Socket client) {
            this.client = client;
        }

        void start() {
            daemon(() -> read(client, toUpstream, true), "test-db-proxy-from-app");
            daemon(this::writeUpstream, "test-db-proxy-to-db");
        }

        private void read(Socket from, BlockingQueue<byte[]> queue, boolean fromClient) {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (fromClient) {
                        pending.incrementAndGet();
                        last = printable(buf, n);
                    } else {
                        bytesFromServer += n;
                        established = bytesFromServer > 1;
                    }
                    queue.add(Arrays.copyOf(buf, n));
                    update(this);
                }
            } catch (IOException e) {
                // closed, from either side
            }
            if (fromClient) {
                clientGone = true;
                update(this);
            }
            queue.add(END);
        }

        private void writeUpstream() {
            try {
                byte[] chunk;
                while ((chunk = toUpstream.take()) != END) {
                    waitWhileHanging();
                    if (upstream == null) {
                        // PostgreSQL's client speaks first: connect once there is something to pass on
                        upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                        upstream.setTcpNoDelay(true);
                        sockets.add(upstream);
                        Socket db = upstream;
                        daemon(() -> read(db, toClient, false), "test-db-proxy-from-db");
                        daemon(this::writeClient, "test-db-proxy-to-app");
                    }
                    write(upstream, chunk);
                    pending.decrementAndGet();
                    update(this);
                }
            } catch (IOException e) {
                // either side closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(client);
                closeQuietly(upstream);
            }
        }

        private void writeClient() {
            try {
                byte[] chunk;
                while ((chunk = toClient.take()) != END) {
                    waitWhileHanging();
                    write(client, chunk);
                }
            } catch (IOException e) {
                // either side closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(client);
                closeQuietly(upstream);
            }
        }

        private void write(Socket to, byte[] chunk) throws IOException {
            OutputStream out = to.getOutputStream();
            out.write(chunk);
            out.flush();
        }

        boolean holding() {
            return established && !clientGone && pending.get() > 0;
        }
    }

    private void update(Link link) {
        synchronized (held) {
            if (link.holding()) {
                held.add(link);
            } else {
                held.remove(link);
            }
            System.setProperty(HELD, Integer.toString(held.size()));
            var ids = new StringBuilder(",");
            var what = new StringBuilder();
            held.forEach(l -> {
                ids.append(l.id).append(',');
                what.append(l.id).append(": ").append(l.last).append('\n');
            });
            System.setProperty(HELD_IDS, ids.toString());
            System.setProperty(HELD_WHAT, what.toString());
        }
    }

    private void waitWhileHanging() {
        if (hanging() && !closed) {
            // a hang has no deadline: it lasts until heal() (or the end of the run); the flag is a system property
            // flipped from another class loader, so there is no monitor to wait on and the wait polls it
            await().forever()
                    .pollInSameThread()
                    .dontCatchUncaughtExceptions()
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> !hanging() || closed);
        }
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        sockets.forEach(TcpProxy::closeQuietly);
    }
}
