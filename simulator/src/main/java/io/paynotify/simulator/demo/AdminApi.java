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

/** The calls of paynotify's admin API (docs/api.md#admin-api) the demo makes, with a bearer token. */
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

    /** {@code GET /admin/statements/{channel}/{billDate}}: the day's statement with its differences. */
    JsonNode statement(String channel, String billDate) throws IOException, InterruptedException {
        return get("/admin/statements/" + MerchantApi.segment(channel) + "/" + billDate);
    }

    /** {@code POST /admin/statements/{channel}/{billDate}/fetch}: the answer as it came (200, 409, 400...). */
    HttpResponse<String> fetchStatement(String channel, String billDate) throws IOException, InterruptedException {
        return post("/admin/statements/" + MerchantApi.segment(channel) + "/" + billDate + "/fetch", "");
    }

    /** {@code POST /admin/statement-differences/{id}/resolve} with {@code {"note":...}}: the answer as it came. */
    HttpResponse<String> resolve(long id, String note) throws IOException, InterruptedException {
        return post(
                "/admin/statement-differences/" + id + "/resolve",
                JSON.createObjectNode().put("note", note).toString());
    }

    private HttpResponse<String> post(String target, String json) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(service.resolve(target))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.send(r, HttpResponse.BodyHandlers.ofString());
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
