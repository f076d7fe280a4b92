package io.paynotify.admin;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The merchant API renders the order JSON by hand (its answers are stored and replayed byte for byte) and the
 * admin API through Jackson: both must show the same order the same way (CONTRACT.md §3 order JSON).
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
        assertEquals(merchant, admin);
    }
}
