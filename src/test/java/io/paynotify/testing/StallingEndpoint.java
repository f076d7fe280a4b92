package io.paynotify.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A merchant endpoint that hangs after its headers: a raw socket server on {@code 127.0.0.1} that reads each request,
 * answers {@code 200} with {@code Content-Length: 1000} and then never sends a byte of that body. It records when
 * each exchange's headers were sent and when the client closed the connection, and how many were open at once. The
 * application's port is reserved before it starts ({@link #reservePort()}, like {@link WebhookReceiver}'s); a
 * test may also run one on a free port of its own ({@link #onFreePort()}).
 */
public final class StallingEndpoint implements AutoCloseable {

    /** The system property with the port, set by {@link FreshDatabaseResource}. */
    static final String PORT = "pntest.stall.port";

    private static final Pattern WEBHOOK_ID =
            Pattern.compile("^webhook-id:\\s*(\\S+)\\s*$", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern CONTENT_LENGTH =
            Pattern.compile("^content-length:\\s*(\\d+)\\s*$", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);

    /**
     * One exchange: the request's {@code webhook-id} (or null), when the headers of the answer left, and when the
     * client closed the connection (completed then; never, while it is open).
     */
    public record Exchange(
            String webhookId, String requestHead, Instant headersSent, CompletableFuture<Instant> closed) {
        public boolean open() {
            return !closed.isDone();
        }
    }

    private static StallingEndpoint instance;

    private final ServerSocket server;
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();

    private StallingEndpoint(int port) throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        Thread t = new Thread(this::accept, "test-stalling-endpoint");
        t.setDaemon(true);
        t.start();
    }

    /** A free port, reserved for the application's endpoint (called before the application starts). */
    static int reservePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            System.setProperty(PORT, Integer.toString(s.getLocalPort()));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The endpoint of this run, on its reserved port, started on first use. */
    public static synchronized StallingEndpoint get() {
        if (instance == null) {
            try {
                instance = new StallingEndpoint(Integer.parseInt(System.getProperty(PORT)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** An endpoint of the test's own, on a free port; close it when done. */
    public static StallingEndpoint onFreePort() {
        try {
            return new StallingEndpoint(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Every exchange so far, in order of arrival. */
    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    /** The exchanges of one event (by webhook-id). */
    public List<Exchange> of(String eventId) {
        return exchanges.stream().filter(e -> eventId.equals(e.webhookId())).toList();
    }

    /** Connections open right now. */
    public int openConnections() {
        return open.get();
    }

    /** The most connections open at once since the last {@link #reset()}. */
    public int mostOpenConnections() {
        return mostOpen.get();
    }

    /** Closes every connection still open (their clients see the connection drop) and forgets what was recorded. */
    public void reset() {
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
        exchanges.clear();
        mostOpen.set(open.get());
    }

    @Override
    public void close() {
        reset();
        closeQuietly(server);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                Thread t = new Thread(() -> serve(s), "test-stalling-endpoint-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                // closed
            }
        }
    }

    private void serve(Socket s) {
        CompletableFuture<Instant> closed = new CompletableFuture<>();
        try (s) {
            InputStream in = s.getInputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            Matcher length = CONTENT_LENGTH.matcher(head);
            in.readNBytes(length.find() ? Integer.parseInt(length.group(1)) : 0);
            Matcher id = WEBHOOK_ID.matcher(head);
            OutputStream out = s.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            exchanges.add(new Exchange(id.find() ? id.group(1) : null, head, Instant.now(), closed));
            // the body never comes: wait for the client to give up
            while (in.read() != -1) {
                // a client sends nothing more on this connection; whatever it sends is ignored
            }
        } catch (IOException e) {
            // reset by the client, or closed by reset()
        } finally {
            closed.complete(Instant.now());
            open.decrementAndGet();
            sockets.remove(s);
        }
    }

    /** The request line and headers, up to the blank line; null when the client closed first. */
    private static String readHead(InputStream in) throws IOException {
        var head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
            if (matched == 4) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
            if (head.size() > 64 * 1024) {
                return null;
            }
        }
        return null;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing only
        }
    }
}
