package io.paynotify.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small TCP proxy between the application and PostgreSQL, so that tests can make the database "hang": in hang
 * mode it keeps accepting connections and reading nothing back (the server seems alive and never answers).
 * The mode is a JVM system property, because the test resource and the test class live in different class
 * loaders: {@link #hang()} and {@link #heal()} flip it from anywhere.
 */
public final class TcpProxy implements AutoCloseable {

    private static final String MODE = "pntest.proxy.mode";

    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    public TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(this::acceptLoop, "test-db-proxy");
        t.setDaemon(true);
        t.start();
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

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread t = new Thread(() -> connect(client), "test-db-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void connect(Socket client) {
        try {
            waitWhileHanging();
            Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            sockets.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        } catch (IOException e) {
            closeQuietly(client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buf = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buf)) >= 0) {
                            waitWhileHanging();
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side closed: close both
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "test-db-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void waitWhileHanging() {
        while (hanging() && !closed) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void closeQuietly(Socket s) {
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
