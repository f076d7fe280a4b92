package io.paynotify.config;

import io.paynotify.core.notify.Provider;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigUtils;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * The channels, clients and admin tokens of {@link PaynotifyConfig}, validated once at start into immutable values
 * (and the other keys checked, so that a bad value stops the start rather than a request)
 * (docs/operations.md "Start-up checks"). Each channel's keys are read by its provider's {@link ChannelKeyParser}; this class knows no
 * provider's keys. Any problem stops the start with a {@link ConfigProblem} naming the channel or client and the
 * key, never the value. In the prod profile {@link ProductionChecks} also refuse published keys, loopback webhooks
 * and plain-http provider APIs; any other profile says at start that they are off.
 */
@Singleton
@Startup
public class ChannelRegistry {

    /** Channel names (docs/operations.md "Configuration"). */
    public static final Pattern CHANNEL_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");

    private static final Logger LOG = Logger.getLogger(ChannelRegistry.class);

    static final int MIN_CLIENT_SECRET_BYTES = 32;
    static final int MIN_ADMIN_TOKEN_LENGTH = 32;

    private final Map<String, Channel> channels;
    private final Map<String, ClientCredentials> clients;
    private final List<byte[]> adminTokens;
    private final List<Duration> querySchedule;
    private final int queryMaxRate;
    private final Duration queryTick;
    private final StatementSettings statements;

    @Inject
    public ChannelRegistry(PaynotifyConfig config, Instance<ChannelKeyParser> parsers) {
        this(config, parsers.stream().toList(), announced(ConfigUtils.getProfiles()));
    }

    /**
     * For tests and tools that build a registry without CDI: one parser per provider, checked as outside the prod
     * profile.
     */
    public ChannelRegistry(PaynotifyConfig config, List<ChannelKeyParser> parsers) {
        this(config, parsers, List.of());
    }

    /**
     * One parser per provider, checked as in these active profiles: with {@code prod} among them, the prod
     * profile's {@link ProductionChecks} run too.
     */
    public ChannelRegistry(PaynotifyConfig config, List<ChannelKeyParser> parsers, List<String> profiles) {
        var byProvider = new EnumMap<Provider, ChannelKeyParser>(Provider.class);
        parsers.forEach(p -> byProvider.put(p.provider(), p));

        var parsed = new TreeMap<String, Channel>();
        config.channels().forEach((name, c) -> parsed.put(name, channel(name, c, byProvider)));
        checkOverlaps(parsed.values());
        this.channels = Collections.unmodifiableMap(parsed);

        var parsedClients = new TreeMap<String, ClientCredentials>();
        config.clients().forEach((id, c) -> parsedClients.put(id, client(id, c, parsed)));
        this.clients = Collections.unmodifiableMap(parsedClients);

        var tokens = new ArrayList<byte[]>();
        for (String token : config.admin().tokens().orElse(List.of())) {
            if (token.length() < MIN_ADMIN_TOKEN_LENGTH) {
                throw new ConfigProblem("paynotify.admin.tokens: every token must be at least " + MIN_ADMIN_TOKEN_LENGTH
                        + " characters");
            }
            tokens.add(token.getBytes(StandardCharsets.UTF_8));
        }
        this.adminTokens = List.copyOf(tokens);

        ConfigChecks.positive(config.idempotency().retention(), "paynotify.idempotency.retention");
        ConfigChecks.positive(config.events().retention(), "paynotify.events.retention");
        ConfigChecks.positive(config.notifications().retention(), "paynotify.notifications.retention");
        ConfigChecks.positive(
                config.notifications().personalDataRetention(), "paynotify.notifications.personal-data-retention");
        ConfigChecks.increasing(config.webhooks().retrySchedule(), "paynotify.webhooks.retry-schedule");
        Duration lease = ConfigChecks.positive(config.webhooks().lease(), "paynotify.webhooks.lease");
        if (lease.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new ConfigProblem("paynotify.webhooks.lease must be at most 60s");
        }
        this.querySchedule =
                List.copyOf(ConfigChecks.increasing(config.reconcile().schedule(), "paynotify.reconcile.schedule"));
        this.queryMaxRate = config.reconcile().maxRate();
        if (queryMaxRate < 1) {
            throw new ConfigProblem("paynotify.reconcile.max-rate must be at least 1");
        }
        this.queryTick = ConfigChecks.positive(config.reconcile().tick(), "paynotify.reconcile.tick");
        if (queryTick.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new ConfigProblem("paynotify.reconcile.tick must be at most 1s");
        }
        this.statements = statements(config, parsed);
        if (ProductionChecks.apply(profiles)) {
            ProductionChecks.check(config);
        }
    }

