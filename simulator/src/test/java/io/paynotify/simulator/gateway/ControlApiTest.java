package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The control API over real HTTP, as the CLI and curl use it. */
class ControlApiTest extends GatewayTestBase {

    private static HttpResponse<String> put(String outTradeNo, String body) {
        return raw.send(raw.request("/_sim/trades/" + outTradeNo)
                .header("Content-Type", "application/json")
                .PUT(BodyPublishers.ofString(body))
                .build());
    }

    @Test
    void a_trade_scripted_over_http_is_what_the_providers_answer() {
        HttpResponse<String> put = put(
                "ORDER-1",
                "{\"state\":\"PAID\",\"amount\":100,\"transactionId\":\"4200000000000000000000000042\","
                        + "\"paidAt\":\"2024-05-01T10:00:00+08:00\",\"fault\":\"NONE\",\"delayMillis\":0,"
                        + "\"rawState\":null}");
        assertEquals(204, put.statusCode(), put::body);

        HttpResponse<String> answer =
                raw.alipay(RawRequests.alipayQuery(TestGateways.ALIPAY_APP_ID, "ORDER-1", keys.alipayApp.getPrivate()));
        assertTrue(answer.body().contains("\"trade_no\":\"4200000000000000000000000042\""), answer::body);
        assertTrue(answer.body().contains("\"send_pay_date\":\"2024-05-01 10:00:00\""), answer::body);

        HttpResponse<String> get =
                raw.send(raw.request("/_sim/trades/ORDER-1").GET().build());
        assertEquals(200, get.statusCode());
        JsonNode trade = json(get);
        assertEquals("ORDER-1", trade.path("outTradeNo").asText());
        assertEquals("PAID", trade.path("state").asText());
        assertEquals(100, trade.path("amount").asLong());
        assertEquals("2024-05-01T02:00:00Z", trade.path("paidAt").asText());
        assertEquals("NONE", trade.path("fault").asText());
        assertEquals(1, trade.path("queries").asLong());

        JsonNode items =
                json(raw.send(raw.request("/_sim/requests").GET().build())).path("items");
        assertEquals(1, items.size());
        assertEquals("ALIPAY", items.get(0).path("api").asText());
        assertEquals("ORDER-1", items.get(0).path("outTradeNo").asText());
        assertTrue(items.get(0).path("accepted").asBoolean());
        assertTrue(items.get(0).path("rejection").isNull());
        Instant.parse(items.get(0).path("receivedAt").asText());

        assertEquals(204, raw.send(raw.request("/_sim/trades").DELETE().build()).statusCode());
        assertEquals(
                404, raw.send(raw.request("/_sim/trades/ORDER-1").GET().build()).statusCode());
        assertEquals(
                0,
                json(raw.send(raw.request("/_sim/requests").GET().build()))
                        .path("items")
                        .size());
    }

    @Test
    void only_state_is_required() {
        assertEquals(204, put("ORDER-2", "{\"state\":\"NOTPAY\"}").statusCode());

        ScriptedTrade trade = gatewayScript("ORDER-2");
        assertEquals(TradeState.NOTPAY, trade.state());
        assertEquals(1, trade.amountFen());
        assertEquals(Fault.NONE, trade.fault());
        assertEquals(Duration.ZERO, trade.delay());
        assertEquals(28, trade.transactionId().length());
    }

    @Test
    void faults_and_delays_are_scripted_too() {
        assertEquals(
                204,
                put("ORDER-3", "{\"state\":\"REFUND\",\"fault\":\"SLOW\",\"delayMillis\":250,\"rawState\":\"WEIRD\"}")
                        .statusCode());

        ScriptedTrade trade = gatewayScript("ORDER-3");
        assertEquals(Fault.SLOW, trade.fault());
        assertEquals(Duration.ofMillis(250), trade.delay());
        assertEquals("WEIRD", trade.rawState());
    }

    @Test
    void bad_bodies_are_400_with_a_message() {
        for (String body : new String[] {
            "{not json",
            "[]",
            "{}",
            "{\"state\":\"PAYED\"}",
            "{\"state\":\"PAID\",\"amount\":\"1.00\"}",
            "{\"state\":\"PAID\",\"colour\":\"red\"}",
            "{\"state\":\"PAID\",\"paidAt\":\"yesterday\"}",
            "{\"state\":\"PAID\",\"fault\":\"GREMLINS\"}",
            "{\"state\":\"PAID\",\"delayMillis\":-1}"
        }) {
            HttpResponse<String> response = put("ORDER-BAD", body);
            assertEquals(400, response.statusCode(), body);
            assertFalse(json(response).path("message").asText().isEmpty(), body);
        }
        assertEquals(
                404,
                raw.send(raw.request("/_sim/trades/ORDER-BAD").GET().build()).statusCode());
    }

    @Test
    void unknown_paths_and_methods() {
        assertEquals(404, raw.send(raw.request("/_sim/nothing").GET().build()).statusCode());
        assertEquals(
                405, raw.send(raw.request("/_sim/requests").DELETE().build()).statusCode());
        assertEquals(404, raw.send(raw.request("/elsewhere").GET().build()).statusCode());
        assertEquals(405, raw.send(raw.request("/pay/orderquery").GET().build()).statusCode());
    }

    /** The script as the control API reports it, read back into a {@link ScriptedTrade}. */
    private static ScriptedTrade gatewayScript(String outTradeNo) {
        JsonNode t =
                json(raw.send(raw.request("/_sim/trades/" + outTradeNo).GET().build()));
        return new ScriptedTrade(
                TradeState.valueOf(t.path("state").asText()),
                t.path("amount").asLong(),
                t.path("transactionId").asText(),
                Instant.parse(t.path("paidAt").asText()),
                Fault.valueOf(t.path("fault").asText()),
                Duration.ofMillis(t.path("delayMillis").asLong()),
                t.path("rawState").isNull() ? null : t.path("rawState").asText());
    }
}
