package io.paynotify.http;

import io.quarkus.runtime.LaunchMode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * Health, metrics and OpenAPI ({@code /q/**}) are served by Quarkus' management interface on its own port
 * ({@code quarkus.management.port}, 9000) and never by the public port. Quarkus already serves nothing under
 * {@code /q} on the public port; this route, ahead of every other, makes sure that no spelling of such a path
 * reaches another handler either: it decodes the path the way a proxy in front of us might (percent-escapes,
 * repeatedly, so {@code %252F} too; backslashes as slashes; {@code ;params} dropped), removes dot segments and
 * empty segments, and answers {@code 404} when the result is {@code /q} or below. {@code /api%2F..%2Fq/metrics},
 * which an nginx Ingress may route to {@code /api} and normalise to {@code /q/metrics}, is one such path.
 */
@ApplicationScoped
public class OperationsPaths {

    /** How often a path is percent-decoded at most (a proxy chain decodes at most a few times). */
    private static final int MAX_DECODES = 4;

    void register(@Observes Router router) {
        if (LaunchMode.current() == LaunchMode.DEVELOPMENT) {
            // dev mode serves its Dev UI under /q on the application port; nothing else does
            return;
        }
        router.route().order(-1000).handler(this::guard);
    }

    private void guard(RoutingContext ctx) {
        if (isOperationsPath(ctx.request().uri())) {
            ctx.response()
                    .setStatusCode(404)
                    .putHeader("Content-Type", "text/plain")
                    .putHeader("Cache-Control", "no-store")
                    .end("Not Found");
            return;
        }
        ctx.next();
    }

    /** True when the request target, however spelled, names {@code /q} or a path below it. */
    public static boolean isOperationsPath(String target) {
        if (target == null) {
            return false;
        }
        String path = target;
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        int scheme = path.indexOf("://");
        if (scheme > 0 && !path.startsWith("/")) {
            int slash = path.indexOf('/', scheme + 3);
            path = slash < 0 ? "/" : path.substring(slash);
        }
        for (int i = 0; i < MAX_DECODES; i++) {
            String decoded = percentDecode(path);
            if (decoded.equals(path)) {
                break;
            }
            path = decoded;
        }
        String first = firstSegment(path.replace('\\', '/'));
        return first != null && first.toLowerCase(Locale.ROOT).equals("q");
    }

    /** The first segment after removing empty and dot segments and {@code ;parameters}; null for the root. */
    private static String firstSegment(String path) {
        var segments = new ArrayDeque<String>();
        for (String raw : path.split("/", -1)) {
            int semicolon = raw.indexOf(';');
            String s = semicolon >= 0 ? raw.substring(0, semicolon) : raw;
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                segments.pollLast();
                continue;
            }
            segments.addLast(s);
        }
        return segments.peekFirst();
    }

    /** Decodes every well-formed {@code %XX}; leaves anything else as it is (never fails). */
    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        var out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi >= 0 && lo >= 0) {
                    out.write(hi << 4 | lo);
                    i += 2;
                    continue;
                }
            }
            byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