    /** The statement keys of CONTRACT.md §11: global ones and each channel's. */
    private static StatementSettings statements(PaynotifyConfig config, Map<String, Channel> channels) {
        PaynotifyConfig.Statements s = config.statements();
        var time = StatementSettings.time(s.time());
        int hold = StatementSettings.holdDays(s.hold());
        Duration retry = ConfigChecks.positive(s.retry(), "paynotify.statements.retry");
        Duration lease = ConfigChecks.positive(s.lease(), "paynotify.statements.lease");
        Duration download = ConfigChecks.positive(s.downloadTimeout(), "paynotify.statements.download-timeout");
        Duration retention = ConfigChecks.positive(s.retention(), "paynotify.statements.retention");
        var enabled = new TreeMap<String, Boolean>();
        var patterns = new TreeMap<String, Pattern>();
        config.channels().forEach((name, c) -> {
            Channel channel = channels.get(name);
            var settings = new ChannelSettings(name, c, channel.mode());
            if (c.statementsEnabled() && channel.mode() == AccountMode.ISV) {
                throw settings.problem("statements-enabled", "cannot be true on a mode=isv channel");
            }
            enabled.put(name, c.statementsEnabled());
            String pattern = c.statementsOrderPattern()
                    .map(String::strip)
                    .filter(v -> !v.isEmpty())
                    .orElse(".*");
            try {
                patterns.put(name, Pattern.compile(pattern));
            } catch (java.util.regex.PatternSyntaxException e) {
                throw settings.problem("statements-order-pattern", "is not a regular expression");
            }
        });
        return new StatementSettings(
                time,
                hold,
                retry,
                lease,
                download,
                retention,
                s.schedulerEnabled(),
                Collections.unmodifiableMap(enabled),
                Collections.unmodifiableMap(patterns));
    }

    /** The statement settings (CONTRACT.md §11). */
    public StatementSettings statements() {
        return statements;
    }

    /** The active profiles, after the start-up warning when the prod profile's checks are off for them. */
    private static List<String> announced(List<String> profiles) {
        ProductionChecks.startWarning(profiles, LaunchMode.current() == LaunchMode.NORMAL)
                .ifPresent(LOG::warn);
        return profiles;
    }

    /** The order ages at which a PENDING order of a query-enabled channel is queried (docs/api.md "Active query"). */
    public List<Duration> querySchedule() {
        return querySchedule;
    }

    /** How often each replica claims the due orders of its query-enabled channels. */
    public Duration queryTick() {
        return queryTick;
    }

    /** At most this many active queries a second per channel and replica. */
    public int queryMaxRate() {
        return queryMaxRate;
    }

    /**
     * When a new PENDING order created at {@code createdAt} is first due for an active query: its creation time plus
     * the schedule's first step on a query-enabled channel, else null (never queried).
     */
    public Instant firstQueryAt(Channel channel, Instant createdAt) {
        return channel.keys().queryEnabled() ? createdAt.plus(querySchedule.get(0)) : null;
    }

    /** The channel of that name, if configured. */
    public Optional<Channel> channel(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(channels.get(name));
    }

    /** All channels by name, sorted. */
    public Map<String, Channel> channels() {
        return channels;
    }

    /** The merchant API client of that id, if configured. */
    public Optional<ClientCredentials> client(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(clients.get(id));
    }

    /** All merchant API clients by id, sorted. */
    public Map<String, ClientCredentials> clients() {
        return clients;
    }

    /** The admin bearer tokens as UTF-8 bytes, for constant-time comparison. */
    public List<byte[]> adminTokens() {
        return adminTokens;
    }

