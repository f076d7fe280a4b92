package io.paynotify.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Refuses, with a 400 problem, a request for the JAX-RS layer (everything but {@code /notify} and {@code /api}, which
 * read their raw paths themselves) whose raw path that layer could not decode safely: a malformed percent-escape,
 * bytes that are not UTF-8, or a {@code ;} (matrix parameters, which this service does not have and which the JAX-RS
 * layer decodes a second time, so that {@code %25} followed by junk became a 500). Channel names and order numbers
 * never contain any of these, so nothing legitimate is refused.
 */
@ApplicationScoped
public class PathGuard {

    void register(@Observes Router router) {
        router.route().order(RouteOrder.PATH_GUARD).handler(this::guard);
    }

    private void guard(RoutingContext ctx) {
        String uri = ctx.request().uri();
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        if (path.startsWith("/notify/") || path.startsWith("/api/")) {
            ctx.next();
            return;
        }
        if (path.indexOf(';') >= 0 || !decodesStrictly(path)) {
            ctx.response()
                    .setStatusCode(400)
                    .putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .putHeader("Cache-Control", "no-store")
                    .end(Buffer.buffer(Problem.invalid("path", "The path is not a well-formed admin path.")
                            .toJson()));
            return;
        }
        ctx.next();
    }

    /** Every {@code %} is followed by two hex digits and the decoded bytes are UTF-8. */
    static boolean decodesStrictly(String path) {
        var bytes = new java.io.ByteArrayOutputStream(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length()
                        || Character.digit(path.charAt(i + 1), 16) < 0
                        || Character.digit(path.charAt(i + 2), 16) < 0) {
                    return false;
                }
                bytes.write(Character.digit(path.charAt(i + 1), 16) << 4 | Character.digit(path.charAt(i + 2), 16));
                i += 2;
            } else if (c > 0x7F) {
                return false;
            } else {
                bytes.write(c);
            }
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
