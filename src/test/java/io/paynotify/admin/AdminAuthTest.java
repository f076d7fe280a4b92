package io.paynotify.admin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AdminAuthTest {

    static final List<String> PATHS = List.of(
            "/admin/orders",
            "/admin/orders/wx-test/NO_SUCH_ORDER",
            "/admin/orders/wx-test/NO_SUCH_ORDER/notifications",
            "/admin/notifications");

    @Test
    void everyAdminCallWithoutTokenIs401WithOneFixedProblem() {
        String first = null;
        for (String path : PATHS) {
            Response r = given().get(path);
            assertEquals(401, r.statusCode(), path);
            assertEquals("application/problem+json", r.contentType(), path);
            assertEquals("Bearer realm=\"paynotify-admin\"", r.header("WWW-Authenticate"), path);
            if (first == null) {
                first = r.asString();
            }
            assertEquals(first, r.asString(), "every 401 has the same body: " + path);
        }
    }

    @Test
    void adminPathsThatNoResourceServesAre401WithoutTokenAnd404WithIt() {
        for (String path : List.of("/admin", "/admin/", "/admin/nothing-here", "/admin/orders/a/b/c/d")) {
            given().get(path).then().statusCode(401);
            given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                    .get(path)
                    .then()
                    .statusCode(404);
        }
    }

    @Test
    void wrongOrMalformedTokensAre401() {
        String right = TestChannels.ADMIN_TOKEN;
        List<String> wrong = List.of(
                "Bearer " + right.substring(0, right.length() - 1) + "X",
                "Bearer " + right + "X",
                "Bearer " + right.substring(1),
                "Bearer ",
                "Bearer",
                "Basic " + right,
                right,
                "Token " + right,
                "Bearer " + TestChannels.CLIENT_A_SECRET);
        for (String header : wrong) {
            for (String path : PATHS) {
                given().header("Authorization", header).get(path).then().statusCode(401);
            }
        }
    }

    @Test
    void twoAuthorizationHeadersAre401() {
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders")
                .then()
                .statusCode(401);
    }

    @Test
    void rightTokenIsAccepted() {
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders?limit=1")
                .then()
                .statusCode(200)
                .contentType("application/json");
        // the scheme name is case-insensitive (RFC 7235); the token is not
        given().header("Authorization", "bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/notifications?limit=1")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN.toUpperCase())
                .get("/admin/notifications?limit=1")
                .then()
                .statusCode(401);
        // authenticated, and the order does not exist: the 404 is a problem too
        given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/admin/orders/wx-test/NO_SUCH_ORDER")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("field", nullValue());
    }

    @Test
    void merchantAndNotifyPathsDoNotAcceptTheAdminTokenAsAWayIn() {
        // the admin token opens /admin only: it is no merchant credential
        int status = given().header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .get("/api/v1/orders/wx-test/ANY")
                .statusCode();
        assertEquals(true, status == 401 || status == 404, "status " + status);
    }
}