    private static Channel channel(
            String name, PaynotifyConfig.ChannelConfig c, Map<Provider, ChannelKeyParser> parsers) {
        if (!CHANNEL_NAME.matcher(name).matches()) {
            throw new ConfigProblem(
                    "paynotify.channels: channel name \"" + name + "\" must match [a-z0-9][a-z0-9-]{0,31}");
        }
        var settings = new ChannelSettings(name, c);
        String providerText = settings.required(c.provider(), "provider");
        Provider provider;
        try {
            provider = Provider.valueOf(providerText.strip());
        } catch (IllegalArgumentException e) {
            throw settings.problem("provider", "must be one of WECHATPAY_V2, WECHATPAY_V3, ALIPAY");
        }
        ChannelKeyParser parser = parsers.get(provider);
        if (parser == null) {
            throw settings.problem("provider", "names a provider this build does not serve");
        }
        AccountMode mode = mode(settings, parser);
        settings = new ChannelSettings(name, c, mode);
        if (mode != AccountMode.ISV && !c.appAuthTokens().isEmpty()) {
            throw settings.problem("app-auth-tokens", "is only for mode=isv");
        }
        for (String authAppId : c.appAuthTokens().keySet()) {
            if (!AccountMode.ISV.subMerchantId().matcher(authAppId).matches()) {
                throw settings.problem("app-auth-tokens", "must be keyed by auth_app_id, 16 digits");
            }
        }
        for (var certificateKey : java.util.Map.of("alipay-root-cert", c.alipayRootCert(), "app-cert", c.appCert())
                .entrySet()) {
            if (!parser.certificateMode()
                    && certificateKey.getValue().filter(v -> !v.isBlank()).isPresent()) {
                throw settings.problem(certificateKey.getKey(), "is only for ALIPAY channels (certificate mode)");
            }
        }
        if (mode == AccountMode.ISV && c.sellerId().filter(v -> !v.isBlank()).isPresent()) {
            throw settings.problem("seller-id", "is not for mode=isv (each merchant has its own seller)");
        }
        return new Channel(name, provider, parser.maxOutTradeNo(), parser.parse(settings), mode);
    }

    /** The channel's {@code mode}: {@code direct} unless set, and one of the modes its provider has. */
    private static AccountMode mode(ChannelSettings settings, ChannelKeyParser parser) {
        String text = settings.config()
                .mode()
                .map(String::strip)
                .filter(v -> !v.isEmpty())
                .orElse("direct");
        for (AccountMode m : parser.modes()) {
            if (m.value().equals(text)) {
                return m;
            }
        }
        throw settings.problem(
                "mode",
                "does not fit the provider (allowed: "
                        + String.join(
                                ", ",
                                parser.modes().stream()
                                        .map(AccountMode::value)
                                        .sorted()
                                        .toList()) + ")");
    }

    private static ClientCredentials client(String id, PaynotifyConfig.ClientConfig c, Map<String, Channel> channels) {
        String prefix = "paynotify.clients.\"" + id + "\".";
        var secrets = new ArrayList<byte[]>();
        for (String secret : list(required(c.secret(), prefix, "secret"), prefix, "secret")) {
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            if (bytes.length < MIN_CLIENT_SECRET_BYTES) {
                throw new ConfigProblem(prefix + "secret: every secret must be at least 32 bytes");
            }
            secrets.add(bytes);
        }
        Set<String> allowed = list(required(c.channels(), prefix, "channels"), prefix, "channels");
        for (String ch : allowed) {
            if (!channels.containsKey(ch)) {
                throw new ConfigProblem(prefix + "channels names an unknown channel \"" + ch + "\"");
            }
        }
        return new ClientCredentials(
                id, List.copyOf(secrets), allowed, webhook(prefix, c), subMerchants(prefix, c, allowed, channels));
    }

