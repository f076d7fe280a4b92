package io.paynotify.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestChannels;
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
 * docs/operations.md "Ports": {@code /admin} and {@code /api} cannot be reached through the path of another prefix
 * that an Ingress routes. Every spelling below, written byte for byte on a raw socket with a valid admin token, is
 * refused before routing (400), and nothing of the admin API comes back.
 */
@QuarkusTest
class PrefixEscapeTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/notify/..%2F..%2Fadmin/orders",
                "/notify/..%2f..%2fadmin/orders",
                "/notify/wechatpay/..%2F..%2F..%2Fadmin/orders",
                "/notify/wechatpay/wx-test/..%2F..%2F..%2Fadmin/orders",
                "/notify/..%252F..%252Fadmin/orders",
                "/notify/..%5C..%5Cadmin/orders",
                "/notify/..\\..\\admin/orders",
                "/notify/../admin/orders",
                "/notify/./../admin/orders",
                "/notify/%2e%2e/admin/orders",
                "/notify/%2E%2E/admin/orders",
                "/notify/.%2e/admin/orders",
                "/notify/%252e%252e/admin/orders",
                "/notify/..;/admin/orders",
                "/api/..%2Fadmin/orders",
                "/api/v1/..%2F..%2Fadmin/orders",
                "/api/v1/../../admin/orders",
                "/api/v1/orders/..%2F..%2F..%2Fadmin/orders",
                "/api/%2e%2e/admin/notifications",
                "/api/..;/admin/events"
            })
    void anAdminPathBehindAnotherPrefixIsRefusedBeforeRouting(String target) throws Exception {
        String answer = rawGet(target, "Authorization: Bearer " + TestChannels.ADMIN_TOKEN);
        assertEquals(400, status(answer), target + " answered " + answer);
        assertFalse(answer.contains("\"items\""), target + " must list nothing: " + answer);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/notify/wechatpay/..%2F..%2F..%2Fapi/v1/orders/wx-test/x",
                "/notify/alipay/ali-test/%2e%2e/%2e%2e/%2e%2e/api/v1/events"
            })
    void anApiPathBehindTheNotifyPrefixIsRefusedToo(String target) throws Exception {
        assertEquals(400, status(rawGet(target, "X-Client-Id: " + TestChannels.CLIENT_A)), target);
    }

    @Test
    void thePlainPathsStillWork() throws Exception {
        // the test can fail: the same token on the plain path lists orders
        String answer = rawGet("/admin/orders?limit=1", "Authorization: Bearer " + TestChannels.ADMIN_TOKEN);
        assertEquals(200, status(answer), answer);
        assertTrue(answer.contains("\"items\""));
        // a query string is never looked at
        assertEquals(
                200,
                status(rawGet(
                        "/admin/orders?limit=1&x=..%2F..%5C", "Authorization: Bearer " + TestChannels.ADMIN_TOKEN)));
    }

    static int status(String answer) {
        return Integer.parseInt(answer.substring(9, 12));
    }

    /** The whole answer to a GET written byte for byte as given. */
    static String rawGet(String target, String header) throws Exception {
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + header + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
