package io.paynotify.provider;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One delivery as it arrived: the body bytes (at most {@link #MAX_BODY_BYTES}), the headers and the arrival time.
 * Nothing has been decoded or trusted yet.
 *
 * @param headers header values by lower-case name, in arrival order
 */
public record RawNotify(String channel, Map<String, List<String>> headers, byte[] body, Instant receivedAt) {

    /** The body limit of docs/api.md "Notify API": larger bodies are refused with 413 before they are read. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    /** All values of one header (case-insensitive name); empty when absent. */
    public List<String> header(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    @Override
    public String toString() {
        return "RawNotify[" + channel + ", " + body.length + " bytes]";
    }
}
