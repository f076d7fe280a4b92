package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The {@code serve} command's outcomes that return at once (a running one blocks until the JVM stops). */
class ServeCommandTest {

    @Test
    void bad_arguments_are_exit_code_2() {
        assertEquals(2, ServeCommand.run(new String[] {"serve", "--colour"}));
        assertEquals(2, ServeCommand.run(new String[] {"--port", "http"}));
        assertEquals(2, ServeCommand.run(new String[] {"--port=70000"}));
    }

    @Test
    void help_is_exit_code_0() {
        assertEquals(0, ServeCommand.run(new String[] {"serve", "--help"}));
    }

    @Test
    void a_port_in_use_is_exit_code_1() throws IOException {
        try (Gateway busy = Gateway.start(GatewayConfig.builder().port(0).build())) {
            assertEquals(1, ServeCommand.run(new String[] {"serve", "--port", Integer.toString(busy.port())}));
        }
    }

    @Test
    void the_banner_shows_the_apis_the_control_api_and_the_dev_merchants() {
        String banner = ServeCommand.banner("http://127.0.0.1:8090");

        assertTrue(banner.contains("POST http://127.0.0.1:8090/pay/orderquery"));
        assertTrue(banner.contains("http://127.0.0.1:8090/v3/pay/transactions/out-trade-no/{outTradeNo}?mchid="));
        assertTrue(banner.contains("POST http://127.0.0.1:8090/gateway.do"));
        assertTrue(banner.contains("curl -X PUT http://127.0.0.1:8090/_sim/trades/ORDER-1"));
        assertTrue(
                banner.contains("1900000001") && banner.contains("1900000003") && banner.contains("2021000000000001"));
        assertTrue(banner.contains("PUB_KEY_ID_0000000000000000000000000000DEV1"));
    }
}
