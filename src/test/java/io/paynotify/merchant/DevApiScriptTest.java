package io.paynotify.merchant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * dev/api.sh, the signing recipe of the README (Merchant API) (openssl dgst -sha256 -hmac, then curl), against the
 * running test application: proves that what the docs tell a merchant to do is accepted.
 */
@QuarkusTest
class DevApiScriptTest {

    static String run(String stdin, String... args) throws Exception {
        var command = new java.util.ArrayList<>(List.of("bash", "dev/api.sh"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(new File(".")).redirectErrorStream(true);
        pb.environment().put("PAYNOTIFY_URL", "http://localhost:" + io.restassured.RestAssured.port);
        pb.environment().put("PAYNOTIFY_CLIENT_ID", TestChannels.CLIENT_A);
        pb.environment().put("PAYNOTIFY_SECRET", TestChannels.CLIENT_A_SECRET);
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void theDocumentedRecipeCreatesReadsAndClosesAnOrder() throws Exception {
        String no = "S|" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        String encoded = no.replace("|", "%7C");
        String key = "script-" + UUID.randomUUID();
        String created = run(
                "{\"channel\":\"wx-test\",\"outTradeNo\":\"" + no + "\",\"amount\":100}",
                "POST",
                "/api/v1/orders",
                "-",
                key);
        assertTrue(created.startsWith("HTTP/1.1 201"), created);
        assertTrue(created.toLowerCase().contains("idempotent-replayed: false"), created);

        String read = run(null, "GET", "/api/v1/orders/wx-test/" + encoded);
        assertTrue(read.startsWith("HTTP/1.1 200"), read);
        assertTrue(read.contains("\"outTradeNo\":\"" + no + "\""), read);

        String closed = run(null, "POST", "/api/v1/orders/wx-test/" + encoded + "/close", "", "close-" + key);
        assertTrue(closed.startsWith("HTTP/1.1 200"), closed);
        assertEquals(
                "CLOSED",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));
    }
}
