package io.paynotify.simulator.gateway;

import static io.paynotify.simulator.gateway.TestGateways.V2_API_KEY;
import static io.paynotify.simulator.gateway.TestGateways.V2_APP_ID;
import static io.paynotify.simulator.gateway.TestGateways.V2_MCH_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Two gateways in one JVM (as parallel service tests run them) share nothing. */
class GatewayIsolationTest {

    @Test
    void two_gateways_do_not_see_each_others_scripts_or_requests() {
        TestKeys keys = new TestKeys();
        try (Gateway first = TestGateways.start(keys);
                Gateway second = TestGateways.start(keys)) {
            assertNotEquals(first.port(), second.port());
            first.script("shared-no", ScriptedTrade.of(TradeState.PAID, 1));

            String fromFirst = new RawRequests(first)
                    .v2(RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, "shared-no", "MD5", V2_API_KEY))
                    .body();
            String fromSecond = new RawRequests(second)
                    .v2(RawRequests.v2Query(V2_MCH_ID, V2_APP_ID, "shared-no", "MD5", V2_API_KEY))
                    .body();

            assertTrue(fromFirst.contains("<trade_state><![CDATA[SUCCESS]]></trade_state>"), fromFirst);
            assertTrue(fromSecond.contains("<err_code><![CDATA[ORDERNOTEXIST]]></err_code>"), fromSecond);
            assertEquals(1, first.requests().size());
            assertEquals(1, second.requests().size());

            second.reset();
            assertEquals(1, first.requests().size(), "resetting one leaves the other alone");
            assertEquals(1, first.queryCount("shared-no"));
        }
    }
}
