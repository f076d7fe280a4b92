package io.paynotify.reconcile;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.IsvGateway;
import io.paynotify.testing.Management;
import io.paynotify.testing.SimulatorProfile;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An Alipay ISV's active query end to end (docs/api.md "Account modes"): the running service checks every configured
 * {@code app_auth_token} with {@code alipay.open.auth.token.app.query} right after its start, against a stub gateway
 * on 127.0.0.1 (real HTTP, real RSA signatures both ways); a merchant whose token Alipay confirmed is queried with its
 * token and the paid answer applies; a merchant whose token belongs to another merchant, is invalid, or whose check
 * got an answer that does not verify, is never queried: the operator's query answers {@code ERROR}, no request
 * carries that token, and {@code paynotify_isv_tokens_invalid} counts the three.
 */
@QuarkusTest
@TestProfile(SimulatorProfile.class)
class IsvTokenQueryTest {

    static final String CHANNEL = IsvGateway.CHANNEL;
    static final Duration WAIT = Duration.ofSeconds(20);

    @BeforeAll
    static void theStartTimeChecksAreDone() {
        Awaitility.await("every configured token checked at start")
                .atMost(WAIT)
                .until(() -> IsvGateway.tokenChecks().size() >= IsvGateway.TOKENS.size() && invalid() == 3);
    }

    static double invalid() {
        return Management.sum(Management.scrape(), "paynotify_isv_tokens_invalid", Map.of("channel", CHANNEL));
    }

    @Test
    void everyTokenWasCheckedOnceAtStartAndTheThreeThatFailedAreCounted() {
        List<Map<String, String>> checks = IsvGateway.tokenChecks();
        IsvGateway.TOKENS.forEach((merchant, token) -> {
            long sent = checks.stream()
                    .filter(p -> p.get("biz_content").equals("{\"app_auth_token\":\"" + token + "\"}"))
                    .count();
            if (merchant.equals(IsvGateway.UNVERIFIABLE)) {
                // no verified answer: the sweep tries it again once a minute
                assertTrue(sent >= 1, "checked at start");
            } else {
                assertEquals(1, sent, "a decided check is not repeated within 24 h");
            }
        });
        assertTrue(checks.stream().allMatch(p -> IsvGateway.APP_ID.equals(p.get("app_id"))));
        assertTrue(checks.stream().noneMatch(p -> p.containsKey("app_auth_token")), "the ISV's own call");
        assertEquals(3.0, invalid(), "misfiled, invalid and unverifiable");
    }

    @Test
    void aMerchantWithAConfirmedTokenIsQueriedWithItAndThePaymentApplies() {
        String no = order(IsvGateway.GOOD);
        admin().post("/admin/orders/" + CHANNEL + "/" + no + "/query")
                .then()
                .statusCode(200)
                .body("result", equalTo("PAID"))
                .body("notification.source", equalTo("QUERY"))
                .body("notification.outcome", equalTo("APPLIED"));
        List<Map<String, String>> sent = queriesOf(no);
        assertEquals(1, sent.size());
        assertEquals(IsvGateway.TOKENS.get(IsvGateway.GOOD), sent.get(0).get("app_auth_token"));
        assertEquals(
                "SUCCESS",
                Db.row("SELECT state FROM orders WHERE channel = ? AND out_trade_no = ?", CHANNEL, no)
                        .get("state"));
    }

    @ParameterizedTest
    @ValueSource(strings = {IsvGateway.MISFILED, IsvGateway.INVALID, IsvGateway.UNVERIFIABLE})
    void aMerchantWhoseTokenFailedIsNeverQueried(String merchant) {
        String no = order(merchant);
        admin().post("/admin/orders/" + CHANNEL + "/" + no + "/query")
                .then()
                .statusCode(200)
                .body("result", equalTo("ERROR"))
                .body("notification", nullValue());
        assertTrue(queriesOf(no).isEmpty(), "nothing asked about the order");
        String token = IsvGateway.TOKENS.get(merchant);
        assertFalse(
                IsvGateway.sent().stream().anyMatch(p -> token.equals(p.get("app_auth_token"))),
                "no request ever carried that token");
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM orders WHERE channel = ? AND out_trade_no = ?", CHANNEL, no)
                        .get("state"));
        assertEquals(3.0, invalid());
    }

    @Test
    void theLogNamesTheChannelAndMerchantOfEachFailedTokenAndNeverATokenItself() {
        String no = order(IsvGateway.MISFILED);
        admin().post("/admin/orders/" + CHANNEL + "/" + no + "/query").then().statusCode(200);
        String log = Awaitility.await("the query's log line")
                .atMost(WAIT)
                .until(
                        IsvTokenQueryTest::readLog,
                        l -> l.contains("error=CREDENTIALS reason=not queried: auth_app_id=" + IsvGateway.MISFILED));
        assertTrue(
                log.lines()
                        .anyMatch(l -> l.contains("app_auth_token check channel=" + CHANNEL + " auth_app_id="
                                        + IsvGateway.MISFILED + " result=REFUSED")
                                && l.contains("another auth_app_id")),
                "the start-time check's refusal, with channel and auth_app_id");
        for (String token : IsvGateway.TOKENS.values()) {
            assertFalse(log.contains(token), "a token in the log");
        }
    }

    /** The test runs' log file ({@code %test.quarkus.log.file.path}). */
    static String readLog() {
        try {
            java.nio.file.Path file = java.nio.file.Path.of("target/paynotify-test.log");
            return java.nio.file.Files.exists(file) ? java.nio.file.Files.readString(file) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static List<Map<String, String>> queriesOf(String no) {
        return IsvGateway.tradeQueries().stream()
                .filter(p -> p.get("biz_content").contains("\"" + no + "\""))
                .toList();
    }

    private static String order(String merchant) {
        String no = "ISV"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 20).toUpperCase();
        anOrder()
                .channel(CHANNEL)
                .provider("ALIPAY")
                .subMerchant(merchant, null)
                .outTradeNo(no)
                .amount(800)
                .insert();
        return no;
    }

    private static io.restassured.specification.RequestSpecification admin() {
        return given().auth().oauth2(TestChannels.ADMIN_TOKEN);
    }
}
