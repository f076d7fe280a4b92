package io.paynotify.simulator.gateway;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal HTTP/1.1 server on 127.0.0.1: one request per connection ({@code Connection: close}), each on a pooled
 * thread so that a slow answer never holds up another. It exists instead of {@code com.sun.net.httpserver} because
 * that one rewrites response header names ({@code Wechatpay-Timestamp} → {@code Wechatpay-timestamp}), and the
 * official WeChat Pay v3 SDK reads them case-sensitively.
 */
final class LoopbackHttpServer implements AutoCloseable {

    /** Answers one request; may block (a slow answer), and is interrupted when the server closes. */
    interface Handler {
        Reply handle(ReceivedRequest request) throws InterruptedException;
    }

    private static final int MAX_THREADS = 64;
    private static final int READ_TIMEOUT_MS = 15_000;
    private static final int MAX_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 100;
    private static final int MAX_BODY = 1024 * 1024;
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final ServerSocket serverSocket;
    private final Handler handler;
    private final ThreadPoolExecutor workers;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private LoopbackHttpServer(ServerSocket serverSocket, Handler handler, String name) {
        this.serverSocket = serverSocket;
        this.handler = handler;
        AtomicInteger count = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.acceptor = new Thread(this::acceptLoop, name + "-accept");
        this.acceptor.setDaemon(true);
    }

    /** Binds 127.0.0.1:{@code port} (0 = a free port) and starts accepting. */
    static LoopbackHttpServer start(int port, Handler handler, String threadName) throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), 128);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        LoopbackHttpServer server = new LoopbackHttpServer(socket, handler, threadName);
        server.acceptor.start();
        return server;
    }

    int port() {
        return serverSocket.getLocalPort();
    }

    /** Stops accepting, drops open connections and interrupts handlers still at work (slow answers). */
    @Override
    public void close() {
        closed = true;
        try {
            serverSocket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        workers.shutdownNow();
        try {
            acceptor.join(2_000);
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            open.add(socket);
            try {
                workers.execute(() -> serve(socket));
            } catch (RejectedExecutionException e) {
                // all threads busy (or closing): say so rather than queue without bound
                try {
                    write(socket.getOutputStream(), Reply.text(503, "simulator busy"));
                } catch (IOException ignored) {
                    // the client will see the connection drop
                }
                open.remove(socket);
                closeQuietly(socket);
            }
        }
    }

    private void serve(Socket socket) {
        try {
            socket.setSoTimeout(READ_TIMEOUT_MS);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            Reply reply;
            try {
                ReceivedRequest request = read(in, out);
                if (request == null) {
                    return;
                }
                reply = handler.handle(request);
            } catch (BadRequest e) {
                reply = Reply.text(e.status, e.getMessage());
            } catch (InterruptedException e) {
                return; // the gateway is closing
            } catch (RuntimeException e) {
                e.printStackTrace(); // a bug in the simulator: show it where it runs
                reply = Reply.text(500, "the simulator failed: " + e);
            }
            write(out, reply);
            socket.shutdownOutput();
        } catch (IOException e) {
            // the client went away or timed out; nothing to answer
        } finally {
            open.remove(socket);
            closeQuietly(socket);
        }
    }

    private static ReceivedRequest read(InputStream in, OutputStream out) throws IOException {
        String requestLine = readLine(in, true);
        if (requestLine == null) {
            return null;
        }
        Instant receivedAt = Instant.now();
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || !parts[2].startsWith("HTTP/1.")) {
            throw new BadRequest(400, "malformed request line");
        }
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        for (String line = readLine(in, false); !line.isEmpty(); line = readLine(in, false)) {
            int colon = line.indexOf(':');
            if (colon <= 0 || headers.size() >= MAX_HEADERS) {
                throw new BadRequest(400, "malformed or too many header lines");
            }
            headers.add(Map.entry(
                    line.substring(0, colon).trim(), line.substring(colon + 1).trim()));
        }
        String expect = value(headers, "Expect");
        if (expect != null && expect.equalsIgnoreCase("100-continue")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        byte[] body = readBody(in, headers);
        return new ReceivedRequest(parts[0], parts[1], headers, body, receivedAt);
    }

    private static byte[] readBody(InputStream in, List<Map.Entry<String, String>> headers) throws IOException {
        String transferEncoding = value(headers, "Transfer-Encoding");
        if (transferEncoding != null
                && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return readChunked(in);
        }
        String length = value(headers, "Content-Length");
        if (length == null) {
            return new byte[0];
        }
        int n;
        try {
            n = Integer.parseInt(length.trim());
        } catch (NumberFormatException e) {
            throw new BadRequest(400, "bad Content-Length");
        }
        if (n < 0 || n > MAX_BODY) {
            throw new BadRequest(413, "body larger than " + MAX_BODY + " bytes");
        }
        byte[] body = in.readNBytes(n);
        if (body.length < n) {
            throw new IOException("body ended early");
        }
        return body;
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in, false);
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new BadRequest(400, "bad chunk size");
            }
            if (size < 0 || body.size() + size > MAX_BODY) {
                throw new BadRequest(413, "body larger than " + MAX_BODY + " bytes");
            }
            if (size == 0) {
                while (!readLine(in, false).isEmpty()) {
                    // trailers are ignored
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length < size) {
                throw new IOException("chunk ended early");
            }
            body.write(chunk);
            readLine(in, false);
        }
    }

    /** A line without its CRLF (or bare LF), decoded as UTF-8; null at a clean end of stream when allowed. */
    private static String readLine(InputStream in, boolean endAllowed) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                if (endAllowed && line.size() == 0) {
                    return null;
                }
                throw new IOException("connection closed mid-line");
            }
            if (line.size() >= MAX_LINE) {
                throw new BadRequest(400, "line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
        byte[] bytes = line.toByteArray();
        int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    private static void write(OutputStream out, Reply reply) throws IOException {
        StringBuilder head = new StringBuilder()
                .append("HTTP/1.1 ")
                .append(reply.status())
                .append(' ')
                .append(reason(reply.status()))
                .append("\r\n");
        for (Map.Entry<String, String> h : reply.headers()) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        head.append("Date: ").append(HTTP_DATE.format(Instant.now())).append("\r\n");
        if (reply.status() != 204) {
            head.append("Content-Length: ").append(reply.body().length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
        out.write(reply.body());
        out.flush();
    }

    private static String value(List<Map.Entry<String, String>> headers, String name) {
        return headers.stream()
                .filter(h -> h.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 204 -> "No Content";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Payload Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    /** A request the server refuses before any handler sees it. */
    private static final class BadRequest extends IOException {
        private final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }
}
