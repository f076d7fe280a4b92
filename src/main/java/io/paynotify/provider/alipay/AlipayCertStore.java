package io.paynotify.provider.alipay;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Alipay certificates this replica downloaded with {@code alipay.open.app.alipaycert.download} and trusted
 * (docs/api.md "Account modes": chained to a configured root, within validity, the SN asked for), by channel and SN;
 * kept in memory only, each replica downloads its own. Their keys verify answers that name their SN and also
 * notifications. A download is tried at most once a minute per channel and SN; the SNs tried are bounded per channel,
 * so a misbehaving gateway cannot grow this without end.
 */
@ApplicationScoped
public class AlipayCertStore {

    static final Duration RETRY = Duration.ofMinutes(1);

    /** The most SNs per channel this replica keeps track of (trusted and tried together). */
    static final int MAX_PER_CHANNEL = 64;

    private final Map<String, Map<String, PublicKey>> trusted = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Instant>> attempts = new ConcurrentHashMap<>();

    /** The trusted key of that SN, or null. */
    PublicKey key(String channel, String sn) {
        Map<String, PublicKey> keys = trusted.get(channel);
        return keys == null ? null : keys.get(sn);
    }

    /** Every key downloaded and trusted for the channel. */
    List<PublicKey> keys(String channel) {
        Map<String, PublicKey> keys = trusted.get(channel);
        return keys == null ? List.of() : List.copyOf(keys.values());
    }

    /** Keeps a downloaded certificate's key once it passed every check. */
    void trust(String channel, String sn, PublicKey key) {
        trusted.computeIfAbsent(channel, c -> new ConcurrentHashMap<>()).put(sn, key);
    }

    /**
     * True, and the attempt noted, when a download of that SN may be tried now: none was in the last minute, and the
     * channel tracks fewer than {@link #MAX_PER_CHANNEL} SNs.
     */
    boolean mayDownload(String channel, String sn, Instant now) {
        Map<String, Instant> tried = attempts.computeIfAbsent(channel, c -> new ConcurrentHashMap<>());
        if (!tried.containsKey(sn) && tried.size() >= MAX_PER_CHANNEL) {
            return false;
        }
        boolean[] allowed = {false};
        tried.compute(sn, (k, last) -> {
            if (last == null || !now.isBefore(last.plus(RETRY))) {
                allowed[0] = true;
                return now;
            }
            return last;
        });
        return allowed[0];
    }
}
