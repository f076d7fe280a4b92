package io.paynotify.merchant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import org.junit.jupiter.api.Test;

/** The RFC 9457 mappers for the JAX-RS resources of /admin, exercised through a test-only resource. */
@QuarkusTest
class ProblemMappersTest {

    /** Lives only in the test application. */
    @Path("/admin/problem-probe")
    public static class ProbeResource {
        @GET
        @Produces("application/json")
        public String probe(@QueryParam("limit") int limit) {
            if (limit > 500) {
                throw new ProblemException(Problem.invalid("limit", "limit must be at most 500"));
            }
            return "{}";
        }
    }

    @Test
    void aProblemExceptionIsRenderedAsProblemJson() {
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/problem-probe?limit=501")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("field", equalTo("limit"))
                .body("detail", equalTo("limit must be at most 500"));
    }

    @Test
    void jaxRsStatusExceptionsOnAdminBecomeProblemsWithoutInternals() {
        // a query parameter that does not convert: JAX-RS answers 404 through a WebApplicationException
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .get("/admin/problem-probe?limit=abc")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body(not(containsString("Exception")));
        given().auth()
                .oauth2(TestChannels.ADMIN_TOKEN)
                .post("/admin/problem-probe")
                .then()
                .statusCode(405)
                .contentType("application/problem+json")
                .body("status", equalTo(405));
    }
}
