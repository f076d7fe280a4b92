package io.paynotify.logs;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Runs real traffic (valid, forged and malformed notifications; admin calls with right and wrong tokens), then reads
 * the run's log file ({@code %test.quarkus.log.file.path}, our own code at DEBUG) and looks for every secret, key,
 * token, signature and raw-body fragment the run used. None may appear; the notification's own INFO line must.
 */
@QuarkusTest
class LogScrapeTest {

    @Test
    void logsCarryNoSecretSignatureOrBody() throws Exception {
        String marker = "BODYMARK" + UUID.randomUUID().toString().replace("-", "");
        var forbidden = new ArrayList<String>(List.of(
                TestChannels.WX_KEY,
                TestChannels.WX_KEY_NEXT,
                TestChannels.WX_HMAC_KEY,
                TestChannels.WX3_API_V3_KEY,
                TestChannels.CLIENT_A_SECRET,
                TestChannels.CLIENT_B_SECRET,
                TestChannels.ADMIN_TOKEN,
                TestChannels.ADMIN_TOKEN_2,
                marker,
                // a stretch of each public key past the prefix every 2048-bit key shares
                TestKeys.publicBase64(TestKeys.ALIPAY).substring(60, 100),
                TestKeys.publicBase64(TestKeys.ALIPAY_NEXT).substring(60, 100)));

        // a valid v2 payment whose body carries the marker in an optional field
        String no = "LG" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(300).insert();
        var fields = WechatV2Fixtures.paid(no, "4200000055" + no.substring(2, 12), 300);
        fields.put("attach", marker);
        Map<String, String> paid = WechatV2Fixtures.signed(fields, TestChannels.WX_KEY, "HMAC-SHA256");
        forbidden.add(paid.get("sign"));
        forbidden.add(paid.get("sign").toLowerCase(Locale.ROOT));
        given().body(WechatV2Fixtures.body(paid))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(200);
        // a forged one (signed with a guessed key) and one whose sign was tampered with
        Map<String, String> forged = WechatV2Fixtures.signed(fields, "y".repeat(32), "MD5");
        forbidden.add(forged.get("sign"));
        given().body(WechatV2Fixtures.body(forged))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(401);
        given().body(("<xml><attach>" + marker + "</attach><broken").getBytes(StandardCharsets.UTF_8))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(400);
        given().body(WechatV2Fixtures.body(paid))
                .post("/notify/wechatpay/nosuch-" + marker.substring(0, 8).toLowerCase())
                .then()
                .statusCode(404);

        // an Alipay payment for an unknown order (ANOMALY, logged once) and a forged one
        String aliNo = "AL" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        var ali = AlipayFixtures.paid(aliNo, "2026" + aliNo.substring(2, 20), "1.00");
        ali.put("body", marker);
        Map<String, String> aliSigned = AlipayFixtures.signed(ali, TestKeys.ALIPAY, "RSA2");
        forbidden.add(aliSigned.get("sign"));
        given().body(AlipayFixtures.body(aliSigned))
                .post("/notify/alipay/" + TestChannels.ALI)
                .then()
                .statusCode(422);
        Map<String, String> aliForged = AlipayFixtures.signed(ali, TestKeys.STRANGER, "RSA2");
        forbidden.add(aliForged.get("sign"));
        given().body(AlipayFixtures.body(aliForged))
                .post("/notify/alipay/" + TestChannels.ALI)
                .then()
                .statusCode(401);

        // admin calls with the right and a wrong token; the answers carry the raw body, the logs must not
        String wrongToken = "wrong-admin-token-" + UUID.randomUUID();
        forbidden.add(wrongToken);
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX + "/" + no + "/notifications")
                .then()
                .statusCode(200)
                .body("items[0].rawBody", org.hamcrest.Matchers.containsString(marker));
        given().header("Authorization", "Bearer " + wrongToken)
                .get("/admin/notifications")
                .then()
                .statusCode(401);
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders?after=" + marker)
                .then()
                .statusCode(400);

        // the records of this run's requests may still be on their way to the file: wait until both notifications'
        // lines are there
        String log = await("the notifications' log lines")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        LogScrapeTest::readLog,
                        l -> l.contains("outTradeNo=" + no) && l.contains("outTradeNo=" + aliNo));
        assertTrue(log.contains("outTradeNo=" + no), "the run's log was captured and names the notification");
        assertTrue(
                log.lines()
                        .anyMatch(l -> l.contains("outTradeNo=" + no)
                                && l.contains("INFO")
                                && l.contains("channel=" + TestChannels.WX)
                                && l.contains("outcome=APPLIED")
                                && l.contains("reason=")
                                && l.contains("latencyMs=")),
                "each notification is logged at INFO with channel, outTradeNo, outcome, reason and latency");
        assertTrue(log.contains("outTradeNo=" + aliNo), "the anomaly is logged too");
        for (String secret : forbidden) {
            assertFalse(log.contains(secret), "the log contains a forbidden value (" + secret.length() + " chars)");
        }
        // no body fragment either: the XML and form shapes of the requests never reach the log
        assertFalse(log.contains("<return_code>"), "no XML body in the log");
        assertFalse(log.contains("trade_status=TRADE_SUCCESS"), "no form body in the log");
    }

    /** The run's log file as it is now; empty while it does not exist yet. */
    static String readLog() throws Exception {
        Path file = Path.of(ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class));
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
