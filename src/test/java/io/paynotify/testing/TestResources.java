package io.paynotify.testing;

import io.quarkus.test.common.QuarkusTestResource;

/** Applies {@link FreshDatabaseResource} to every @QuarkusTest of the run (one database per run). */
@QuarkusTestResource(FreshDatabaseResource.class)
public final class TestResources {
    private TestResources() {}
}
