package io.paynotify.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.events.DeliveryWorker.Result;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.StallingEndpoint;
import io.paynotify.testing.TestCertificates;
import io.paynotify.testing.TestKeys;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One webhook attempt on the wire ({@link WebhookSender}), on a Vert.x of its own, against servers on
 * {@code 127.0.0.1}, with host names answered by a resolver of the test's own (no DNS): one deadline over every
 * phase (mostly 1.5 s here, 0.8 s of it for DNS), the connection to the checked address under the URL's host name, the address
 * rule after resolution, at most 1 KiB read, no redirect, TLS verified against the URL's host name.
 */
@Tag("unit")
class WebhookSenderTest {

    static final WebhookSender.Timeouts SHORT =
            new WebhookSender.Timeouts(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(800));
    static final byte[] BODY = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
    static final Map<String, String> HEADERS =
            Map.of("Content-Type", "application/json", "webhook-id", "evt_1", "User-Agent", "paynotify-webhooks/1");

    Vertx vertx;
    final Map<String, List<InetAddress>> names = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();
    /** Names whose lookup waits on this latch (at most 10 s), released after each test. */
    final Map<String, Boolean> slow = new ConcurrentHashMap<>();

    final CountDownLatch release = new CountDownLatch(1);
    final List<AutoCloseable> servers = new ArrayList<>();