    /**
     * The sub-merchants a client is limited to (docs/api.md "Account modes"): each must have the shape of the
     * sub-merchant ids of one of the client's service-provider or ISV channels; none on a client without such a
     * channel.
     */
    private static Set<String> subMerchants(
            String prefix, PaynotifyConfig.ClientConfig c, Set<String> allowed, Map<String, Channel> channels) {
        Optional<String> value = c.subMerchants().filter(v -> !v.isBlank());
        if (value.isEmpty()) {
            return Set.of();
        }
        var modes = allowed.stream()
                .map(channels::get)
                .map(Channel::mode)
                .filter(AccountMode::hasSubMerchants)
                .distinct()
                .toList();
        if (modes.isEmpty()) {
            throw new ConfigProblem(prefix + "sub-merchants is set on a client with no partner or isv channel");
        }
        Set<String> ids = list(value.get(), prefix, "sub-merchants");
        for (String id : ids) {
            if (modes.stream().noneMatch(m -> m.subMerchantId().matcher(id).matches())) {
                throw new ConfigProblem(prefix + "sub-merchants has an id of no shape its channels take");
            }
        }
        return ids;
    }

    /** The client's webhook: an absolute http(s) URL and one or more {@code whsec_} secrets, or none. */
    private static ClientCredentials.Webhook webhook(String prefix, PaynotifyConfig.ClientConfig c) {
        Optional<String> url = c.webhookUrl().filter(v -> !v.isBlank());
        if (url.isEmpty()) {
            if (c.webhookSecret().filter(v -> !v.isBlank()).isPresent()) {
                throw new ConfigProblem(prefix + "webhook-secret is set without a webhook-url");
            }
            return null;
        }
        URI uri;
        try {
            uri = new URI(url.get().strip());
        } catch (URISyntaxException e) {
            throw new ConfigProblem(prefix + "webhook-url must be an absolute http or https URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute()
                || !(scheme.equals("http") || scheme.equals("https"))
                || uri.getHost() == null
                || uri.getUserInfo() != null
                || uri.getFragment() != null) {
            throw new ConfigProblem(prefix + "webhook-url must be an absolute http or https URL");
        }
        var secrets = new ArrayList<byte[]>();
        for (String secret : list(required(c.webhookSecret(), prefix, "webhook-secret"), prefix, "webhook-secret")) {
            secrets.add(webhookSecret(secret, prefix));
        }
        return new ClientCredentials.Webhook(uri, List.copyOf(secrets));
    }

    /** {@code whsec_} + base64 of 24 to 64 bytes (Standard Webhooks); the decoded bytes are the HMAC key. */
    private static byte[] webhookSecret(String secret, String prefix) {
        String problem =
                prefix + "webhook-secret: every secret must be whsec_ followed by the base64 of 24 to 64 bytes";
        if (!secret.startsWith("whsec_")) {
            throw new ConfigProblem(problem);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
        } catch (IllegalArgumentException e) {
            throw new ConfigProblem(problem);
        }
        if (key.length < 24 || key.length > 64) {
            throw new ConfigProblem(problem);
        }
        return key;
    }

    /** Two channels of one provider must never both accept one notification. */
    private static void checkOverlaps(Iterable<Channel> all) {
        var seen = new ArrayList<Channel>();
        for (Channel c : all) {
            for (Channel other : seen) {
                if (other.provider() != c.provider()) {
                    continue;
                }
                var shared = new LinkedHashSet<>(c.keys().notificationIdentities());
                shared.retainAll(other.keys().notificationIdentities());
                if (!shared.isEmpty()) {
                    throw new ConfigProblem("paynotify.channels.\"" + other.name() + "\" and paynotify.channels.\""
                            + c.name() + "\" could accept the same notification (same mch-id and app-id)");
                }
            }
            seen.add(c);
        }
    }

    private static String required(Optional<String> value, String prefix, String key) {
        return value.filter(v -> !v.isBlank()).orElseThrow(() -> new ConfigProblem(prefix + key + " is required"));
    }

    private static Set<String> list(String value, String prefix, String key) {
        var out = new LinkedHashSet<String>();
        for (String part : value.split(",")) {
            String v = part.strip();
            if (v.isEmpty()) {
                throw new ConfigProblem(prefix + key + " has an empty entry");
            }
            out.add(v);
        }
        return Collections.unmodifiableSet(out);
    }
}
