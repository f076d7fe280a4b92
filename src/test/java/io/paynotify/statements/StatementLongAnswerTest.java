package io.paynotify.statements;

import static io.paynotify.statements.StatementsTest.AUTH;
import static io.paynotify.statements.StatementsTest.WX;
import static io.paynotify.statements.StatementsTest.no;
import static io.paynotify.statements.StatementsTest.noon;
import static io.paynotify.statements.StatementsTest.txn;
import static io.paynotify.statements.StatementsTest.wechat;
import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.http.IdleTimeoutTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A reconcile that lasts longer than {@code quarkus.http.idle-timeout} still delivers its answer (docs/api.md
 * "Statements", "A long reconcile"): with the idle timeout at 1 s (the profile of {@link IdleTimeoutTest}, which
 * closes a silent connection after 1 s) and each comparison batch made to last 2.5 s by the test seam, the upload
 * answers 200, a body of whitespace every third of a second and then the statement. Errors decided before the
 * answer began keep their status.
 */
@QuarkusTest
@TestProfile(IdleTimeoutTest.ShortIdleTimeout.class)
class StatementLongAnswerTest {

    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void noPause() {
        Reconciler.testPauseMillis = 0;
    }

    HttpResponse<String> post(String path, byte[] body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                        .header("Authorization", AUTH)
                        .header("Content-Type", "application/octet-stream")
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anUploadThatOutlastsTheIdleTimeoutAnswers200WithWhitespaceThenTheStatement() throws Exception {
        LocalDate d = StatementsTest.newDay();
        String a = no();
        String t = txn();
        anOrder().channel(WX).outTradeNo(a).amount(4200).paid(t).paidAt(noon(d)).insert();
        byte[] bill = wechat(d).payment(a, t, "42.00").gzip();
        Reconciler.testPauseMillis = 2_500;

        long started = System.nanoTime();
        HttpResponse<String> r = post("/admin/statements/" + WX + "/" + d, bill);
        long ms = (System.nanoTime() - started) / 1_000_000;

        assertEquals(200, r.statusCode(), r.body());
        assertTrue(ms > 2_000, "the reconcile lasted longer than the idle timeout: " + ms + " ms");
        String body = r.body();
        assertTrue(body.startsWith(" "), "kept alive with whitespace first: [" + body + "]");
        assertTrue(body.indexOf('{') >= 3, "at least three keep-alive spaces in " + ms + " ms: [" + body + "]");
        assertTrue(body.substring(0, body.indexOf('{')).isBlank(), body);
        JsonPath s = new JsonPath(body);
        assertEquals("RECONCILED", s.getString("status"));
        assertEquals(1, s.getInt("payments.count"));
        assertEquals(1, s.getInt("ledger.payments.count"));
    }

    @Test
    void aQuickUploadAnswersAsBeforeAndAnUnreadableBillIsStill400() throws Exception {
        LocalDate d = StatementsTest.newDay();
        HttpResponse<String> quick =
                post("/admin/statements/" + WX + "/" + d, wechat(d).gzip());
        assertEquals(200, quick.statusCode(), quick.body());
        assertTrue(quick.body().startsWith("{"), "no keep-alive for a quick answer: " + quick.body());

        // the checks come before any keep-alive: however slow the rest would be, a bad file is a 400
        Reconciler.testPauseMillis = 2_500;
        HttpResponse<String> bad = post("/admin/statements/" + WX + "/" + d.plusDays(1), "not a bill".getBytes());
        assertEquals(400, bad.statusCode(), bad.body());
    }
}
