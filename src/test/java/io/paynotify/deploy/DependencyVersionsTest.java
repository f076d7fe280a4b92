package io.paynotify.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md "Dependencies": the PostgreSQL driver, Netty and Jackson that the service runs with are the
 * patch releases the build imports ahead of the Quarkus BOM, not the older ones that BOM pins (which carry published
 * advisories). Read from the libraries themselves, so dropping the override from pom.xml fails this test.
 */
@Tag("unit")
class DependencyVersionsTest {

    @Test
    void thePostgresqlDriverIsThePatchedOne() {
        assertEquals("42.7.14", org.postgresql.util.DriverInfo.DRIVER_VERSION);
    }

    @Test
    void nettyIsThePatchedOneOfThe41Line() {
        io.netty.util.Version.identify().forEach((artifact, version) -> {
            if (artifact.startsWith("netty-") && !artifact.startsWith("netty-tcnative")) {
                assertEquals("4.1.137.Final", version.artifactVersion(), artifact);
            }
        });
    }

    @Test
    void jacksonIsThePatchedOneOfThe221Line() {
        assertEquals("2.21.8", com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString());
        assertEquals("2.21.8", com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString());
    }
}
