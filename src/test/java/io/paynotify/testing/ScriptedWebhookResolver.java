package io.paynotify.testing;

import io.paynotify.events.WebhookResolver;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Replaces the webhook resolver in every @QuarkusTest. A test scripts how a name answers: after a delay (a name that
 * takes long to resolve; the lookup holds its resolver thread that long, or until {@link #reset()}), or with other
 * addresses (a name that resolves to a metadata address). Names under {@link #DOMAIN} never reach DNS: unscripted,
 * they resolve to {@code 127.0.0.1} at once. Other unscripted names go to the system resolver. Every lookup is
 * recorded.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ScriptedWebhookResolver extends WebhookResolver {

    /** The test domain (RFC 2606 reserves {@code .test}). */
    public static final String DOMAIN = ".hooks.test";

    /** How one name answers. */
    public record Script(Duration delay, List<InetAddress> addresses) {
        public static Script slow(Duration delay) {
            return new Script(delay, List.of(InetAddress.getLoopbackAddress()));
        }

        public static Script at(InetAddress... addresses) {
            return new Script(Duration.ZERO, List.of(addresses));
        }
    }

    /** One lookup as it arrived. */
    public record Lookup(String host, Instant at) {}

    private static final Map<String, Script> SCRIPTS = new ConcurrentHashMap<>();
    private static final List<Lookup> LOOKUPS = new CopyOnWriteArrayList<>();
    private static volatile CountDownLatch held = new CountDownLatch(1);

    /** The application's lookups of that name answer so from now on. */
    public static void script(String host, Script script) {
        SCRIPTS.put(host, script);
    }

    /** Forgets scripts and lookups, and lets every lookup held for its delay go now. */
    public static void reset() {
        SCRIPTS.clear();
        LOOKUPS.clear();
        CountDownLatch open = held;
        held = new CountDownLatch(1);
        open.countDown();
    }

    /** The application's lookups of that name since the last {@link #reset()}. */
    public static List<Lookup> lookups(String host) {
        return LOOKUPS.stream().filter(l -> l.host().equals(host)).toList();
    }

    @Override
    public List<InetAddress> resolve(String host) throws UnknownHostException {
        LOOKUPS.add(new Lookup(host, Instant.now()));
        Script s = SCRIPTS.get(host);
        if (s == null) {
            return host.endsWith(DOMAIN) ? List.of(InetAddress.getLoopbackAddress()) : super.resolve(host);
        }
        if (!s.delay().isZero()) {
            try {
                held.await(s.delay().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return s.addresses();
    }
}
