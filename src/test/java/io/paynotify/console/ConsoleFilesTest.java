package io.paynotify.console;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator console's files over HTTP (docs/operations.md "Operator console"): served without a token, with the
 * strict Content-Security-Policy and the other headers, and the token exemption holds for exactly those files: every
 * other admin path, however it is spelled, still needs the token.
 */
@QuarkusTest
class ConsoleFilesTest {

    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    static void assertConsoleHeaders(Response r) {
        assertEquals(CSP, r.header("Content-Security-Policy"));
        assertEquals("nosniff", r.header("X-Content-Type-Options"));
        assertEquals("no-referrer", r.header("Referrer-Policy"));
        assertEquals("no-store", r.header("Cache-Control"));
        assertEquals("DENY", r.header("X-Frame-Options"));
        assertTrue(r.header("Set-Cookie") == null, "no cookies");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/admin/console/", "/admin/console/index.html"})
    void thePageIsServedWithoutATokenUnderTheStrictPolicy(String path) {
        Response r = given().redirects().follow(false).get(path);
        assertEquals(200, r.statusCode(), path);
        assertThat(r.contentType(), "text/html");
        assertConsoleHeaders(r);
        String html = r.asString();
        assertTrue(html.contains("<script src=\"console.js\" defer></script>"), "the script is a file of its own");
        assertFalse(html.contains("style="), "no inline style: the policy would refuse it");
        assertFalse(html.matches("(?s).*\\son[a-z]+=.*"), "no inline event handler: the policy would refuse it");
    }

    @Test
    void theScriptAndStyleAreServedWithTheirTypesAndTheSameHeaders() {
        Response js = given().get("/admin/console/console.js");
        assertEquals(200, js.statusCode());
        assertThat(js.contentType(), "javascript");
        assertConsoleHeaders(js);
        Response css = given().get("/admin/console/console.css");
        assertEquals(200, css.statusCode());
        assertThat(css.contentType(), "text/css");
        assertConsoleHeaders(css);
        given().head("/admin/console/console.js").then().statusCode(200);
    }

    @Test
    void theBarePathRedirectsToTheDirectory() {
        given().redirects()
                .follow(false)
                .get("/admin/console")
                .then()
                .statusCode(302)
                .header("Location", equalTo("/admin/console/"));
    }

    @Test
    void theAdminApiStillNeedsTheToken() {
        given().get("/admin/orders").then().statusCode(401).contentType(startsWith("application/problem+json"));
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders?limit=1")
                .then()
                .statusCode(200);
        // only reading the files is exempt
        given().post("/admin/console/index.html").then().statusCode(401);
        given().delete("/admin/console/console.js").then().statusCode(401);
        // another file under the console's path is not one of its files
        given().get("/admin/console/nothing-here.js").then().statusCode(401);
        given().get("/admin/console/orders").then().statusCode(401);
    }

    /** Spellings of an admin API path that start with the console's path: none reaches the API without a token. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin/console/../orders",
                "/admin/console/../orders?limit=1",
                "/admin/console/./../orders",
                "/admin/console//../../admin/orders",
                "/admin/console/%2e%2e/orders",
                "/admin/console/%2E%2E/orders",
                "/admin/console/.%2e/orders",
                "/admin/console/..%2forders",
                "/admin/console/..%2Forders",
                "/admin/console/%2e%2e%2forders",
                "/admin/console/%252e%252e/orders",
                "/admin/console/..\\orders",
                "/admin/console/..%5corders",
                "/admin/console/..;/orders",
                "/admin/console/index.html/../../orders",
                "/admin/console/index.html%3f/../../orders",
                "/admin/console/console.js/..%2f..%2forders",
                "/admin/console%2f..%2forders",
                "/admin/console/../events",
                "/admin/console/../orders/wx-test/x/query",
            })
    void noSpellingThroughTheConsolePathSkipsTheToken(String target) throws Exception {
        String answer = rawGet(target);
        int status = Integer.parseInt(answer.substring(9, 12));
        assertTrue(status == 401 || status == 400 || status == 404, target + " answered " + answer);
        assertFalse(answer.contains("\"items\""), target + " must not list anything: " + answer);
    }

    private static void assertThat(String contentType, String expected) {
        assertTrue(contentType != null && contentType.contains(expected), contentType + " should contain " + expected);
    }

    /** The whole answer to a GET written byte for byte as given (no client library normalises the target). */
    static String rawGet(String target) throws Exception {
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