    final WebhookResolver resolver = new WebhookResolver() {
        @Override
        public List<InetAddress> resolve(String host) throws UnknownHostException {
            lookups.computeIfAbsent(host, k -> new AtomicInteger()).incrementAndGet();
            if (slow.containsKey(host)) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            List<InetAddress> a = names.get(host);
            if (a == null) {
                throw new UnknownHostException(host);
            }
            return a;
        }
    };

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        names.put("merchant.test", List.of(InetAddress.getByName("127.0.0.1")));
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        for (AutoCloseable s : servers) {
            s.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    WebhookSender sender(boolean allowLoopback) {
        return new WebhookSender(vertx, resolver, allowLoopback, 8, SHORT, null);
    }

    static Result await(CompletableFuture<Result> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    FakeGateway gateway() {
        FakeGateway g = new FakeGateway();
        servers.add(g);
        return g;
    }

    static int port(FakeGateway g) {
        return URI.create(g.url()).getPort();
    }

    @Test
    void theRequestGoesToTheCheckedAddressUnderTheUrlsHostName() throws Exception {
        FakeGateway g = gateway().answer(r -> Reply.of(204, "text/plain", ""));
        // the name is known to the test's resolver only: connecting by name again would fail
        URI url = URI.create("http://merchant.test:" + port(g) + "/hooks/paid?shop=7");
        Result r = await(sender(true).post(url, HEADERS, BODY));
        assertEquals(204, r.status());
        assertNull(r.error());
        FakeGateway.Request got = g.last();
        assertEquals("POST", got.method());
        assertEquals("/hooks/paid?shop=7", got.target());
        assertEquals("merchant.test:" + port(g), got.header("Host"));
        assertEquals("application/json", got.header("Content-Type"));
        assertEquals("evt_1", got.header("webhook-id"));
        assertEquals("paynotify-webhooks/1", got.header("User-Agent"));
        assertEquals(Integer.toString(BODY.length), got.header("Content-Length"));
        assertEquals(new String(BODY, StandardCharsets.UTF_8), got.bodyText());
    }

    @Test
    void everyResolvedAddressIsCheckedAndARefusedOneIsNeverConnected() throws Exception {
        FakeGateway g = gateway().answer(r -> Reply.of(204, "text/plain", ""));
        names.put(
                "metadata.test", List.of(InetAddress.getByName("192.0.2.1"), InetAddress.getByName("169.254.169.254")));
        names.put("mapped.test", List.of(InetAddress.getByName("::ffff:100.100.100.200")));
        names.put("aws6.test", List.of(InetAddress.getByName("fd00:ec2::254")));
        WebhookSender strict = sender(false);
        for (String host :
                List.of("metadata.test", "mapped.test", "aws6.test", "merchant.test", "127.0.0.1", "[::1]")) {
            Result r = await(strict.post(URI.create("http://" + host + ":" + port(g) + "/"), HEADERS, BODY));
            assertEquals("address not allowed", r.error(), host);
            assertNull(r.status());
        }
        assertNull(g.last(), "nothing was sent");
        // allow-loopback lets a loopback target through
        assertEquals(
                204,
                await(sender(true).post(URI.create(g.url() + "/"), HEADERS, BODY))
                        .status());
    }

    @Test
    void anEndpointThatSendsItsHeadersAndNeverTheBodyEndsAtTheDeadlineAndItsConnectionIsClosed() throws Exception {
        StallingEndpoint stall = StallingEndpoint.onFreePort();
        servers.add(stall);
        long started = System.nanoTime();
        Result r = await(sender(true).post(URI.create("http://merchant.test:" + stall.port() + "/"), HEADERS, BODY));
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertEquals("timeout", r.error());
        assertNull(r.status(), "a 200 whose body never came is no success");
        assertTrue(ms >= 1400 && ms < 3000, "ended after " + ms + " ms, the deadline is 1.5 s");
        StallingEndpoint.Exchange x = stall.exchanges().get(0);
        Instant closed = x.closed().get(5, TimeUnit.SECONDS);
        assertTrue(Duration.between(x.headersSent(), closed).toMillis() < 3000, "the connection was closed");
    }

    @Test
    void aBodyDrippingInCannotStretchTheDeadline() throws Exception {
        FakeGateway g = gateway()
                .answer(r -> Reply.of(200, "text/plain", "x".repeat(20)).dripping(300));
        long started = System.nanoTime();
        Result r = await(sender(true).post(URI.create(g.url() + "/drip"), HEADERS, BODY));
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertEquals("timeout", r.error());
        assertTrue(ms < 2500, "the whole answer would take 6 s; ended after " + ms + " ms");
    }

    @Test
    void atMostOneKibibyteOfTheAnswerIsReadThenTheConnectionIsClosed() throws Exception {
        // an answer that announces 1 MiB, sends 4 KiB and then stalls: a reader past 1 KiB would wait for the rest
        CompletableFuture<Boolean> closedByClient = new CompletableFuture<>();
        ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        servers.add(server);
        Thread t = new Thread(() -> {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                in.readNBytes(50); // the request is longer: the rest is read below
                OutputStream out = s.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[4096]);
                out.flush();
                s.setSoTimeout(5000);
                byte[] rest = new byte[8192];
                while (in.read(rest) != -1) {
                    // the rest of the request
                }
                closedByClient.complete(true);
            } catch (Exception e) {
                closedByClient.complete(e instanceof java.net.SocketException);
            }
        });
        t.setDaemon(true);
        t.start();
        Result r =
                await(sender(true).post(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/"), HEADERS, BODY));
        assertEquals(200, r.status(), "the status counts once 1 KiB was read, long before the deadline: " + r.error());
        assertTrue(closedByClient.get(6, TimeUnit.SECONDS), "the client closed the connection");
    }

    @Test
    void aNameSlowToResolveTimesOutAloneAndItsConcurrentAttemptsShareOneLookup() throws Exception {
        var hosts = new java.util.concurrent.CopyOnWriteArrayList<String>();
        FakeGateway g = gateway().answer(r -> {
            hosts.add(r.header("Host"));
            return Reply.of(204, "text/plain", "");
        });
        slow.put("slow.test", true);
        names.put("slow.test", List.of(InetAddress.getByName("127.0.0.1")));
        // 2 s for DNS within a 3 s deadline: wide margins on a busy machine
        var sender = new WebhookSender(
                vertx,
                resolver,
                true,
                8,
                new WebhookSender.Timeouts(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(2)),
                null);
        long started = System.nanoTime();
        var hung = new ArrayList<CompletableFuture<Result>>();
        for (int i = 0; i < 20; i++) {
            hung.add(sender.post(URI.create("http://slow.test:" + port(g) + "/"), HEADERS, BODY));
        }
        // another name resolves and is delivered meanwhile
        Result other = await(sender.post(URI.create("http://merchant.test:" + port(g) + "/"), HEADERS, BODY));
        assertEquals(204, other.status());
        long otherMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(otherMs < 1500, "another name waited for the slow one: " + otherMs + " ms");
        for (CompletableFuture<Result> f : hung) {
            assertEquals("timeout", await(f).error());
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms >= 1950 && ms < 2900, "the DNS limit is 2 s, the attempts ended after " + ms + " ms");
        assertEquals(1, lookups.get("slow.test").get(), "one lookup for the twenty attempts");
        assertEquals(List.of("merchant.test:" + port(g)), hosts, "no attempt of the slow name connected");
    }

    @Test
    void failuresHaveTheirShortTexts() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        WebhookSender sender = sender(true);
        assertEquals(
                "connection refused",
                await(sender.post(URI.create("http://127.0.0.1:" + closedPort + "/"), HEADERS, BODY))
                        .error());
        assertEquals(
                "unknown host",
                await(sender.post(URI.create("http://nowhere.test/"), HEADERS, BODY))
                        .error());
        assertEquals(
                "bad url",
                await(sender.post(URI.create("ftp://merchant.test/"), HEADERS, BODY))
                        .error());
        assertEquals(
                "bad url",
                await(sender.post(URI.create("mailto:a@b.test"), HEADERS, BODY)).error());
    }

    @Test
    void aRedirectIsAFailedAnswerNeverFollowed() throws Exception {
        FakeGateway g = gateway();
        AtomicInteger requests = new AtomicInteger();
        g.answer(r -> {
            requests.incrementAndGet();
            return Reply.of(302, "text/plain", "").withHeader("Location", g.url() + "/elsewhere");
        });
        Result r = await(sender(true).post(URI.create(g.url() + "/moved"), HEADERS, BODY));
        assertEquals(302, r.status());
        assertEquals(1, requests.get());
        assertEquals("/moved", g.last().target());
    }

    @Test
    void theRetryAfterOfAnAnswerIsRead() throws Exception {
        FakeGateway g =
                gateway().answer(r -> Reply.of(503, "text/plain", "busy").withHeader("Retry-After", "120"));
        Result r = await(sender(true).post(URI.create(g.url() + "/"), HEADERS, BODY));
        assertEquals(503, r.status());
        assertEquals(120, r.retryAfter().getAsLong());
    }

    @Test
    void tlsVerifiesTheCertificateAgainstTheUrlsHostNameWhileConnectingToTheCheckedAddress() throws Exception {
        String cert = TestCertificates.pem(
                TestKeys.pair(TestKeys.STRANGER),
                "merchant.test",
                Instant.now().minusSeconds(3600),
                Instant.now().plusSeconds(3600));
        var sni = new ConcurrentHashMap<String, Boolean>();
        HttpServer https = vertx.createHttpServer(new HttpServerOptions()
                        .setSsl(true)
                        .setSni(true)
                        .setKeyCertOptions(new PemKeyCertOptions()
                                .setCertValue(Buffer.buffer(cert))
                                .setKeyValue(Buffer.buffer(TestKeys.privatePem(TestKeys.STRANGER)))))
                .requestHandler(req -> {
                    String name = req.connection().indicatedServerName();
                    sni.put(name == null ? "(none)" : name, true);
                    req.response().setStatusCode(204).end();
                });
        int port = https.listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS)
                .actualPort();
        names.put("other.test", List.of(InetAddress.getByName("127.0.0.1")));
        // the standard limits: a first TLS handshake on a busy machine may take longer than the short ones
        var trusting = new WebhookSender(
                vertx,
                resolver,
                true,
                8,
                WebhookSender.Timeouts.STANDARD,
                new PemTrustOptions().addCertValue(Buffer.buffer(cert)));

        Result ok = await(trusting.post(URI.create("https://merchant.test:" + port + "/"), HEADERS, BODY));
        assertEquals(204, ok.status(), "error: " + ok.error());
        assertEquals(Map.of("merchant.test", true), Map.copyOf(sni), "the SNI name is the URL's host");
        // the same server and certificate under another name: the host name check fails
        assertEquals(
                "tls failed",
                await(trusting.post(URI.create("https://other.test:" + port + "/"), HEADERS, BODY))
                        .error());
        // the JVM's trust store does not know this certificate
        var jvmTrust = new WebhookSender(vertx, resolver, true, 8, WebhookSender.Timeouts.STANDARD, null);
        assertEquals(
                "tls failed",
                await(jvmTrust.post(URI.create("https://merchant.test:" + port + "/"), HEADERS, BODY))
                        .error());
    }
}
