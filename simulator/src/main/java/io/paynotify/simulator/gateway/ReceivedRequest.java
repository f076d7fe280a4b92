package io.paynotify.simulator.gateway;

import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP request as read off the socket.
 *
 * @param method the request method
 * @param target the request target exactly as on the request line (path and query, not decoded)
 * @param headers the header lines in order, names as sent
 * @param body the body, de-chunked
 * @param receivedAt when its head was read
 */
record ReceivedRequest(
        String method, String target, List<Map.Entry<String, String>> headers, byte[] body, Instant receivedAt) {

    ReceivedRequest {
        headers = List.copyOf(headers);
    }

    /** The target's path, still percent-encoded. */
    String rawPath() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The target's query, still encoded, or null when there is none. */
    String rawQuery() {
        int q = target.indexOf('?');
        return q < 0 ? null : target.substring(q + 1);
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The first value of a header, its name matched case-insensitively, or null. */
    String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    /** Headers by lower-case name; repeated names have their values joined with ", ". */
    Map<String, String> lowerCaseHeaders() {
        Map<String, String> result = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : headers) {
            result.merge(h.getKey().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + ", " + b);
        }
        return result;
    }

    /**
     * {@code application/x-www-form-urlencoded} pairs ('+' is a space), decoded as UTF-8; a repeated name keeps its
     * first value.
     *
     * @throws IllegalArgumentException on a malformed percent escape
     */
    static Map<String, String> formPairs(String encoded) {
        Map<String, String> result = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return result;
        }
        for (String pair : encoded.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            result.putIfAbsent(name, value);
        }
        return result;
    }

    /**
     * A path segment's percent escapes decoded as UTF-8 ('+' stays '+', as in a URI path).
     *
     * @throws IllegalArgumentException on a malformed percent escape
     */
    static String decodePathSegment(String raw) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            if (raw.charAt(i) == '%') {
                if (i + 2 >= raw.length()) {
                    throw new IllegalArgumentException("truncated percent escape in " + raw);
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("bad percent escape in " + raw);
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                int end = raw.indexOf('%', i);
                end = end < 0 ? raw.length() : end;
                byte[] encoded = raw.substring(i, end).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                i = end - 1;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
