package io.paynotify.channel;

import java.util.List;
import java.util.Set;

/**
 * A merchant API client: its HMAC secrets (several during a rotation) and the channels it may use.
 * {@link #toString()} never shows a secret.
 */
public record ClientCredentials(String id, List<byte[]> secrets, Set<String> channels) {

    @Override
    public String toString() {
        return "Client[" + id + ", " + channels + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientCredentials c && c.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }
}
