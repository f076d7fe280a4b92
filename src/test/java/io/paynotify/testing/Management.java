package io.paynotify.testing;

import org.eclipse.microprofile.config.ConfigProvider;

/** The management interface of the application under test (health, metrics, OpenAPI), on its own port. */
public final class Management {

    private Management() {}

    /** The management port the running application bound (tests ask for a free one). */
    public static int port() {
        String actual = System.getProperty("quarkus.management.test-port");
        if (actual != null && !actual.equals("0")) {
            return Integer.parseInt(actual);
        }
        return ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
    }

    /** {@code http://localhost:<management port><path>}. */
    public static String url(String path) {
        return "http://localhost:" + port() + path;
    }
}
