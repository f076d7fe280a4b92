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

    /** The Prometheus text of {@code /q/metrics}. */
    public static String scrape() {
        return io.restassured.RestAssured.given()
                .get(url("/q/metrics"))
                .then()
                .extract()
                .asString();
    }

    /** The sum of the series of that name carrying all these labels (in any order) in a scrape; 0 when absent. */
    public static double sum(String scrape, String name, java.util.Map<String, String> labels) {
        var line = java.util.regex.Pattern.compile(
                "^" + java.util.regex.Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", java.util.regex.Pattern.MULTILINE);
        var m = line.matcher(scrape);
        double total = 0;
        while (m.find()) {
            String l = m.group(1);
            if (labels.entrySet().stream().allMatch(e -> l.contains(e.getKey() + "=\"" + e.getValue() + "\""))) {
                total += Double.parseDouble(m.group(2));
            }
        }
        return total;
    }
}
