package io.paynotify.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.query.QueryError;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The query clients' HTTP (docs/api.md "Active query"): 5 s in all, whatever phase the time goes to; answers capped; no
 * redirects followed; every failure a {@link QueryError}.
 */
@Tag("unit")
class QueryHttpTest {

    FakeGateway gateway;

    @BeforeEach
    void start() {
        gateway = new FakeGateway();
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create(gateway.url() + path)).GET();
    }

    @Test
    void anAnswerIsReadWhole() throws Exception {
        gateway.answer(r -> Reply.of(200, "application/json", "{\"ok\":true}").withHeader("Wechatpay-Nonce", "n1"));
        QueryHttp.Answer a = new QueryHttp().send(get("/v3/x?mchid=1"));
        assertEquals(200, a.status());
        assertArrayEquals("{\"ok\":true}".getBytes(StandardCharsets.UTF_8), a.body());
        assertEquals("n1", a.header("wechatpay-nonce"), "header names are case-insensitive");
        assertEquals("/v3/x?mchid=1", gateway.last().target());
        assertTrue(gateway.last().header("User-Agent").startsWith("paynotify/"));
        assertEquals(QueryHttp.USER_AGENT, gateway.last().header("User-Agent"));
    }

    @Test
    void aServerThatNeverAnswersIsATimeoutWithinTheBudget() {
        // the real 5 s budget is QueryTimeoutTest's, for every provider; here a short one, measured both ways
        gateway.hang();
        var http = new QueryHttp(Duration.ofMillis(800), QueryHttp.MAX_ANSWER_BYTES);
        long started = System.nanoTime();
        var f = assertThrows(QueryHttp.Failed.class, () -> http.send(get("/hang")));
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms >= 750, "gave up early, after " + ms + " ms");
        assertTrue(ms < 3_000, "the call took " + ms + " ms");
        assertEquals(QueryError.TIMEOUT, f.error());
        assertEquals(Duration.ofSeconds(5), QueryHttp.BUDGET, "the contract's 5 s for a call in all");
    }

    @Test
    void theBudgetCoversTheWholeAnswerNotOnlyItsHeaders() {
        // headers at once, then one byte every 300 ms: each read is quick, the whole answer is not
        gateway.answer(r -> Reply.of(200, "text/plain", "x".repeat(20)).dripping(300));
        var http = new QueryHttp(Duration.ofSeconds(1), QueryHttp.MAX_ANSWER_BYTES);
        // the whole answer would take 6 s: ending well before proves the budget covers the body
        long deadline = System.nanoTime() + Duration.ofMillis(4000).toNanos();
        var f = assertThrows(QueryHttp.Failed.class, () -> http.send(get("/drip")));
        assertTrue(System.nanoTime() < deadline, "the budget was not enforced on the body");
        assertEquals(QueryError.TIMEOUT, f.error());
    }

    @Test
    void anAnswerOverTheLimitIsATransportError() throws Exception {
        byte[] big = new byte[QueryHttp.MAX_ANSWER_BYTES + 1];
        gateway.answer(r -> Reply.of(200, "text/plain", big));
        assertEquals(
                QueryError.TRANSPORT,
                assertThrows(QueryHttp.Failed.class, () -> new QueryHttp().send(get("/big")))
                        .error());

        // without a Content-Length, it is cut off as it arrives
        gateway.answer(r -> Reply.of(200, "text/plain", big).chunked());
        assertEquals(
                QueryError.TRANSPORT,
                assertThrows(QueryHttp.Failed.class, () -> new QueryHttp().send(get("/big")))
                        .error());

        // exactly the limit is fine
        byte[] limit = new byte[QueryHttp.MAX_ANSWER_BYTES];
        gateway.answer(r -> Reply.of(200, "text/plain", limit).chunked());
        assertEquals(
                QueryHttp.MAX_ANSWER_BYTES, new QueryHttp().send(get("/limit")).body().length);
    }

    @Test
    void aRedirectIsAnAnswerNeverFollowed() throws Exception {
        gateway.answer(r -> r.target().equals("/moved")
                ? Reply.of(302, "text/plain", "").withHeader("Location", gateway.url() + "/elsewhere")
                : Reply.of(200, "text/plain", "followed"));
        QueryHttp.Answer a = new QueryHttp().send(get("/moved"));
        assertEquals(302, a.status());
        assertEquals("/moved", gateway.last().target());
    }

    @Test
    void aRefusedConnectionIsATransportError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .GET();
        assertEquals(
                QueryError.TRANSPORT,
                assertThrows(QueryHttp.Failed.class, () -> new QueryHttp().send(request))
                        .error());
    }

    @Test
    void theRequestIsHttp11() throws Exception {
        gateway.answer(r -> Reply.of(204, "text/plain", ""));
        QueryHttp.Answer a = new QueryHttp().send(get("/"));
        assertEquals(204, a.status());
        assertEquals(0, a.body().length);
        // an h2c upgrade offer would show as these headers
        assertNull(gateway.last().header("Upgrade"));
        assertNull(gateway.last().header("HTTP2-Settings"));
    }
}
