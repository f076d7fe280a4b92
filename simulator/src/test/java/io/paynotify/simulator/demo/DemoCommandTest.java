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
import java.util.Map;
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
     * The seven steps against a fake paynotify and gateway on free ports: exit 0, each step's line is there, and
     * the eight order.paid webhooks arrive verified (four of the direct channels, one per account-mode channel), and
     * yesterday's books are closed: the planted payment scripted into wx3-dev's bill of yesterday (Beijing), found
     * as the one difference, resolved, the day RECONCILED.
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
        Map<String, String> bills = new ConcurrentHashMap<>();
        gw.createContext("/_sim/bills/", ex -> {
            bills.put(
                    ex.getRequestURI().getRawPath().substring("/_sim/bills/".length()),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        gw.start();
        int webhookPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            webhookPort = s.getLocalPort();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FakePaynotify service = new FakePaynotify(scripted, bills, webhookPort)) {
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
            String yesterday = java.time.LocalDate.now(java.time.ZoneOffset.ofHours(8))
                    .minusDays(1)
                    .toString();
            assertEquals(Set.of("WECHATPAY_V3/" + yesterday), bills.keySet(), text);
            assertTrue(bills.get("WECHATPAY_V3/" + yesterday).contains("\"outTradeNo\":\"DEMO-LOST-"), text);
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
                "Beijing time (yesterday: step 7 closes that day)",
                "POST /admin/statements/wx-dev/" + yesterday + "/fetch: RECONCILED, bill 1 payments 100 fen",
                "POST /admin/statements/ali-dev/" + yesterday + "/fetch: RECONCILED, bill 1 payments 4200 fen",
                "POST /admin/statements/wx3-dev/" + yesterday + "/fetch: DIFFERENCES, bill 2 payments 2050 fen",
                "OPEN difference #1 UNKNOWN_ORDER DEMO-LOST-",
                "billAmount 1800, localAmount null",
                "/resolve {\"note\":\"demo: a payment taken outside this shop",
                ": 200, RESOLVED",
                "GET /admin/statements/wx3-dev/" + yesterday + ": RECONCILED, openDifferences 0",
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

    /**
     * The demo scripts a gateway through the control API: PUT /_sim/trades/{no} {"state":"PAID","amount":N}, with
     * a paidAt for step 7's bill day, and PUT /_sim/bills/{api}/{day} for the planted difference.
     */
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
            control.scriptPaid("DEMO-B", 250, java.time.Instant.parse("2026-03-01T02:00:00Z"));
            control.scriptBill(
                    "ALIPAY", java.time.LocalDate.parse("2026-03-01"), "{\"status\":\"NO_BILL\"}");
        } finally {
            gw.stop(0);
        }
        assertEquals(
                List.of(
                        "PUT /_sim/trades/DEMO-A%7C1 {\"state\":\"PAID\",\"amount\":4200}",
                        "PUT /_sim/trades/DEMO-B {\"state\":\"PAID\",\"amount\":250,\"paidAt\":\"2026-03-01T02:00:00Z\"}",
                        "PUT /_sim/bills/ALIPAY/2026-03-01 {\"status\":\"NO_BILL\"}"),
                seen);
    }
}
