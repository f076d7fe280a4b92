package io.paynotify.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A slow client cannot hold a connection: one that sends half a request line and then nothing is closed after
 * {@code quarkus.http.idle-timeout} (30 s in the application; 1 s here, so the test is quick). Public: the
 * statements' long-answer test shares its profile (no second restart).
 */
@QuarkusTest
@TestProfile(IdleTimeoutTest.ShortIdleTimeout.class)
public class IdleTimeoutTest {

    public static class ShortIdleTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.idle-timeout", "1S");
        }
    }

    @Test
    void aConnectionWithHalfARequestLineIsClosed() throws Exception {
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout(15_000);
            s.getOutputStream().write("POST /notify/wechatpay/wx-te".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            long started = System.nanoTime();
            InputStream in = s.getInputStream();
            // nothing more is sent: the server closes the connection (end of stream) instead of waiting forever
            int read;
            do {
                read = in.read();
            } while (read != -1);
            long ms = (System.nanoTime() - started) / 1_000_000;
            assertTrue(ms < 10_000, "closed after " + ms + " ms");
        }
    }

    @Test
    void aPromptRequestIsServedAsUsual() throws Exception {
        assertEquals(404, OperationsPortTest.rawGet(RestAssured.port, "/q/metrics"));
    }
}
