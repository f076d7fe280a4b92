package io.paynotify.admin;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md "Logs": every admin action that changes something writes one audit line naming the action, its
 * target and which configured token did it (its position, never the token); reads write none, and a request cannot
 * forge a line through its path.
 */
@QuarkusTest
class AdminAuditTest {

    @Test
    void everyActionWritesOneLineNamingTheTokenByItsPosition() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String client = "audit-" + marker;
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN_2)
                .post("/admin/clients/" + client + "/webhook/enable")
                .then()
                .statusCode(404);
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .post("/admin/events/evt_" + marker + "AAAAAAAAAAAAAAAAAA/redeliver?client=" + client)
                .then()
                .statusCode(404);
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN_2)
                .post("/admin/orders/" + TestChannels.WX + "/AUDIT" + marker + "/query")
                .then()
                .statusCode(404);
        // a read is no action
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX + "/AUDITREAD" + marker)
                .then()
                .statusCode(404);

        await().atMost(Duration.ofSeconds(10)).until(() -> lines(marker).size() == 3);
        List<String> lines = lines(marker);
        assertTrue(
                lines.get(0).contains("admin action=webhook-enable target=client:" + client + " token=2 status=404"),
                lines.get(0));
        assertTrue(
                lines.get(1)
                        .contains("admin action=redeliver target=event:evt_" + marker + "AAAAAAAAAAAAAAAAAA client:"
                                + client + " token=1 status=404"),
                lines.get(1));
        assertTrue(
                lines.get(2)
                        .contains("admin action=query target=channel:" + TestChannels.WX + " outTradeNo:AUDIT" + marker
                                + " token=2 status=404"),
                lines.get(2));
        assertFalse(lines(marker).stream().anyMatch(l -> l.contains("AUDITREAD")), "reads write no audit line");
        String log = readLog();
        assertFalse(log.contains(TestChannels.ADMIN_TOKEN_2));
        assertFalse(log.contains(TestChannels.ADMIN_TOKEN));
    }

    @Test
    void aTargetCannotForgeALine() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        // %0A decodes to a newline in the path parameter; the line keeps it as '?'
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .urlEncodingEnabled(false)
                .post("/admin/clients/forge" + marker + "%0Aadmin%20action=fake/webhook/enable")
                .then()
                .statusCode(404);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lines("forge" + marker).size() == 1);
        assertEquals(1, lines("forge" + marker).size(), "one line: " + lines("forge" + marker));
        assertTrue(lines("forge" + marker).get(0).contains("target=client:forge" + marker + "?admin?action?fake "));
        assertFalse(readLog().lines().anyMatch(l -> l.startsWith("admin action=fake")));
    }

    static List<String> lines(String marker) throws Exception {
        return readLog()
                .lines()
                .filter(l -> l.contains("admin action=") && l.contains(marker))
                .toList();
    }

    static String readLog() throws Exception {
        Path file = Path.of(ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class));
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
