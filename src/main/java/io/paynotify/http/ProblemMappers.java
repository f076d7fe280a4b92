package io.paynotify.http;

import io.paynotify.persistence.DatabaseUnavailable;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * RFC 9457 answers for the JAX-RS resources of {@code /admin}: a {@link ProblemException} becomes its problem, a
 * {@link DatabaseUnavailable} the 503 problem with {@code Retry-After}, and a JAX-RS status exception (404 of an unknown path, 405, 415, a bad parameter) becomes
 * a problem with the same status. Deliberately no catch-all {@code Throwable} mapper: an unexpected exception
 * keeps Quarkus' plain 500, which carries no stack trace in production. Other paths keep the default answers.
 *
 * <p>The merchant API itself runs on plain Vert.x routes (see {@code merchant.MerchantRoutes}) and renders the
 * same {@link Problem}s directly.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger("io.paynotify.admin");

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return toResponse(e.problem());
    }

    @ServerExceptionMapper
    public Response unavailable(DatabaseUnavailable e) {
        LOG.warnf("admin answered 503: the database failed (SQLState %s)", e.sqlState());
        return toResponse(Problem.unavailable());
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, UriInfo uri) {
        Response original = e.getResponse();
        String path = uri.getPath();
        if (original == null || path == null || !(path.startsWith("/admin") || path.startsWith("/api"))) {
            return original;
        }
        int status = original.getStatus();
        Response.StatusType type = Response.Status.fromStatusCode(status);
        Problem p = Problem.status(status, type == null ? "Error" : type.getReasonPhrase());
        Response.ResponseBuilder b =
                Response.status(status).type(Problem.MEDIA_TYPE).entity(p.toJson());
        // keep the headers a client needs to recover (Allow on 405, WWW-Authenticate on 401, Retry-After on 503)
        for (String h : new String[] {"Allow", "WWW-Authenticate", "Retry-After"}) {
            Object v = original.getHeaders().getFirst(h);
            if (v != null) {
                b.header(h, v);
            }
        }
        return b.build();
    }

    /** The response for a problem: its status, {@code application/problem+json}, the fixed JSON bytes. */
    public static Response toResponse(Problem p) {
        return toResponseBuilder(p).build();
    }

    /** As {@link #toResponse}, for a caller that adds headers. */
    public static Response.ResponseBuilder toResponseBuilder(Problem p) {
        Response.ResponseBuilder b =
                Response.status(p.status()).type(Problem.MEDIA_TYPE).entity(p.toJson());
        if (p.status() == 503) {
            b.header("Retry-After", "1");
        }
        return b;
    }
}
