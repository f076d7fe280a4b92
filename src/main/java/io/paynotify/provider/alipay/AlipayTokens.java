package io.paynotify.provider.alipay;

import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.core.notify.Provider;
import io.paynotify.logging.LogRateLimit;
import io.paynotify.provider.QueryHttp;
import io.paynotify.provider.StrictJson;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The confirmation of an Alipay ISV's {@code app_auth_token}s (docs/api.md "Account modes"): a merchant's token is
 * sent with its orders' queries only while {@code alipay.open.auth.token.app.query} (a signed gateway call, its
 * answer verified as every query answer's, certificate mode included) confirmed in the last 24 h that it is
 * {@code valid} and belongs to the {@code auth_app_id} it is configured under ({@link AlipayTokenCheck}).
 *
 * <p>In memory, per replica (docs/architecture.md "ISV token confirmation"): every token of every query-enabled ISV
 * channel is checked once right after the start, on a thread of its own (readiness never waits for it), and the
 * sweep every minute sends each check that is due: 24 h after the last decided one, a minute after one that got no
 * verified answer. A query whose merchant's check is due runs it first, on the query's thread; one token is never
 * checked twice at once.
 */
@Singleton
public class AlipayTokens {

    static final String METHOD = "alipay.open.auth.token.app.query";

    /** How often the sweep looks for due checks. */
    static final Duration SWEEP = Duration.ofMinutes(1);

    private static final Logger LOG = Logger.getLogger("io.paynotify.query");

    private static final LogRateLimit LIMIT = new LogRateLimit(10);

    /** One configured token and its last check; the monitor of its checks. */
    static final class Entry {
        final String authAppId;
        final String token;
        volatile AlipayTokenCheck check = AlipayTokenCheck.unchecked();

        Entry(String authAppId, String token) {
            this.authAppId = authAppId;
            this.token = token;
        }
    }

    private final Clock clock;
    private final AlipayGateway gateway;
    private final List<Channel> swept;
    private final Map<String, Map<String, Entry>> entries = new ConcurrentHashMap<>();
    private ScheduledExecutorService sweeper;

    @Inject
    public AlipayTokens(Clock clock, QueryHttp http, AlipayCertStore store, ChannelRegistry registry) {
        this(clock, http, store, swept(registry));
    }

    /** For tests and tools: checks only when a query asks, no sweep. */
    public AlipayTokens(Clock clock, QueryHttp http, AlipayCertStore store) {
        this(clock, http, store, List.of());
    }

    private AlipayTokens(Clock clock, QueryHttp http, AlipayCertStore store, List<Channel> swept) {
        this.clock = clock;
        this.gateway = new AlipayGateway(clock, http, store);
        this.swept = swept;
    }

    /** The channels whose tokens are checked: query-enabled Alipay ISV channels with tokens (only queries use them). */
    private static List<Channel> swept(ChannelRegistry registry) {
        return registry.channels().values().stream()
                .filter(c -> c.provider() == Provider.ALIPAY && c.mode() == AccountMode.ISV)
                .filter(c -> c.keys().queryEnabled())
                .filter(c -> !c.keys(AlipayKeys.class).appAuthTokens().isEmpty())
                .toList();
    }

    void onStart(@Observes StartupEvent event) {
        start();
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }

