package io.paynotify.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Management;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Health, metrics and OpenAPI are served on the management port only; the public port answers 404 for every /q
 * path, however it is spelled. Requests are written on a raw socket so that no client library normalises them.
 */
@QuarkusTest
class OperationsPortTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/q/metrics",
                "/q/health/ready",
                "/q/health/live",
                "/q/openapi",
                "/q",
                "/Q/metrics",
                "//q/metrics",
                "/./q/metrics",
                "/api/../q/metrics",
                "/api%2F..%2Fq/metrics",
                "/api%2f..%2fq/metrics",
                "/api%252F..%252Fq/metrics",
                "/notify/..%2F..%2Fq/openapi",
                "/admin/..%2Fq/metrics",
                "/%71/metrics",
                "/q;a=b/metrics",
                "/q/metrics?format=prometheus"
            })
    void thePublicPortAnswers404ForEverySpellingOfQ(String target) throws Exception {
        assertEquals(404, rawGet(RestAssured.port, target), target);
    }

    @Test
    void theManagementPortServesHealthMetricsAndOpenApi() {
        given().get(Management.url("/q/health/ready")).then().statusCode(200);
        given().get(Management.url("/q/health/live")).then().statusCode(200);
        given().get(Management.url("/q/metrics"))
                .then()
                .statusCode(200)
                .body(containsString("paynotify_notifications_rejected_total"));
        given().get(Management.url("/q/openapi")).then().statusCode(200).body(containsString("/admin/orders"));
    }

    @Test
    void theManagementPortServesNoApplicationEndpoint() throws Exception {
        assertEquals(404, rawGet(Management.port(), "/admin/orders"));
        assertEquals(404, rawGet(Management.port(), "/api/v1/orders/wx-test/x"));
    }

    /** The status of a GET written byte for byte as given. */
    static int rawGet(int port, String target) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            var line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                line.append((char) c);
            }
            // "HTTP/1.1 404 Not Found"
            return Integer.parseInt(line.toString().split(" ")[1]);
        }
    }
}
