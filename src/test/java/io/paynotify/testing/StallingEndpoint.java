package io.paynotify.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A merchant endpoint that hangs after its headers: a server on {@code 127.0.0.1} that reads each request, answers
 * {@code 200} with {@code Content-Length: 1000} and then never sends a byte of that body. It records when each
 * exchange's headers were sent and when the client closed the connection, and how many were open at once. The
 * application's port is reserved before it starts ({@link #reservePort()}, like {@link WebhookReceiver}'s); a
 * test may also run one on a free port of its own ({@link #onFreePort()}).
 *
 * <p>One selector thread serves every connection, and in each round it takes the closes it sees before the new
 * connections: a client that closed one connection and then opened the next is never counted with both open.
 */
public final class StallingEndpoint implements AutoCloseable {

    /** The system property with the port, set by {@link FreshDatabaseResource}. */
    static final String PORT = "pntest.stall.port";

    private static final Pattern WEBHOOK_ID =
            Pattern.compile("^webhook-id:\\s*(\\S+)\\s*$", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern CONTENT_LENGTH =
            Pattern.compile("^content-length:\\s*(\\d+)\\s*$", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final byte[] ANSWER = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

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

    private final ServerSocketChannel server;
    private final Selector selector;
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();

    private StallingEndpoint(int port) throws IOException {
        selector = Selector.open();
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        Thread t = new Thread(this::loop, "test-stalling-endpoint");
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
        return server.socket().getLocalPort();
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
        for (Connection c : connections) {
            c.close();
        }
        exchanges.clear();
        mostOpen.set(open.get());
        selector.wakeup();
    }

    @Override
    public void close() {
        reset();
        try {
            server.close();
            selector.close();
        } catch (IOException ignored) {
            // closing only
        }
    }

    private void loop() {
        ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
        while (server.isOpen()) {
            try {
                selector.select();
                var accepting = new ArrayList<SelectionKey>();
                for (SelectionKey k : selector.selectedKeys()) {
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isAcceptable()) {
                        accepting.add(k);
                    } else if (k.isReadable()) {
                        ((Connection) k.attachment()).read(buffer);
                    }
                }
                selector.selectedKeys().clear();
                if (!accepting.isEmpty()) {
                    // closes that arrived since this round began count before the new connections
                    selector.selectNow();
                    for (SelectionKey k : selector.selectedKeys()) {
                        if (k.isValid() && k.isReadable()) {
                            ((Connection) k.attachment()).read(buffer);
                        }
                    }
                    selector.selectedKeys().clear();
                    accept();
                }
            } catch (IOException | RuntimeException e) {
                if (!server.isOpen()) {
                    return;
                }
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel s;
        while ((s = server.accept()) != null) {
            s.configureBlocking(false);
            var c = new Connection(s);
            connections.add(c);
            mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
            s.register(selector, SelectionKey.OP_READ, c);
        }
    }

    /** One connection: its request head as it comes, then the answer's headers, then nothing until it closes. */
    private final class Connection {
        final SocketChannel channel;
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        final CompletableFuture<Instant> closed = new CompletableFuture<>();
        int matched;
        /** Body bytes of the request still to read before answering; -1 while the head is still coming. */
        long bodyLeft = -1;

        boolean answered;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        void read(ByteBuffer buffer) {
            try {
                buffer.clear();
                int n = channel.read(buffer);
                if (n < 0) {
                    close();
                    return;
                }
                buffer.flip();
                while (buffer.hasRemaining() && !answered) {
                    if (bodyLeft < 0) {
                        byte b = buffer.get();
                        head.write(b);
                        matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
                        if (matched == 4) {
                            Matcher length = CONTENT_LENGTH.matcher(head());
                            bodyLeft = length.find() ? Long.parseLong(length.group(1)) : 0;
                        } else if (head.size() > 64 * 1024) {
                            close();
                            return;
                        }
                    } else {
                        int skip = (int) Math.min(bodyLeft, buffer.remaining());
                        buffer.position(buffer.position() + skip);
                        bodyLeft -= skip;
                    }
                    if (bodyLeft == 0) {
                        answer();
                    }
                }
                // once answered, whatever the client sends is ignored: the body never comes
            } catch (IOException e) {
                close(); // reset by the client
            }
        }

        private String head() {
            return head.toString(StandardCharsets.ISO_8859_1);
        }

        private void answer() throws IOException {
            answered = true;
            ByteBuffer out = ByteBuffer.wrap(ANSWER);
            while (out.hasRemaining()) {
                channel.write(out); // a few dozen bytes into an empty send buffer
            }
            Matcher id = WEBHOOK_ID.matcher(head());
            exchanges.add(new Exchange(id.find() ? id.group(1) : null, head(), Instant.now(), closed));
        }

        synchronized void close() {
            if (closed.isDone()) {
                return;
            }
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing only
            }
            connections.remove(this);
            open.decrementAndGet();
            closed.complete(Instant.now());
        }
    }
}
