package io.paynotify.simulator.demo;

import io.paynotify.simulator.trigger.MerchantApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A gateway reached through its HTTP control API: {@code PUT {base}/_sim/trades/{outTradeNo}} with
 * {@code {"state":"PAID","amount":100}} answers 204. Works for a gateway in this JVM as for one in another terminal.
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
        HttpRequest put = HttpRequest.newBuilder(
                        URI.create(baseUrl + "/_sim/trades/" + MerchantApi.segment(outTradeNo)))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"PAID\",\"amount\":" + amountFen + "}"))
                .build();
        HttpResponse<String> r = http.send(put, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 204) {
            throw new IOException("the gateway answered " + r.statusCode() + " to PUT /_sim/trades/" + outTradeNo);
        }
    }

    /** A gateway someone else started: left running. */
    @Override
    public void close() {}
}
