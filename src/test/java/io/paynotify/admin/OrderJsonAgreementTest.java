package io.paynotify.admin;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The merchant API renders the order JSON by hand (its answers are stored and replayed byte for byte) and the
 * admin API through Jackson: both must show the same order the same way (the order JSON of docs/api.md "Orders").
 */
@QuarkusTest
class OrderJsonAgreementTest {

    @Test
    void merchantAndAdminShowTheSameOrder() throws Exception {
        String no = "AGREE" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        MerchantClient client = MerchantClient.a();
        assertEquals(
                201,
                client.create(UUID.randomUUID().toString(), MerchantClient.order(TestChannels.WX, no, 700))
                        .status());
        given().body(WechatV2Fixtures.body(WechatV2Fixtures.signed(
                        WechatV2Fixtures.paid(no, "4200" + no, 700), TestChannels.WX_KEY, "MD5")))
                .post("/notify/wechatpay/" + TestChannels.WX)
                .then()
                .statusCode(200);

        ObjectMapper json = new ObjectMapper();
        JsonNode merchant = json.readTree(client.get(TestChannels.WX, no).body());
        JsonNode admin = json.readTree(given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX + "/" + no)
                .then()
                .statusCode(200)
                .extract()
                .asByteArray());

        assertEquals("SUCCESS", merchant.get("state").asText());
        // the admin view adds when the provider was last asked about the order, and how often (active query)
        assertTrue(admin.get("lastQueriedAt").isNull());
        assertEquals(0, admin.get("queryCount").asInt());
        ((com.fasterxml.jackson.databind.node.ObjectNode) admin).remove(List.of("lastQueriedAt", "queryCount"));
        assertEquals(merchant, admin);

        // and its notifications say where they came from
        JsonNode history = json.readTree(given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/" + TestChannels.WX + "/" + no + "/notifications")
                .then()
                .statusCode(200)
                .extract()
                .asByteArray());
        assertEquals("NOTIFY", history.get("items").get(0).get("source").asText());
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/notifications?source=QUERY&channel=" + TestChannels.WX)
                .then()
                .statusCode(200);
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/notifications?source=ELSEWHERE")
                .then()
                .statusCode(400);
    }
}
