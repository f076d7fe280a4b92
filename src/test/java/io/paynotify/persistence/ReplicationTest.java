package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.persistence.DurabilityCheck.Replication;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** When the start warns about the database's standbys (docs/operations.md "Failover"). */
@Tag("unit")
class ReplicationTest {

    @Test
    void standbysWithoutASynchronousOneAreAsynchronousOnly() {
        assertTrue(new Replication(1, "on", "").asynchronousOnly());
        assertTrue(new Replication(2, "on", " ").asynchronousOnly());
        assertTrue(new Replication(1, "local", "standby1").asynchronousOnly(), "local waits for no standby");
    }

    @Test
    void aSynchronousStandbyOrNoStandbyAtAllIsNoWarning() {
        assertFalse(new Replication(1, "on", "standby1").asynchronousOnly());
        assertFalse(new Replication(2, "remote_apply", "FIRST 1 (s1, s2)").asynchronousOnly());
        assertFalse(new Replication(0, "on", "").asynchronousOnly(), "a single server: nothing to fail over to");
    }
}
