package io.paynotify.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input never becomes a 5xx while the database is up: a NUL or other invalid characters in a path segment, a
 * query value or a header of any route answer 4xx. A seeded fuzz run (its seed is printed) sends random bytes in
 * each place, bounded in count and time.
 */
@QuarkusTest
class BadInputFuzzTest {

    static final int REQUESTS = 400;
    static final long BUDGET_MS = 45_000;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin/orders/wx-test/%00",
                "/admin/orders/%00/x",
                "/admin/orders/wx-test/%00/notifications",
                "/admin/orders?channel=%00",
                "/admin/orders?state=%00",
                "/admin/orders?limit=%00",
                "/admin/orders?after=%00",
                "/admin/orders?attention=%00",
                "/admin/notifications?outcome=%00",
                "/admin/notifications?channel=wx%00test",
                "/admin/orders/wx-test/%C3%28",
                "/admin/orders/wx-test/%FF%FE",
                "/admin/orders/%E2%80%AE/x",
                "/admin/orders/wx-test/a%2Fb",
                // a matrix parameter after an escaped percent: decoded twice by the JAX-RS layer, once a 500
                "/admin/orders/SUCCESS/%EB%94%CE%25%7F%8C=%01%61%E3%2F~%2D;%E64%A5/notifications?limit=1",
                "/admin/orders/wx-test/x;a=b",
                "/admin/orders/wx-test/%25zz"
            })
    void invalidCharactersInAdminPathsAndQueriesAre4xx(String target) throws Exception {
        int status = send("GET", target, List.of("Authorization: Bearer " + TestChannels.ADMIN_TOKEN), new byte[0]);
        assertTrue(status == 400 || status == 404, target + " answered " + status);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/%CAQ%19%6F%1E%FF%0D%5B%25Aj/%725%C9;U%AEB%15%B9%00%AA%24", "/x;y=%25zz", "/%FF", "/%zz"})
    void invalidCharactersInAnyOtherPathAre4xx(String target) throws Exception {
        int status = send("GET", target, List.of(), new byte[0]);
        assertTrue(status >= 400 && status < 500, target + " answered " + status);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/orders/wx-test/%00",
                "/api/v1/orders/%00/x",
                "/api/v1/orders/wx-test/%C3%28",
                "/api/v1/orders/wx-test/x?%00=%00",
                "/api/v1/orders/wx-test/%FF"
            })
    void invalidCharactersInSignedMerchantPathsAre4xx(String target) {
        int status = MerchantClient.a().request("GET", target).sendRaw().status();
        assertTrue(status == 400 || status == 404, target + " answered " + status);
    }

    @Test
    void randomBytesAnywhereNeverAnswer5xx() throws Exception {
        long seed = System.nanoTime();
        System.out.println("[fuzz] seed " + seed);
        Random random = new Random(seed);
        var statuses = new TreeMap<Integer, Integer>();
        long started = System.nanoTime();
        for (int i = 0; i < REQUESTS && (System.nanoTime() - started) / 1_000_000 < BUDGET_MS; i++) {
            Fuzzed f = fuzz(random);
            int status = f.signed
                    ? MerchantClient.a().request(f.method, f.target).sendRaw().status()
                    : send(f.method, f.target, f.headers, f.body);
            statuses.merge(status, 1, Integer::sum);
            assertTrue(
                    status < 500,
                    "seed " + seed + ": " + f.method + " " + f.target + " " + f.headers + " answered " + status);
        }
        System.out.println("[fuzz] answers " + statuses);
        // the service is still up and well afterwards
        assertEquals(404, send("GET", "/admin/orders/wx-test/none", adminAuth(), new byte[0]));
    }

    record Fuzzed(String method, String target, List<String> headers, byte[] body, boolean signed) {}

    static final String[] TEMPLATES = {
        "/admin/orders?channel=%s&state=%s&limit=%s&after=%s&attention=%s",
        "/admin/orders/%s/%s",
        "/admin/orders/%s/%s/notifications?limit=%s&after=%s",
        "/admin/notifications?outcome=%s&channel=%s&limit=%s&after=%s",
        "/api/v1/orders/%s/%s",
        "/api/v1/orders/%s/%s/close",
        "/api/v1/orders?%s=%s",
        "/notify/wechatpay/%s",
        "/notify/wechatpay-v3/%s",
        "/notify/alipay/%s",
        "/notify/wechatpay/wx-test?%s=%s",
        "/%s/%s"
    };

    static Fuzzed fuzz(Random r) {
        String template = TEMPLATES[r.nextInt(TEMPLATES.length)];
        int holes = template.split("%s", -1).length - 1;
        Object[] values = new Object[holes];
        for (int i = 0; i < holes; i++) {
            values[i] = r.nextInt(4) == 0 ? plausible(r) : randomEscaped(r);
        }
        String target = String.format(template, values);
        boolean notify = target.startsWith("/notify/");
        boolean api = target.startsWith("/api/");
        String method = notify || (api && r.nextBoolean()) ? "POST" : "GET";
        var headers = new ArrayList<String>();
        if (target.startsWith("/admin") && r.nextInt(5) > 0) {
            headers.add("Authorization: Bearer " + TestChannels.ADMIN_TOKEN);
        }
        int extra = r.nextInt(4);
        String[] names = {
            "Authorization", "X-Client-Id", "X-Timestamp", "X-Signature", "Idempotency-Key", "Wechatpay-Timestamp",
            "Wechatpay-Nonce", "Wechatpay-Signature", "Wechatpay-Serial", "Content-Type", "Expect", "X-Fuzz"
        };
        for (int i = 0; i < extra; i++) {
            headers.add(names[r.nextInt(names.length)] + ": " + headerValue(r));
        }
        byte[] body = new byte[method.equals("POST") ? r.nextInt(300) : 0];
        r.nextBytes(body);
        return new Fuzzed(method, target, headers, body, api && extra == 0 && r.nextBoolean());
    }

    static String plausible(Random r) {
        String[] values = {"wx-test", "ali-test", "wx3-test", "SUCCESS", "PENDING", "ANOMALY", "50", "true", "A1"};
        return values[r.nextInt(values.length)];
    }

    /** 0 to 20 random bytes, percent-encoded (so every byte value reaches the server), sometimes raw ASCII. */
    static String randomEscaped(Random r) {
        var sb = new StringBuilder();
        int n = r.nextInt(21);
        for (int i = 0; i < n; i++) {
            int b = r.nextInt(256);
            if (b > 0x20 && b < 0x7F && b != '%' && b != '?' && b != '#' && b != '/' && r.nextBoolean()) {
                sb.append((char) b);
            } else {
                sb.append('%').append(String.format("%02X", b));
            }
        }
        return sb.toString();
    }

    /** Visible ASCII and spaces, sometimes empty or long; never CR or LF (that would be a new header). */
    static String headerValue(Random r) {
        var sb = new StringBuilder();
        int n = r.nextInt(10) == 0 ? 2000 : r.nextInt(40);
        for (int i = 0; i < n; i++) {
            sb.append((char) (0x20 + r.nextInt(0x5F)));
        }
        return sb.toString();
    }

    static List<String> adminAuth() {
        return List.of("Authorization: Bearer " + TestChannels.ADMIN_TOKEN);
    }

    /** Sends one request byte for byte and returns the status code. */
    static int send(String method, String target, List<String> headers, byte[] body) throws Exception {
        var head = new StringBuilder();
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: localhost\r\n");
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().write(body);
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            var line = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                line.write(c);
            }
            String status = line.toString(StandardCharsets.ISO_8859_1);
            return Integer.parseInt(status.split(" ")[1]);
        }
    }
}
