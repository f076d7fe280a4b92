package io.paynotify.simulator.demo;

import io.paynotify.simulator.trigger.MerchantApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A gateway reached through its HTTP control API: {@code PUT {base}/_sim/trades/{outTradeNo}} with
 * {@code {"state":"PAID","amount":100}} answers 204, {@code PUT {base}/_sim/bills/{api}/{day}} scripts a bill's extras. Works for a gateway in this JVM as for one in another terminal.
 */
class GatewayControl implements DemoGateway {

    private final HttpClient http;
    private final String baseUrl;

    GatewayControl(HttpClient http, String baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    @Override
    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public void scriptPaid(String outTradeNo, long amountFen) throws IOException, InterruptedException {
        put("/_sim/trades/" + MerchantApi.segment(outTradeNo), "{\"state\":\"PAID\",\"amount\":" + amountFen + "}");
    }

    @Override
    public void scriptPaid(String outTradeNo, long amountFen, Instant paidAt) throws IOException, InterruptedException {
        put(
                "/_sim/trades/" + MerchantApi.segment(outTradeNo),
                "{\"state\":\"PAID\",\"amount\":" + amountFen + ",\"paidAt\":\"" + paidAt + "\"}");
    }

    @Override
    public void scriptBill(String api, LocalDate day, String json) throws IOException, InterruptedException {
        put("/_sim/bills/" + api + "/" + day, json);
    }

    private void put(String path, String json) throws IOException, InterruptedException {
        HttpRequest put = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build();
        HttpResponse<String> r = http.send(put, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 204) {
            throw new IOException("the gateway answered " + r.statusCode() + " to PUT " + path + ": " + r.body());
        }
    }

    /** A gateway someone else started: left running. */
    @Override
    public void close() {}
}
