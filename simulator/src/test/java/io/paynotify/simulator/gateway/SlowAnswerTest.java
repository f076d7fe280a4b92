package io.paynotify.simulator.gateway;

import static io.paynotify.simulator.gateway.TestGateways.V2_API_KEY;
import static io.paynotify.simulator.gateway.TestGateways.V2_APP_ID;
import static io.paynotify.simulator.gateway.TestGateways.V2_MCH_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A slow answer holds up nobody else, and closing the gateway drops it. */
class SlowAnswerTest {

    @Test
    void a_slow_answer_does_not_block_other_requests_and_close_drops_it() throws Exception {
        Gateway gateway = TestGateways.start(new TestKeys());
        RawRequests raw = new RawRequests(gateway);
        gateway.script(
                "slow",
                ScriptedTrade.of(TradeState.PAID, 1).withFault(Fault.SLOW).withDelay(Duration.ofMinutes(1)));
        gateway.script("fast", ScriptedTrade.of(TradeState.PAID, 1));

        CompletableFuture<HttpResponse<String>> slow = raw.sendAsync(v2Request(gateway, "slow"));
        awaitQueried(gateway, "slow");
        HttpResponse<String> fast = raw.send(v2Request(gateway, "fast"));

        assertEquals(200, fast.statusCode());
        assertTrue(fast.body().contains("SUCCESS"));
        assertFalse(slow.isDone(), "the slow answer is still being held back");

        gateway.close();
        ExecutionException dropped = assertThrows(ExecutionException.class, () -> slow.get(10, TimeUnit.SECONDS));
        assertTrue(dropped.getCause() instanceof java.io.IOException, dropped::toString);
    }

    @Test
    void a_slow_answer_comes_after_its_delay() throws Exception {
        try (Gateway gateway = TestGateways.start(new TestKeys())) {
            gateway.script(
                    "a-bit-slow",
                    ScriptedTrade.of(TradeState.NOTPAY, 1).withFault(Fault.SLOW).withDelay(Duration.ofMillis(300)));
            long started = System.nanoTime();

            HttpResponse<String> response = new RawRequests(gateway).send(v2Request(gateway, "a-bit-slow"));

            assertTrue(response.body().contains("NOTPAY"), response::body);
            assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(300));
        }
    }

    private static HttpRequest v2Request(Gateway gateway, String outTradeNo) {
        String xml = RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, outTradeNo, "MD5", V2_API_KEY).entrySet().stream()
                        .map(e -> "<" + e.getKey() + ">" + e.getValue() + "</" + e.getKey() + ">")
                        .reduce("<xml>", String::concat)
                + "</xml>";
        return HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/pay/orderquery"))
                .POST(HttpRequest.BodyPublishers.ofString(xml))
                .build();
    }

    /** Waits (spinning, bounded) until the gateway has read the request: the SLOW answer is then being held. */
    private static void awaitQueried(Gateway gateway, String outTradeNo) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gateway.queryCount(outTradeNo) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the gateway never received the query for " + outTradeNo);
            }
            Thread.onSpinWait();
        }
    }
}
