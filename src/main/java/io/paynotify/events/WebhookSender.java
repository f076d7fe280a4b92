package io.paynotify.events;

import io.netty.util.NetUtil;
import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.events.DeliveryWorker.Result;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.TrustOptions;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLException;

/**
 * One webhook attempt over the network, under one deadline (docs/api.md "Webhooks"): resolve the URL's host, check
 * every address against {@link WebhookTargets}, connect to the checked address (so a second DNS answer can never
 * lead elsewhere), send the POST, read the status and at most {@link #MAX_BODY} bytes of the body. Whatever phase
 * the time goes to, the attempt ends {@link Timeouts#deadline} after it began: a timer closes the connection and
 * the result is {@code timeout}.
 *
 * <p>Nothing here blocks a caller or holds a thread while waiting. Names are resolved on a small pool of their own
 * ({@link #RESOLVER_THREADS}), concurrent lookups of one name share one resolution, and each attempt waits for it at
 * most {@link Timeouts#dns}: a name that takes long to resolve holds one resolver thread, never the delivery loop
 * nor another merchant's lookup. The HTTP exchange runs on Vert.x (non-blocking), so a merchant endpoint that sends
 * its headers and then stalls holds a socket until the deadline, and no thread at all. Connections are kept alive
 * per checked address and host name; no redirect is followed; TLS verifies the certificate against the URL's host
 * name (which is also the SNI name and the {@code Host} header), whatever address it connects to.
 */
final class WebhookSender {

    /** From the start of the attempt to the last byte read: DNS, connect, request, headers, body. */
    static final Duration DEADLINE = Duration.ofSeconds(10);

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DNS_TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_BODY = 1024;
    static final int RESOLVER_THREADS = 8;
    /** Idle keep-alive connections close after this: shorter than common servers' own (Node.js: 5 s). */
    static final int KEEP_ALIVE_SECONDS = 4;

    /** The limits of one attempt; {@link #STANDARD} in the application, shorter in tests. */
    record Timeouts(Duration deadline, Duration connect, Duration dns) {
        static final Timeouts STANDARD = new Timeouts(DEADLINE, CONNECT_TIMEOUT, DNS_TIMEOUT);
    }

    private final Vertx vertx;
    private final HttpClient http;
    private final WebhookResolver resolver;
    private final boolean allowLoopback;
    private final Timeouts timeouts;
    private final ThreadPoolExecutor resolverPool;
    private final Map<String, CompletableFuture<List<InetAddress>>> lookups = new ConcurrentHashMap<>();

    WebhookSender(Vertx vertx, WebhookResolver resolver, boolean allowLoopback, int maxConnections) {
        this(vertx, resolver, allowLoopback, maxConnections, Timeouts.STANDARD, null);
    }

