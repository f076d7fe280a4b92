package io.paynotify.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.admin.ConsoleFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the console's own code may do (docs/operations.md "Operator console"), read from its files: it never turns
 * data into HTML (no innerHTML and its relatives, no eval), loads nothing from another origin, and calls only the
 * documented admin API. The browser tests show the same things at work; this keeps a later edit from slipping.
 */
@Tag("unit")
class ConsoleSourceTest {

    static String file(String name) throws IOException {
        try (InputStream in =
                ConsoleSourceTest.class.getResourceAsStream("/META-INF/resources/admin/console/" + name)) {
            assertNotNull(in, name + " is on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theScriptNeverParsesDataAsHtmlOrCode() throws IOException {
        String js = file("console.js");
        for (String sink : List.of(
                "innerHTML",
                "outerHTML",
                "insertAdjacentHTML",
                "document.write",
                "eval(",
                "new Function",
                "setTimeout('",
                "setInterval('",
                "createContextualFragment",
                "srcdoc",
                "javascript:",
                ".style.",
                "localStorage",
                "document.cookie")) {
            assertFalse(js.contains(sink), "console.js must not use " + sink);
        }
    }

    @Test
    void nothingComesFromAnotherOrigin() throws IOException {
        for (String name : List.of("index.html", "console.css", "console.js")) {
            String text = file(name);
            assertFalse(text.matches("(?s).*(src|href)=\"(https?:)?//.*"), name + " loads nothing from elsewhere");
            assertFalse(text.contains("@import"), name);
            assertFalse(text.contains("url("), name);
        }
        String html = file("index.html");
        assertEquals(1, html.split("<script", -1).length - 1, "one script element");
        assertTrue(html.contains("<script src=\"console.js\" defer></script>"));
        assertFalse(html.contains("<style"), "no inline style element");
    }

    /** Every admin path the script names is one of the documented admin calls (docs/api.md "Admin API"). */
    @Test
    void theScriptCallsOnlyTheDocumentedAdminApi() throws IOException {
        String js = file("console.js");
        Matcher m = Pattern.compile("'(/admin/[^']*)'").matcher(js);
        Set<String> named = new TreeSet<>();
        while (m.find()) {
            named.add(m.group(1));
        }
        Set<String> documented = Set.of(
                "/admin/orders?limit=1",
                "/admin/orders?attention=true&limit=",
                "/admin/orders/",
                "/admin/events?channel=",
                "/admin/events?state=PENDING&limit=500",
                "/admin/events?state=FAILED&limit=500",
                "/admin/events/",
                "/admin/clients/",
                "/admin/statements?limit=",
                "/admin/statements/",
                "/admin/statement-differences?status=OPEN&limit=",
                "/admin/statement-differences/");
        assertEquals(documented, named, "the admin paths in console.js");
        for (String suffix : List.of(
                "'/notifications?limit=500'",
                "'/query'",
                "'/redeliver'",
                "'/webhook/enable'",
                "'/fetch'",
                "'/resolve'")) {
            assertTrue(js.contains(suffix), suffix);
        }
    }

    /** The token filter's exemption: GET or HEAD of the console's own files, spelled exactly, and nothing else. */
    @Test
    void onlyTheConsoleFilesThemselvesAreExemptFromTheToken() {
        for (String file : List.of(
                "/admin/console/",
                "/admin/console/index.html",
                "/admin/console/console.css",
                "/admin/console/console.js")) {
            assertTrue(ConsoleFiles.isConsoleFile("GET", file, file), file);
            assertTrue(ConsoleFiles.isConsoleFile("HEAD", file, file), file);
            assertFalse(ConsoleFiles.isConsoleFile("POST", file, file), "POST " + file);
            assertFalse(ConsoleFiles.isConsoleFile("DELETE", file, file), "DELETE " + file);
        }
        assertFalse(ConsoleFiles.isConsoleFile("GET", "/admin/console", "/admin/console"), "redirected, not served");
        assertFalse(ConsoleFiles.isConsoleFile("GET", "/admin/console/x.js", "/admin/console/x.js"));
        assertFalse(ConsoleFiles.isConsoleFile("GET", "/admin/orders", "/admin/orders"));
        // a raw spelling that differs from what the REST layer routes is never exempt
        assertFalse(ConsoleFiles.isConsoleFile("GET", "/admin/console/../orders", "/admin/orders"));
        assertFalse(ConsoleFiles.isConsoleFile("GET", "/admin/console/%63onsole.js", "/admin/console/console.js"));
        assertFalse(ConsoleFiles.isConsoleFile("GET", "/admin/console/console.js", "/admin/orders"));
        assertFalse(ConsoleFiles.isConsoleFile("GET", null, "/admin/console/"));
    }
}
