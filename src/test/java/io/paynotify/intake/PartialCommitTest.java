package io.paynotify.intake;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.ArmedIntakeFaults;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * No partial commit, ever: an unchecked exception after the notification insert rolls the whole transaction back
 * before the connection returns to the pool (whose reset to autocommit would otherwise commit the insert). The
 * provider gets a 503; its retry applies normally.
 */
@QuarkusTest
class PartialCommitTest {

    @Test
    void anUncheckedExceptionAfterTheInsertLeavesNoRowAndTheRetryApplies() {
        String no = "PC" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, 500);
        byte[] body = WechatV2Fixtures.body(
                WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, "4200" + no, 500), TestChannels.WX_KEY, "MD5"));

        ArmedIntakeFaults.arm(no);
        try {
            given().body(body)
                    .post("/notify/wechatpay/" + TestChannels.WX)
                    .then()
                    .statusCode(503);
        } finally {
            ArmedIntakeFaults.disarm(no);
        }
        assertEquals(0, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", no));
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));

        given().body(body).post("/notify/wechatpay/" + TestChannels.WX).then().statusCode(200);
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));
        assertEquals(
                "SUCCESS",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));
    }
}
