package io.paynotify.admin;

import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Renders {@link AdminProblem} as RFC 9457 problem+json. It maps only the admin package's own exception type, so it
 * cannot collide with the {@code /api} problem mappers; a 503 carries {@code Retry-After}.
 */
public class AdminProblemMapper {

    @ServerExceptionMapper
    public Response toResponse(AdminProblem problem) {
        Response.ResponseBuilder r =
                Response.status(problem.status()).type(ProblemJson.MEDIA_TYPE).entity(problem.toJson());
        if (problem.status() == 503) {
            r.header("Retry-After", "1");
        }
        return r.build();
    }
}
