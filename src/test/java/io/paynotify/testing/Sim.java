package io.paynotify.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Scripts the simulator's gateway that {@link SimulatorResource} started, over its control API (the same calls an
 * integrator makes with curl): what the three providers' query APIs answer for an order, and what they received.
 */
public final class Sim {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Sim() {}

    /** One query request the gateway received. */
    public record Request(String api, String outTradeNo, boolean accepted, String rejection, String receivedAt) {}

    /** The gateway's root URL. */
    public static String base() {
        String port = System.getProperty(SimulatorResource.PORT_PROPERTY);
        if (port == null) {
            throw new IllegalStateException("the simulator's gateway is not running (use SimulatorResource)");
        }
        return "http://127.0.0.1:" + port;
    }

    /** The providers will answer this for that order: {@code state} is the gateway's TradeState. */
    public static void trade(String outTradeNo, String state, long amountFen) {
        script(outTradeNo, "{\"state\":\"" + state + "\",\"amount\":" + amountFen + "}");
    }

    /** The same, with a fault (BAD_SIGNATURE, UNSIGNED, HTTP_500, SLOW, …) and its delay. */
    public static void trade(String outTradeNo, String state, long amountFen, String fault, long delayMillis) {
        script(
                outTradeNo,
                "{\"state\":\"" + state + "\",\"amount\":" + amountFen + ",\"fault\":\"" + fault + "\",\"delayMillis\":"
                        + delayMillis + "}");
    }

    /** A raw control body for {@code PUT /_sim/trades/{outTradeNo}}. */
    public static void script(String outTradeNo, String json) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base() + "/_sim/trades/" + outTradeNo))
                .PUT(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
                .header("Content-Type", "application/json"));
        if (r.statusCode() != 204) {
            throw new IllegalStateException("the gateway refused the script: " + r.statusCode() + " " + r.body());
        }
    }

    /** The query requests received for that order, oldest first. */
    public static List<Request> requests(String outTradeNo) {
        HttpResponse<String> r = send(
                HttpRequest.newBuilder(URI.create(base() + "/_sim/requests")).GET());
        var out = new ArrayList<Request>();
        try {
            for (JsonNode item : JSON.readTree(r.body()).path("items")) {
                if (outTradeNo.equals(item.path("outTradeNo").asText())) {
                    out.add(new Request(
                            item.path("api").asText(),
                            item.path("outTradeNo").asText(),
                            item.path("accepted").asBoolean(),
                            item.path("rejection").isNull()
                                    ? null
                                    : item.path("rejection").asText(),
                            item.path("receivedAt").asText()));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("unreadable /_sim/requests answer", e);
        }
        return out;
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return HTTP.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the simulator's gateway does not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
