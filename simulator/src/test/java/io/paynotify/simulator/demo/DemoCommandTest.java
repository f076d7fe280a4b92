package io.paynotify.simulator.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class DemoCommandTest {

    /** With no paynotify answering, the demo says how to start it, and touches no port of its own. */
    @Test
    void aMissingServiceIsExplained() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new DemoCommand(new PrintStream(out, true, StandardCharsets.UTF_8))
                .run(List.of("--service", "http://127.0.0.1:" + closed));
        assertEquals(1, code);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("./mvnw quarkus:dev"), text);
        assertTrue(!text.contains("gateway:") && !text.contains("webhooks:"), text);
    }

    /**
     * The six steps against a fake paynotify and gateway on free ports: exit 0, each step's line is there, and
     * the eight order.paid webhooks arrive verified (four of the direct channels, one per account-mode channel).
     */
    @Test
    void everyStepHoldsAgainstAServiceThatBehaves() throws Exception {
        Set<String> scripted = ConcurrentHashMap.newKeySet();
        HttpServer gw = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        gw.createContext("/_sim/trades/", ex -> {
            scripted.add(URLDecoder.decode(
                    ex.getRequestURI().getRawPath().substring("/_sim/trades/".length()), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        gw.start();
        int webhookPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            webhookPort = s.getLocalPort();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FakePaynotify service = new FakePaynotify(scripted, webhookPort)) {
            int code = new DemoCommand(
                            new PrintStream(out, true, StandardCharsets.UTF_8),
                            gw.getAddress().getPort(),
                            webhookPort,
                            Duration.ofSeconds(20),
                            Duration.ofSeconds(10))
                    .run(List.of("--service", service.uri().toString()));
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, text);
            assertEquals(3, scripted.size(), text);
            for (String line : new String[] {
                "is SUCCESS after",
                "recorded as DUPLICATE",
                "recorded as APPLIED",
                "queryCount 1",
                "source QUERY  outcome APPLIED",
                "source NOTIFY  outcome DUPLICATE",
                "POST /api/v1/orders wx-sp-dev/T01-DEMO-",
                ", subMerchantId 1900000201) as dev-shop: 201",
                "sub-merchant 1900000202's genuine notice for this order number -> 422, the failure ack",
                "sub-merchant 1900000204's genuine notice for this order number -> 422, the failure ack",
                "sub-merchant 2021000000000022's genuine notice for this order number -> 422, the failure ack",
                "a notice signed under a foreign root -> 401, the failure ack",
                "recorded as ANOMALY",
                "attention [\"ACCOUNT_MISMATCH\"]",
                "Every step held."
            }) {
                assertTrue(text.contains(line), line + " in\n" + text);
            }
            assertEquals(
                    8,
                    text.lines()
                            .filter(l -> l.contains("order.paid") && l.endsWith("verified"))
                            .count(),
                    text);
        } finally {
            gw.stop(0);
        }
    }

    /** The demo scripts a gateway through the control API: PUT /_sim/trades/{no} {"state":"PAID","amount":N}. */
    @Test
    void gatewayControlScriptsATradeOverHttp() throws Exception {
        List<String> seen = new ArrayList<>();
        HttpServer gw = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        gw.createContext("/", ex -> {
            synchronized (seen) {
                seen.add(ex.getRequestMethod() + " " + ex.getRequestURI().getRawPath() + " "
                        + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        gw.start();
        try (DemoGateway control = new GatewayControl(
                HttpClient.newHttpClient(),
                "http://127.0.0.1:" + gw.getAddress().getPort())) {
            control.scriptPaid("DEMO-A|1", 4200);
        } finally {
            gw.stop(0);
        }
        assertEquals(List.of("PUT /_sim/trades/DEMO-A%7C1 {\"state\":\"PAID\",\"amount\":4200}"), seen);
    }
}