    /** @param trust the certificates TLS trusts; null for the JVM's default trust store (the application's). */
    WebhookSender(
            Vertx vertx,
            WebhookResolver resolver,
            boolean allowLoopback,
            int maxConnections,
            Timeouts timeouts,
            TrustOptions trust) {
        this.vertx = vertx;
        this.resolver = resolver;
        this.allowLoopback = allowLoopback;
        this.timeouts = timeouts;
        HttpClientOptions options = new HttpClientOptions()
                .setName("paynotify-webhooks")
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(true)
                .setKeepAliveTimeout(KEEP_ALIVE_SECONDS)
                .setConnectTimeout((int) timeouts.connect().toMillis())
                .setDecompressionSupported(false)
                .setVerifyHost(true)
                .setTrustAll(false);
        if (trust != null) {
            options.setTrustOptions(trust);
        }
        // never a wait for a pooled connection: the worker's own limits bound the attempts in flight
        this.http = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(maxConnections));
        this.resolverPool = new ThreadPoolExecutor(
                RESOLVER_THREADS,
                RESOLVER_THREADS,
                30,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                DaemonThreads.named("paynotify-webhook-dns"));
        this.resolverPool.allowCoreThreadTimeOut(true);
    }

    /**
     * POSTs the body with these headers to the URL. Never throws and never blocks; the result is there at most the
     * deadline after this call (an HTTP status, or an error: {@code timeout}, {@code address not allowed}, …).
     */
    CompletableFuture<Result> post(URI url, Map<String, String> headers, byte[] body) {
        Exchange x = new Exchange();
        try {
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            String host = url.getHost();
            if (host == null || !(scheme.equals("http") || scheme.equals("https"))) {
                x.finish(Result.error("bad url"));
                return x.done;
            }
            boolean tls = scheme.equals("https");
            int port = url.getPort() != -1 ? url.getPort() : tls ? 443 : 80;
            String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            lookup(name)
                    .copy()
                    .orTimeout(timeouts.dns().toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((addresses, error) -> {
                        try {
                            if (error != null) {
                                x.finish(Result.error(describe(error)));
                            } else {
                                x.connect(addresses, url, name, port, tls, headers, body);
                            }
                        } catch (RuntimeException e) { // a client closed at shutdown, say: never a lost result
                            x.finish(Result.error(describe(e)));
                        }
                    });
        } catch (RuntimeException e) {
            x.finish(Result.error(describe(e)));
        }
        return x.done;
    }

    /** The addresses of a name: an IP literal at once, a name on the resolver pool (one lookup per name at a time). */
    private CompletableFuture<List<InetAddress>> lookup(String name) {
        if (NetUtil.isValidIpV4Address(name) || NetUtil.isValidIpV6Address(name)) {
            try {
                return CompletableFuture.completedFuture(List.of(InetAddress.getByName(name))); // parsed, not looked up
            } catch (UnknownHostException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        String key = name.toLowerCase(Locale.ROOT);
        CompletableFuture<List<InetAddress>> f =
                lookups.computeIfAbsent(key, k -> CompletableFuture.supplyAsync(() -> resolve(k), resolverPool));
        f.whenComplete((a, e) -> lookups.remove(key, f));
        return f;
    }

    private List<InetAddress> resolve(String name) {
        try {
            List<InetAddress> addresses = resolver.resolve(name);
            if (addresses.isEmpty()) {
                throw new UnknownHostException("no address");
            }
            return addresses;
        } catch (UnknownHostException e) {
            throw new CompletionException(e);
        }
    }

    /**
     * The state of one attempt: its result (decided once), its deadline timer, and its request once there is one. A
     * result that ends a connection is handed out only once that connection is closed: the caller's count of attempts
     * in flight (four per client, {@link DeliveryWorker}) then never runs ahead of the connections really open.
     */
    private final class Exchange {
        final CompletableFuture<Result> done = new CompletableFuture<>();
        final AtomicReference<Result> decided = new AtomicReference<>();
        final long started = System.nanoTime();
        final long timer;
        volatile HttpClientRequest request;
        /** Set before a connection is asked for: from then on, the request's outcome hands the result out. */
        volatile boolean connecting;
        /** Body bytes read so far; only touched on the connection's event loop. */
        int read;

        Exchange() {
            timer = vertx.setTimer(timeouts.deadline().toMillis(), id -> {
                if (decided.compareAndSet(null, Result.error("timeout"))) {
                    closeThenHandOut();
                }
            });
        }

        /** Decides the result where no connection is open; false when it was decided before. */
        boolean finish(Result r) {
            if (decided.compareAndSet(null, r)) {
                vertx.cancelTimer(timer);
                done.complete(r);
                return true;
            }
            return false;
        }

        /** Decides the result and closes the connection; the result is handed out once it is closed. */
        void finishClosing(Result r) {
            if (decided.compareAndSet(null, r)) {
                vertx.cancelTimer(timer);
                closeThenHandOut();
            }
        }

        /**
         * Closes the connection, if there is one, and then completes {@link #done} with the decided result. While a
         * connection is being asked for, its outcome does this instead ({@link #connect}, {@link #send}).
         */
        private void closeThenHandOut() {
            HttpClientRequest r = request;
            if (r != null) {
                r.connection().close().onComplete(v -> done.complete(decided.get()));
            } else if (!connecting) {
                done.complete(decided.get());
            }
        }

        long remainingMillis() {
            return timeouts.deadline().toMillis() - (System.nanoTime() - started) / 1_000_000;
        }

        void connect(
                List<InetAddress> addresses,
                URI url,
                String name,
                int port,
                boolean tls,
                Map<String, String> headers,
                byte[] body) {
            if (!allowLoopback) {
                for (InetAddress a : addresses) {
                    if (!WebhookTargets.allowed(a)) {
                        finish(Result.error("address not allowed"));
                        return;
                    }
                }
            }
            connecting = true; // before the check: a deadline from now on leaves the result to this attempt's outcome
            long remaining = remainingMillis();
            if (decided.get() != null || remaining <= 0) {
                finish(Result.error("timeout"));
                done.complete(decided.get()); // decided by the deadline while the name was looked up
                return;
            }
            RequestOptions o = new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(bare(addresses.get(0)), port)))
                    .setHost(name)
                    .setPort(port)
                    .setSsl(tls)
                    .setURI(target(url))
                    .setFollowRedirects(false)
                    .setConnectTimeout(Math.min(timeouts.connect().toMillis(), remaining));
            headers.forEach(o::putHeader);
            boolean defaultPort = port == (tls ? 443 : 80);
            o.putHeader("Host", defaultPort ? url.getHost() : url.getHost() + ":" + port);
            http.request(o).onComplete(ar -> {
                if (ar.failed()) {
                    finish(Result.error(describe(ar.cause())));
                    done.complete(decided.get()); // decided by the deadline while connecting, if not just now
                } else {
                    send(ar.result(), body);
                }
            });
        }

        private void send(HttpClientRequest req, byte[] body) {
            request = req;
            if (decided.get() != null) { // the deadline passed while connecting
                closeThenHandOut();
                return;
            }
            req.send(Buffer.buffer(body)).onComplete(ar -> {
                if (ar.failed()) {
                    finishClosing(Result.error(describe(ar.cause())));
                    return;
                }
                HttpClientResponse response = ar.result();
                Result r = new Result(
                        response.statusCode(), null, DeliveryWorker.retryAfter(response.getHeader("Retry-After")));
                response.exceptionHandler(e -> finishClosing(Result.error(describe(e))));
                response.handler(chunk -> {
                    read += chunk.length();
                    if (read >= MAX_BODY) {
                        finishClosing(r); // enough of it: stop reading
                    }
                });
                response.endHandler(v -> finish(r));
            });
        }
    }

    /** The address without the name it was resolved from: the connection pool then keys on the address itself. */
    private static InetAddress bare(InetAddress a) {
        try {
            if (a instanceof Inet6Address v6) {
                return Inet6Address.getByAddress(null, v6.getAddress(), v6.getScopeId() > 0 ? v6.getScopeId() : -1);
            }
            return InetAddress.getByAddress(a.getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // only for a wrong length, which an InetAddress never has
        }
    }

    private static String target(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    /** The short fixed error text of a failed attempt (docs/api.md "Webhooks"). */
    static String describe(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof TimeoutException
                    || e instanceof io.netty.channel.ConnectTimeoutException
                    || e instanceof SocketTimeoutException) {
                return "timeout";
            }
            if (e instanceof UnknownHostException) {
                return "unknown host";
            }
            if (e instanceof SSLException) {
                return "tls failed";
            }
            if (e instanceof ConnectException) {
                return "connection refused";
            }
            if (e instanceof IllegalArgumentException) {
                return "bad url";
            }
        }
        return "connection failed";
    }
}
