package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * One gateway for a whole test class, serving {@link TestGateways}' merchants on a free port, its scripts and recorded
 * requests cleared before each test; {@link RawRequests} pointed at it. The fields are static so that JUnit's
 * {@code @BeforeAll} can set them; each class sets them again, which is safe while test classes run one at a time
 * (the simulator does not run them in parallel).
 */
abstract class GatewayTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    static TestKeys keys;
    static Gateway gateway;
    static RawRequests raw;

    @BeforeAll
    static void startGateway() {
        keys = new TestKeys();
        gateway = TestGateways.start(keys);
        raw = new RawRequests(gateway);
    }

    @AfterAll
    static void stopGateway() {
        gateway.close();
    }

    @BeforeEach
    void resetGateway() {
        gateway.reset();
    }

    /** The answer's body as JSON; not JSON fails the test. */
    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }
}
