package io.paynotify.admin;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class OpenApiTest {

    @Test
    void describesTheAdminApiWithItsBearerSchemeAndTheMerchantScheme() {
        JsonPath doc = given().queryParam("format", "json")
                .get(io.paynotify.testing.Management.url("/q/openapi"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        Map<String, Object> paths = doc.getMap("paths");
        for (String p : List.of(
                "/admin/orders",
                "/admin/orders/{channel}/{outTradeNo}",
                "/admin/orders/{channel}/{outTradeNo}/notifications",
                "/admin/notifications")) {
            assertTrue(paths.containsKey(p), "documented: " + p);
            assertEquals(List.of(Map.of("adminBearer", List.of())), doc.getList("paths.'" + p + "'.get.security"), p);
            assertTrue(doc.getMap("paths.'" + p + "'.get.responses").containsKey("401"), p + " documents 401");
        }
        assertEquals("http", doc.getString("components.securitySchemes.adminBearer.type"));
        assertEquals("bearer", doc.getString("components.securitySchemes.adminBearer.scheme"));
        assertEquals("apiKey", doc.getString("components.securitySchemes.merchantHmac.type"));
        assertEquals("X-Signature", doc.getString("components.securitySchemes.merchantHmac.name"));
        for (String p : List.of(
                "/api/v1/orders",
                "/api/v1/orders/{channel}/{outTradeNo}",
                "/api/v1/orders/{channel}/{outTradeNo}/close")) {
            assertTrue(paths.containsKey(p), "documented: " + p);
        }
        // every /api operation carries the merchant scheme
        paths.keySet().stream().filter(p -> p.startsWith("/api")).forEach(p -> {
            Map<String, Object> item = doc.getMap("paths.'" + p + "'");
            item.values()
                    .forEach(op -> assertEquals(
                            List.of(Map.of("merchantHmac", List.of())), ((Map<?, ?>) op).get("security"), p));
        });
    }
}
