package io.paynotify.http;

import io.quarkus.runtime.LaunchMode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * The first guard of the public port, ahead of every route: what a proxy in front of us might route by one prefix
 * and we would serve under another never reaches a handler.
 *
 * <p><b>Paths reached through another prefix.</b> An Ingress routes by prefix ({@code /notify}, {@code /api}) on the
 * raw request target, and may pass {@code /notify/..%2F..%2Fadmin/orders} on, which decoding and dot-segment removal
 * here would turn into {@code /admin/orders}. So a target with an encoded slash or backslash ({@code %2F},
 * {@code %5C}, at any depth of percent-encoding), a backslash, or a {@code .} or {@code ..} segment (raw, encoded,
 * or with {@code ;parameters}) is refused with {@code 400} before routing, in every launch mode. No path of this
 * service has any of these: channel names, order numbers, event ids and the console's files never contain a slash,
 * a backslash or a dot segment, and query strings are not looked at.
 *
 * <p><b>Operations paths.</b> Health, metrics and OpenAPI ({@code /q/**}) are served by Quarkus' management interface on its own port
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
        // dev mode serves its Dev UI under /q on the application port; nothing else does
        boolean operations = LaunchMode.current() != LaunchMode.DEVELOPMENT;
        router.route().order(RouteOrder.PUBLIC_PATHS).handler(ctx -> guard(ctx, operations));
    }

    private void guard(RoutingContext ctx, boolean operations) {
        String target = ctx.request().uri();
        if (operations && isOperationsPath(target)) {
            ctx.response()
                    .setStatusCode(404)
                    .putHeader("Content-Type", "text/plain")
                    .putHeader("Cache-Control", "no-store")
                    .end("Not Found");
            return;
        }
        if (!isPlainPath(target)) {
            ctx.response()
                    .setStatusCode(400)
                    .putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .putHeader("Cache-Control", "no-store")
                    .end(Buffer.buffer(Problem.invalid(
                                    "path",
                                    "The request target may hold no encoded slash or backslash, no backslash and no"
                                            + " dot segment.")
                            .toJson()));
            return;
        }
        ctx.next();
    }

    /**
     * False when the path of the request target, at any depth of percent-decoding, holds an encoded slash or
     * backslash, a backslash, or a {@code .} or {@code ..} segment (a segment's {@code ;parameters} dropped).
     */
    public static boolean isPlainPath(String target) {
        if (target == null) {
            return true;
        }
        String path = pathOf(target);
        for (int i = 0; i <= MAX_DECODES; i++) {
            if (path.indexOf('\\') >= 0 || hasEncodedSeparator(path) || hasDotSegment(path)) {
                return false;
            }
            String decoded = percentDecode(path);
            if (decoded.equals(path)) {
                return true;
            }
            path = decoded;
        }
        // still changing after MAX_DECODES decodings: nothing legitimate is encoded that deep
        return false;
    }

    private static boolean hasEncodedSeparator(String path) {
        for (int i = path.indexOf('%'); i >= 0 && i + 2 < path.length(); i = path.indexOf('%', i + 1)) {
            char hi = path.charAt(i + 1);
            char lo = Character.toLowerCase(path.charAt(i + 2));
            if ((hi == '2' && lo == 'f') || (hi == '5' && lo == 'c')) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasDotSegment(String path) {
        for (String raw : path.split("/", -1)) {
            int semicolon = raw.indexOf(';');
            String s = semicolon >= 0 ? raw.substring(0, semicolon) : raw;
            if (s.equals(".") || s.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /** The path of a request target: without its query, and without scheme and authority in the absolute form. */
    private static String pathOf(String target) {
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
        return path;
    }

    /** True when the request target, however spelled, names {@code /q} or a path below it. */
    public static boolean isOperationsPath(String target) {
        if (target == null) {
            return false;
        }
        String path = pathOf(target);
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
