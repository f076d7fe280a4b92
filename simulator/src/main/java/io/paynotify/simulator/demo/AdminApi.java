package io.paynotify.simulator.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.simulator.trigger.MerchantApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The read calls of paynotify's admin API (docs/api.md#admin-api) the demo shows, with a bearer token. */
final class AdminApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI service;
    private final String token;

    AdminApi(HttpClient http, URI service, String token) {
        this.http = http;
        this.service = service;
        this.token = token;
    }

    /** {@code GET /admin/orders/{channel}/{outTradeNo}}: the order with lastQueriedAt and queryCount. */
    JsonNode order(String channel, String outTradeNo) throws IOException, InterruptedException {
        return get("/admin/orders/" + path(channel, outTradeNo));
    }

    /** {@code GET /admin/orders/{channel}/{outTradeNo}/notifications}: its notifications, oldest first. */
    JsonNode notifications(String channel, String outTradeNo) throws IOException, InterruptedException {
        return get("/admin/orders/" + path(channel, outTradeNo) + "/notifications?limit=50")
                .path("items");
    }

    /** {@code GET /admin/events?type=&channel=&client=}: the newest events of that type, with their deliveries. */
    JsonNode events(String type, String channel, String client) throws IOException, InterruptedException {
        return get("/admin/events?type=" + type + "&channel=" + channel + "&client=" + client + "&limit=100")
                .path("items");
    }

    private JsonNode get(String target) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(service.resolve(target))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .GET()
                .build();
        HttpResponse<String> answer = http.send(r, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IOException("GET " + target + " answered " + answer.statusCode());
        }
        return JSON.readTree(answer.body());
    }

    private static String path(String channel, String outTradeNo) {
        return MerchantApi.segment(channel) + "/" + MerchantApi.segment(outTradeNo);
    }
}
