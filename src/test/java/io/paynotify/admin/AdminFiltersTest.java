package io.paynotify.admin;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AdminFiltersTest {

    static JsonPath get(String url) {
        return given().header("Authorization", AdminData.AUTH)
                .get(url)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void ordersFilterByChannelStateAndAttention() {
        String ch = AdminData.channel("fo");
        String other = AdminData.channel("fx");
        anOrder().channel(ch).outTradeNo("PEND").insert();
        anOrder().channel(ch).outTradeNo("CLOSED1").closed().insert();
        anOrder()
                .channel(ch)
                .outTradeNo("FLAGGED")
                .attention("PAID_AFTER_CLOSE")
                .insert();
        anOrder().channel(other).outTradeNo("ELSEWHERE").insert();

        assertEquals(
                List.of("FLAGGED", "CLOSED1", "PEND"),
                get("/admin/orders?channel=" + ch).getList("items.outTradeNo"));
        assertEquals(
                List.of("CLOSED1"),
                get("/admin/orders?channel=" + ch + "&state=CLOSED").getList("items.outTradeNo"));
        assertEquals(
                List.of("FLAGGED", "PEND"),
                get("/admin/orders?channel=" + ch + "&state=PENDING").getList("items.outTradeNo"));
        assertEquals(
                List.of("FLAGGED"),
                get("/admin/orders?channel=" + ch + "&attention=true").getList("items.outTradeNo"));
        assertEquals(
                List.of("CLOSED1", "PEND"),
                get("/admin/orders?channel=" + ch + "&attention=false").getList("items.outTradeNo"));
        assertEquals(
                List.of(), get("/admin/orders?channel=" + ch + "&state=SUCCESS").getList("items"));

        // across channels, attention=true lists only flagged orders
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders?attention=true&limit=500")
                .then()
                .statusCode(200)
                .body("items.attention", everyItem(org.hamcrest.Matchers.not(org.hamcrest.Matchers.empty())));
    }

    @Test
    void notificationsFilterByOutcomeAndChannel() {
        String ch = AdminData.channel("fn");
        long a = AdminData.notification(ch, "A1", "APPLIED", null);
        long b = AdminData.notification(ch, "A1", "DUPLICATE", null);
        long c = AdminData.notification(ch, "X9", "ANOMALY", "UNKNOWN_ORDER");
        long d = AdminData.notification(ch, "A1", "IGNORED", "NOT_FINAL");
        assertEquals(List.of(d, c, b, a), ids(get("/admin/notifications?channel=" + ch)));
        assertEquals(List.of(c), ids(get("/admin/notifications?channel=" + ch + "&outcome=ANOMALY")));
        assertEquals(List.of(d), ids(get("/admin/notifications?outcome=IGNORED&channel=" + ch)));
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/notifications?outcome=ANOMALY&limit=500")
                .then()
                .statusCode(200)
                .body("items.outcome", everyItem(equalTo("ANOMALY")));
    }

    @Test
    void badFilterValuesAre400NamingTheParameter() {
        Map<String, String> bad = Map.of(
                "/admin/orders?state=paid",
                "state",
                "/admin/orders?state=Pending",
                "state",
                "/admin/orders?attention=yes",
                "attention",
                "/admin/orders?channel=WX-TEST",
                "channel",
                "/admin/notifications?outcome=anomaly",
                "outcome",
                "/admin/notifications?channel=" + "x".repeat(33),
                "channel");
        bad.forEach((url, field) -> given().header("Authorization", AdminData.AUTH)
                .get(url)
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("field", equalTo(field)));
    }

    @Test
    void orderJsonHasTheContractShapeWithMillisecondUtcTimes() {
        String ch = AdminData.channel("fj");
        anOrder()
                .channel(ch)
                .outTradeNo("J|1*")
                .description("Tea")
                .createdAt(Instant.parse("2026-01-02T03:04:05Z"))
                .updatedAt(Instant.parse("2026-01-02T03:04:05.5Z"))
                .insert();
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/{channel}/{no}", ch, "J|1*")
                .then()
                .statusCode(200)
                .body("channel", equalTo(ch))
                .body("outTradeNo", equalTo("J|1*"))
                .body("provider", equalTo("WECHATPAY_V2"))
                .body("amount", equalTo(100))
                .body("currency", equalTo("CNY"))
                .body("description", equalTo("Tea"))
                .body("state", equalTo("PENDING"))
                .body("$", hasKey("transactionId"))
                .body("transactionId", nullValue())
                .body("$", hasKey("paidAt"))
                .body("createdAt", equalTo("2026-01-02T03:04:05.000Z"))
                .body("updatedAt", equalTo("2026-01-02T03:04:05.500Z"))
                .body("attention", hasSize(0));
    }

    @Test
    void notificationJsonShowsRawBodyTextOrBase64AndDecodedObject() {
        String ch = AdminData.channel("fb");
        byte[] gbk = "out_trade_no=B1&subject=测试".getBytes(java.nio.charset.Charset.forName("GBK"));
        long text = AdminData.notification(
                ch,
                "B1",
                "APPLIED",
                null,
                "<xml>中文 \"quoted\"</xml>".getBytes(StandardCharsets.UTF_8),
                "{\"refund_status\":\"SUCCESS\",\"n\":1}");
        long binary = AdminData.notification(ch, "B1", "DUPLICATE", null, gbk, null);
        JsonPath page = get("/admin/orders/" + ch + "/B1/notifications");
        assertEquals(List.of(text, binary), ids(page));
        Map<String, Object> t = page.getMap("items[0]");
        assertEquals(
                List.of(
                        "id",
                        "channel",
                        "outTradeNo",
                        "provider",
                        "receivedAt",
                        "outcome",
                        "reason",
                        "providerStatus",
                        "transactionId",
                        "amount",
                        "source",
                        "rawBody",
                        "rawBodyBase64",
                        "decoded"),
                List.copyOf(t.keySet()));
        assertEquals("<xml>中文 \"quoted\"</xml>", t.get("rawBody"));
        assertEquals(null, t.get("rawBodyBase64"));
        assertEquals(Map.of("refund_status", "SUCCESS", "n", 1), t.get("decoded"));
        assertEquals("2026-01-02T03:04:05.123Z", t.get("receivedAt"));
        assertEquals(100, t.get("amount"));
        Map<String, Object> b = page.getMap("items[1]");
        assertEquals(null, b.get("rawBody"));
        assertArrayEquals(gbk, Base64.getDecoder().decode((String) b.get("rawBodyBase64")));
        assertEquals(null, b.get("decoded"));
    }

    @Test
    void historyOfAnUnknownOrderIsListedAnd404OnlyWhenThereIsNeither() {
        // a real, correctly signed delivery for an order that was never registered: ANOMALY UNKNOWN_ORDER
        String no = "UNK" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        Map<String, String> f = WechatV2Fixtures.signed(
                WechatV2Fixtures.paid(no, "4200000009" + no.substring(3, 13), 100), TestChannels.WX_KEY, "MD5");
        given().body(WechatV2Fixtures.body(f))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(422);

        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/" + TestChannels.WX + "/" + no)
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/" + TestChannels.WX + "/" + no + "/notifications")
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].outcome", equalTo("ANOMALY"))
                .body("items[0].reason", equalTo("UNKNOWN_ORDER"))
                .body("items[0].provider", equalTo("WECHATPAY_V2"))
                .body("items[0].rawBody", equalTo(new String(WechatV2Fixtures.body(f), StandardCharsets.UTF_8)))
                .body("next", nullValue());
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/notifications?outcome=ANOMALY&channel=" + TestChannels.WX + "&limit=500")
                .then()
                .statusCode(200)
                .body("items.outTradeNo", org.hamcrest.Matchers.hasItem(no));

        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/" + TestChannels.WX + "/NEVER_SEEN_" + no.substring(3) + "/notifications")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        // an order without notifications: an empty history, not a 404
        String ch = AdminData.channel("fe");
        anOrder().channel(ch).outTradeNo("E1").insert();
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/" + ch + "/E1/notifications")
                .then()
                .statusCode(200)
                .body("items", hasSize(0))
                .body("next", nullValue());
    }

    static List<Long> ids(JsonPath page) {
        return page.getList("items.id", Number.class).stream()
                .map(Number::longValue)
                .toList();
    }
}
