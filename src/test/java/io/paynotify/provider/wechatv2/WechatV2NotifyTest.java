package io.paynotify.provider.wechatv2;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class WechatV2NotifyTest {

    static final String OK =
            "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>";

    static String newOrderNo() {
        return "WX" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    @Test
    void paidNotificationMovesPendingOrderToSuccessOnce() {
        String no = newOrderNo();
        Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, 101);
        Map<String, String> f = WechatV2Fixtures.signed(
                WechatV2Fixtures.paid(no, "4200000001" + no.substring(2, 12), 101), TestChannels.WX_KEY, "MD5");

        given().body(WechatV2Fixtures.body(f))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(200)
                .contentType("application/xml")
                .body(equalTo(OK));

        var order =
                Db.row("SELECT state, paid_at FROM orders WHERE channel = ? AND out_trade_no = ?", TestChannels.WX, no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals("2014-09-03T05:15:40Z", order.get("paid_at").toString());
        assertEquals(
                1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no));
    }
}
