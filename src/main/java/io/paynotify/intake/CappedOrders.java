package io.paynotify.intake;

import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The orders this process has seen at the per-order cap of recorded deliveries: a bounded, least-recently-used
 * hint that lets a replay flood be answered from a read. Only a hint: losing an entry costs one write transaction,
 * and no decision ever depends on it.
 */
@Singleton
class CappedOrders {

    /** Entries kept; the oldest goes first. */
    static final int MAX_ENTRIES = 10_000;

    private final Map<String, Boolean> keys = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    synchronized boolean contains(String key) {
        return keys.get(key) != null;
    }

    synchronized void add(String key) {
        keys.put(key, Boolean.TRUE);
    }

    synchronized void clear() {
        keys.clear();
    }
}
