package io.paynotify.simulator.trigger;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A stand-in for paynotify on 127.0.0.1: records every request (method, path, headers, body, arrival time) and
 * answers with a scripted responder; by default the success ack each endpoint should give, and 201 to an order.
 */
final class StubPaynotify implements AutoCloseable {

    /** One recorded request. */
    record Request(String method, String path, Headers headers, byte[] body, long arrivedNanos) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.getFirst(name);
        }
    }

    /** An answer: status, content type, body. */
    record Reply(int status, String contentType, String body) {}

    static final Reply V2_OK = new Reply(200, "application/xml", AckShapes.V2_SUCCESS);
    static final Reply V3_OK = new Reply(204, null, "");
    static final Reply ALIPAY_OK = new Reply(200, "text/plain", "success");

    static Reply failure(Provider p, int status) {
        return switch (p) {
            case WECHATPAY_V2 ->
                new Reply(
                        status,
                        "application/xml",
                        "<xml><return_code><![CDATA[FAIL]]></return_code>"
                                + "<return_msg><![CDATA[refused]]></return_msg></xml>");
            case WECHATPAY_V3 -> new Reply(status, "application/json", "{\"code\":\"FAIL\",\"message\":\"refused\"}");
            case ALIPAY -> new Reply(status, "text/plain", "fail");
        };
    }

    private final HttpServer server;
    private final List<Request> requests = new ArrayList<>();
    private volatile BiFunction<Request, Integer, Reply> responder = (r, n) -> defaultReply(r);

    StubPaynotify() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/", exchange -> {
            try (exchange) {
                Request r = new Request(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().getRawPath(),
                        exchange.getRequestHeaders(),
                        exchange.getRequestBody().readAllBytes(),
                        System.nanoTime());
                int n;
                synchronized (requests) {
                    requests.add(r);
                    n = (int) requests.stream()
                            .filter(x -> x.path().equals(r.path()))
                            .count();
                }
                Reply reply = responder.apply(r, n);
                if (reply.contentType() != null) {
                    exchange.getResponseHeaders().set("Content-Type", reply.contentType());
                }
                byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
                if (body.length > 0) {
                    exchange.getResponseBody().write(body);
                }
            }
        });
        server.start();
    }

    /** Answers with {@code responder(request, how many requests on that path so far, this one included)}. */
    void answer(BiFunction<Request, Integer, Reply> responder) {
        this.responder = responder;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    List<Request> notifications() {
        return requests().stream().filter(r -> r.path().startsWith("/notify/")).toList();
    }

    static Reply defaultReply(Request r) {
        if (r.path().equals("/api/v1/orders")) {
            return new Reply(201, "application/json", "{\"state\":\"PENDING\"}");
        }
        if (r.path().startsWith("/notify/wechatpay-v3/")) {
            return V3_OK;
        }
        if (r.path().startsWith("/notify/wechatpay/")) {
            return V2_OK;
        }
        if (r.path().startsWith("/notify/alipay/")) {
            return ALIPAY_OK;
        }
        return new Reply(404, null, "");
    }

    static Duration gap(Request earlier, Request later) {
        return Duration.ofNanos(later.arrivedNanos() - earlier.arrivedNanos());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