    /** Starts the sweep: the first one at once (the start-time checks), then every minute. */
    synchronized void start() {
        if (swept.isEmpty() || sweeper != null) {
            return;
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "paynotify-isv-tokens");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::sweep, 0, SWEEP.toMillis(), TimeUnit.MILLISECONDS);
    }

    synchronized void stop() {
        if (sweeper != null) {
            sweeper.shutdownNow();
            sweeper = null;
        }
    }

    /** Sends every check that is due on the swept channels, one after the other. */
    void sweep() {
        for (Channel channel : swept) {
            AlipayKeys keys = channel.keys(AlipayKeys.class);
            for (Entry e : entries(channel, keys).values()) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                try {
                    if (e.check.due(clock.instant())) {
                        check(channel, keys, e);
                    }
                } catch (RuntimeException ex) {
                    LOG.errorf(
                            "app_auth_token check channel=%s auth_app_id=%s failed unexpectedly: %s",
                            channel.name(), e.authAppId, ex.getClass().getSimpleName());
                }
            }
        }
    }

    /**
     * The merchant's token when Alipay confirmed it in the last 24 h, after running a due check first; null when the
     * merchant has no configured token or its token is not confirmed (then nothing may be sent for it).
     */
    String confirmed(Channel channel, AlipayKeys keys, String authAppId) {
        if (authAppId == null) {
            return null;
        }
        Entry e = entries(channel, keys).get(authAppId);
        if (e == null) {
            return null;
        }
        if (e.check.usable(clock.instant())) {
            return e.token;
        }
        if (e.check.due(clock.instant())) {
            check(channel, keys, e);
        }
        return e.check.usable(clock.instant()) ? e.token : null;
    }

    /** Why the merchant's token is not usable now, for the log (never the token). */
    String whyNot(Channel channel, AlipayKeys keys, String authAppId) {
        Entry e = authAppId == null ? null : entries(channel, keys).get(authAppId);
        if (e == null) {
            return "no app_auth_token configured";
        }
        AlipayTokenCheck c = e.check;
        return switch (c.status()) {
            case UNCHECKED -> "app_auth_token not checked yet";
            case CONFIRMED -> "app_auth_token confirmation expired";
            case REFUSED, UNANSWERED -> "app_auth_token " + c.status() + ": " + c.reason();
        };
    }

    /** The channel's configured tokens whose last check did not confirm them ({@code paynotify_isv_tokens_invalid}). */
    int failed(Channel channel) {
        Map<String, Entry> all = entries.get(channel.name());
        if (all == null) {
            return 0;
        }
        return (int) all.values().stream().filter(e -> e.check.failed()).count();
    }

    /** The last check of that merchant's token, for tests. */
    AlipayTokenCheck state(Channel channel, String authAppId) {
        Entry e = entries(channel, channel.keys(AlipayKeys.class)).get(authAppId);
        return e == null ? null : e.check;
    }

    private Map<String, Entry> entries(Channel channel, AlipayKeys keys) {
        return entries.computeIfAbsent(channel.name(), n -> {
            var m = new LinkedHashMap<String, Entry>();
            keys.appAuthTokens().forEach((id, token) -> m.put(id, new Entry(id, token)));
            return Map.copyOf(m);
        });
    }

    /** Sends the check unless another thread just did, and records what it found. */
    private void check(Channel channel, AlipayKeys keys, Entry e) {
        synchronized (e) {
            Instant sent = clock.instant();
            if (!e.check.due(sent)) {
                return;
            }
            AlipayTokenCheck next;
            try {
                AlipayGateway.Verified v = gateway.call(
                        channel.name(), keys, METHOD, AlipayGateway.bizContent("app_auth_token", e.token), null);
                if (!v.ok()) {
                    next = AlipayTokenCheck.unanswered(
                            sent, "no verified answer (" + v.error().error() + ")");
                } else {
                    next = AlipayTokenCheck.verified(
                            sent,
                            v.code(),
                            StrictJson.text(v.response(), "status"),
                            StrictJson.text(v.response(), "auth_app_id"),
                            e.authAppId);
                }
            } catch (QueryHttp.Failed f) {
                next = AlipayTokenCheck.unanswered(sent, "no verified answer (" + f.error() + ")");
            } catch (RuntimeException ex) {
                next = AlipayTokenCheck.unanswered(
                        sent, "unexpected " + ex.getClass().getSimpleName());
            }
            e.check = next;
            log(channel.name(), e.authAppId, next);
        }
    }

    private static void log(String channel, String authAppId, AlipayTokenCheck c) {
        LogRateLimit.Permit permit = LIMIT.tryLog();
        if (permit.suppressedBefore() > 0) {
            LOG.warnf("app_auth_token checks: %d more results not logged", permit.suppressedBefore());
        }
        if (!permit.log()) {
            return;
        }
        if (c.status() == AlipayTokenCheck.Status.CONFIRMED) {
            LOG.infof("app_auth_token check channel=%s auth_app_id=%s result=CONFIRMED", channel, authAppId);
        } else {
            LOG.warnf(
                    "app_auth_token check channel=%s auth_app_id=%s result=%s reason=%s: the merchant's orders are not"
                            + " queried",
                    channel, authAppId, c.status(), c.reason());
        }
    }
}
