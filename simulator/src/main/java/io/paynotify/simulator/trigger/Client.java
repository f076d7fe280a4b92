package io.paynotify.simulator.trigger;

import java.util.List;

/** A merchant API client of paynotify (docs/api.md#merchant-api): its id, HMAC secret and channels. */
public record Client(String id, String secret, List<String> channels) {

    @Override
    public String toString() {
        return id; // never the secret
    }
}
