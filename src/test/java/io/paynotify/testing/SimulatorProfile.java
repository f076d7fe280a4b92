package io.paynotify.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The tests that talk to the provider simulator's gateways (the active query, the operator console): one profile,
 * so that Quarkus starts once for all of them. A short first query step and a short claim tick let each active-query
 * test wait well under a second for its query (the production tick is 1 s); the rules under test depend on neither.
 * Orders that a test wants queried only on request are inserted unscheduled ({@link OrderBuilder}).
 */
public class SimulatorProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "paynotify.reconcile.schedule", "300ms,30m,1h",
                "paynotify.reconcile.max-rate", "10",
                "paynotify.reconcile.tick", "100ms");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(SimulatorResource.class));
    }
}
