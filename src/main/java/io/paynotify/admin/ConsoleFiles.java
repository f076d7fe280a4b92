package io.paynotify.admin;

import io.paynotify.http.RouteOrder;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;

/**
 * The operator console's static files (docs/operations.md "Operator console"), served by Quarkus from
 * {@code META-INF/resources/admin/console/}: the only admin paths that need no token. Quarkus' static handler answers
 * for a file that exists there before the REST layer sees the request; every other path falls through to the REST
 * layer, whose {@link BearerTokenFilter} asks for the token (and would let through exactly {@link #FILES}, for GET and
 * HEAD, spelled exactly so, should the static files ever be served after it). This route, after the path guard and
 * before any handler that writes a body, puts the console's security headers on every answer under
 * {@code /admin/console/} — a strict Content-Security-Policy (no inline script or style, no other origin, no
 * framing), {@code nosniff}, no referrer, no caching — and sends {@code /admin/console} to {@code /admin/console/},
 * so that the page's relative links resolve.
 */
@ApplicationScoped
public class ConsoleFiles {

    static final String ROOT = "/admin/console";

    /** The console's files, as request paths: the only admin paths served without a token. */
    static final Set<String> FILES =
            Set.of(ROOT + "/", ROOT + "/index.html", ROOT + "/console.css", ROOT + "/console.js");

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    void register(@Observes Router router) {
        router.route().order(RouteOrder.CONSOLE_FILES).handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        String raw = ctx.request().path();
        if (raw == null || !raw.startsWith(ROOT)) {
            ctx.next();
            return;
        }
        HttpMethod method = ctx.request().method();
        boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
        if (raw.equals(ROOT) && read) {
            ctx.response()
                    .setStatusCode(302)
                    .putHeader("Location", ROOT + "/")
                    .putHeader("Cache-Control", "no-store")
                    .end();
            return;
        }
        if (raw.startsWith(ROOT + "/")) {
            ctx.addHeadersEndHandler(v -> ctx.response()
                    .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .putHeader("Referrer-Policy", "no-referrer")
                    .putHeader("X-Frame-Options", "DENY")
                    .putHeader("Cache-Control", "no-store"));
        }
        ctx.next();
    }

    /** True for a GET or HEAD of one of the console's files, spelled exactly (no escapes, no dot segments). */
    public static boolean isConsoleFile(String method, String rawPath, String decodedPath) {
        return ("GET".equals(method) || "HEAD".equals(method))
                && rawPath != null
                && FILES.contains(rawPath)
                && rawPath.equals(decodedPath);
    }
}
