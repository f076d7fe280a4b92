package io.paynotify.simulator.trigger;

import java.util.Map;

/**
 * One notification as a provider posts it: path, exact body bytes, headers besides Content-Type, and a one-line
 * description of what it says (never a key or a signature).
 */
public record Notice(String path, byte[] body, Map<String, String> headers, String contentType, String what) {

    public Notice {
        headers = Map.copyOf(headers);
    }
}
