package io.paynotify.statements;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.Sim;
import io.paynotify.testing.SimulatorProfile;
import io.paynotify.testing.SimulatorResource;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The effect of a MISSING_LOCALLY on a PENDING order of a query-enabled channel (CONTRACT.md §11 "Effects"): one
 * active query through §9's path, against the simulator's gateway (real signatures both ways); a PAID answer that
 * applies resolves the difference with {@code paid by active query}, any other answer leaves it OPEN with its
 * {@code queryResult}. Runs in the simulator's existing profile (no Quarkus restart of its own).
 */
@QuarkusTest
@TestProfile(SimulatorProfile.class)
class StatementQueryTest {

    static final String AUTH = "Bearer " + TestChannels.ADMIN_TOKEN;
    static final String WX = SimulatorResource.WX;

    static Map<String, Object> differenceOf(LocalDate d, String no) {
        JsonPath day = given().header("Authorization", AUTH)
                .get("/admin/statements/" + WX + "/" + d)
                .jsonPath();
        for (Map<String, Object> x : day.<Map<String, Object>>getList("differences")) {
            if (x.get("outTradeNo").equals(no)) {
                return x;
            }
        }
        throw new AssertionError("no difference of " + no);
    }

    static void upload(LocalDate d, String... orders) {
        var bill = new BillFixtures.Wechat(d, SimulatorResource.WX_APPID, SimulatorResource.WX_MCH);
        for (String no : orders) {
            bill.payment(
                    no, "4200" + UUID.randomUUID().toString().replace("-", "").substring(0, 20), "12.34");
        }
        assertEquals(
                200,
                given().header("Authorization", AUTH)
                        .contentType("application/octet-stream")
                        .body(bill.bytes())
                        .post("/admin/statements/" + WX + "/" + d)
                        .statusCode());
    }

    @Test
    void aMissingLocallyOnAPendingOrderIsQueriedOnceAndAPaidAnswerResolvesIt() {
        LocalDate d = LocalDate.of(2024, 6, 1);
        String paid = "SQ" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        String notPaid = "SQ" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder().channel(WX).outTradeNo(paid).amount(1234).insert();
        anOrder().channel(WX).outTradeNo(notPaid).amount(1234).insert();
        Sim.trade(paid, "PAID", 1234);
        Sim.trade(notPaid, "NOTPAY", 1234);

        upload(d, paid, notPaid);

        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> differenceOf(d, paid).get("queryResult") != null
                        && differenceOf(d, notPaid).get("queryResult") != null);
        Map<String, Object> p = differenceOf(d, paid);
        assertEquals("PAID", p.get("queryResult"));
        assertEquals("RESOLVED", p.get("status"));
        assertEquals("paid by active query", p.get("note"));
        Map<String, Object> n = differenceOf(d, notPaid);
        assertEquals("NOT_FINAL", n.get("queryResult"));
        assertEquals("OPEN", n.get("status"));

        Map<String, Object> order = Db.row(
                "SELECT state, query_count, attention FROM orders WHERE channel = ?" + " AND out_trade_no = ?",
                WX,
                paid);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(1, ((Number) order.get("query_count")).intValue());
        assertEquals(List.of("STATEMENT_MISSING_LOCALLY"), order.get("attention"), "attention is append-only");
        assertEquals(1, Sim.requests(paid).size(), "one query");
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM notifications WHERE channel = ? AND out_trade_no = ?"
                                + " AND source = 'QUERY'",
                        WX,
                        paid));

        // the same bill again (other bytes): the order is now paid; the resolution is kept, no second query
        upload(d, paid, notPaid);
        assertEquals("RESOLVED", differenceOf(d, paid).get("status"));
        assertEquals(1, Sim.requests(paid).size());
    }
}
