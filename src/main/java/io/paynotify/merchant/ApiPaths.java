package io.paynotify.merchant;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Matches the raw request target against the calls of docs/api.md "Merchant API" and the event pull of docs/api.md "Pulling events". Matching works on
 * the raw path as signed (no dot-segment removal, no normalisation); only the two path parameters are
 * percent-decoded, strictly (every {@code %} followed by two hex digits, the result valid UTF-8). The query is
 * taken raw ({@link #rawQuery}) for the call that reads one.
 */
final class ApiPaths {

    static final String ORDERS = "/api/v1/orders";
    static final String EVENTS = "/api/v1/events";
    private static final String ORDERS_SLASH = ORDERS + "/";
    private static final String CLOSE_SUFFIX = "/close";

    enum Call {
        CREATE("POST"),
        READ("GET"),
        CLOSE("POST"),
        /** {@code GET /api/v1/events?after=&limit=}: the pull list of merchant events. */
        EVENTS("GET");

        final String method;

        Call(String method) {
            this.method = method;
        }
    }

    /**
     * A matched call.
     *
     * @param call which call
     * @param rawPath the path as sent, without the query
     * @param channel the decoded channel segment, or null for CREATE and EVENTS (null too when it does not decode)
     * @param outTradeNo the decoded outTradeNo segment, or null
     */
    record Match(Call call, String rawPath, String channel, String outTradeNo) {}

    private ApiPaths() {}

    /** The raw path: the target up to its query; an absolute-form target keeps only its path. */
    static String rawPath(String target) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        int scheme = path.indexOf("://");
        if (scheme > 0 && !path.startsWith("/")) {
            int slash = path.indexOf('/', scheme + 3);
            path = slash < 0 ? "/" : path.substring(slash);
        }
        return path;
    }

    /** The raw query: what follows the first {@code ?} of the target, or null when there is none. */
    static String rawQuery(String target) {
        int q = target.indexOf('?');
        return q < 0 ? null : target.substring(q + 1);
    }

    /** The call for that raw path, or null when none matches (404). */
    static Match match(String rawPath) {
        if (rawPath.equals(ORDERS)) {
            return new Match(Call.CREATE, rawPath, null, null);
        }
        if (rawPath.equals(EVENTS)) {
            return new Match(Call.EVENTS, rawPath, null, null);
        }
        if (!rawPath.startsWith(ORDERS_SLASH)) {
            return null;
        }
        String rest = rawPath.substring(ORDERS_SLASH.length());
        Call call = Call.READ;
        if (rest.endsWith(CLOSE_SUFFIX) && rest.chars().filter(ch -> ch == '/').count() == 2) {
            call = Call.CLOSE;
            rest = rest.substring(0, rest.length() - CLOSE_SUFFIX.length());
        }
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        return new Match(call, rawPath, decode(rest.substring(0, slash)), decode(rest.substring(slash + 1)));
    }

    /** Strict percent-decoding of one path segment; null when malformed (then the field's rule rejects it). */
    static String decode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        var out = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%') {
                if (i + 2 >= segment.length()) {
                    return null;
                }
                int hi = Character.digit(segment.charAt(i + 1), 16);
                int lo = Character.digit(segment.charAt(i + 2), 16);
                if (hi < 0 || lo < 0 || segment.charAt(i + 1) > 0x7F || segment.charAt(i + 2) > 0x7F) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c > 0x7F) {
                return null;
            } else {
                out.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
