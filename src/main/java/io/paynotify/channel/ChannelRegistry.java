package io.paynotify.channel;

import io.paynotify.core.notify.Provider;
import io.quarkus.runtime.Startup;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The channels, clients and admin tokens of {@link PaynotifyConfig}, validated once at start into immutable values
 * (CONTRACT.md §5). Any problem stops the start with a {@link ConfigProblem} naming the channel or client and the
 * key, never the value.
 */
@Singleton
@Startup
public class ChannelRegistry {

    /** Channel names of CONTRACT.md §1. */
    public static final Pattern CHANNEL_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");

    static final int V2_API_KEY_LENGTH = 32;
    static final int V3_API_KEY_BYTES = 32;
    static final int MIN_CLIENT_SECRET_BYTES = 32;
    static final int MIN_ADMIN_TOKEN_LENGTH = 32;
    static final Set<String> V2_SIGN_TYPES = Set.of("MD5", "HMAC-SHA256");
    static final Set<String> ALIPAY_SIGN_TYPES = Set.of("RSA2", "RSA");

    private final Map<String, Channel> channels;
    private final Map<String, ClientCredentials> clients;
    private final List<byte[]> adminTokens;

    @Inject
    public ChannelRegistry(PaynotifyConfig config) {
        var parsed = new TreeMap<String, Channel>();
        config.channels().forEach((name, c) -> parsed.put(name, channel(name, c)));
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

    /** The admin bearer tokens as UTF-8 bytes, for constant-time comparison. */
    public List<byte[]> adminTokens() {
        return adminTokens;
    }

    private static Channel channel(String name, PaynotifyConfig.ChannelConfig c) {
        String prefix = "paynotify.channels.\"" + name + "\".";
        if (!CHANNEL_NAME.matcher(name).matches()) {
            throw new ConfigProblem(
                    "paynotify.channels: channel name \"" + name + "\" must match [a-z0-9][a-z0-9-]{0,31}");
        }
        String providerText = c.provider().orElseThrow(() -> missing(prefix, "provider"));
        Provider provider;
        try {
            provider = Provider.valueOf(providerText.strip());
        } catch (IllegalArgumentException e) {
            throw new ConfigProblem(prefix + "provider must be one of WECHATPAY_V2, WECHATPAY_V3, ALIPAY");
        }
        return switch (provider) {
            case WECHATPAY_V2 -> wechatV2(name, prefix, c);
            case WECHATPAY_V3 -> wechatV3(name, prefix, c);
            case ALIPAY -> alipay(name, prefix, c);
        };
    }

    private static Channel wechatV2(String name, String prefix, PaynotifyConfig.ChannelConfig c) {
        Set<String> appIds = list(required(c.appId(), prefix, "app-id"), prefix, "app-id");
        String mchId = single(required(c.mchId(), prefix, "mch-id"), prefix, "mch-id");
        var keys = new ArrayList<byte[]>();
        for (String key : list(required(c.apiKey(), prefix, "api-key"), prefix, "api-key")) {
            if (key.length() != V2_API_KEY_LENGTH) {
                throw new ConfigProblem(prefix + "api-key: every key must be exactly 32 characters");
            }
            keys.add(key.getBytes(StandardCharsets.UTF_8));
        }
        Set<String> signTypes = list(required(c.signTypes(), prefix, "sign-types"), prefix, "sign-types");
        for (String t : signTypes) {
            if (!V2_SIGN_TYPES.contains(t)) {
                throw new ConfigProblem(prefix + "sign-types: unknown sign type (allowed: MD5, HMAC-SHA256)");
            }
        }
        return new Channel(
                name,
                Provider.WECHATPAY_V2,
                appIds,
                mchId,
                List.copyOf(keys),
                signTypes,
                null,
                Map.of(),
                List.of(),
                null);
    }

    private static Channel wechatV3(String name, String prefix, PaynotifyConfig.ChannelConfig c) {
        Set<String> appIds = list(required(c.appId(), prefix, "app-id"), prefix, "app-id");
        String mchId = single(required(c.mchId(), prefix, "mch-id"), prefix, "mch-id");
        String v3 = required(c.apiV3Key(), prefix, "api-v3-key");
        byte[] v3Key = v3.getBytes(StandardCharsets.UTF_8);
        if (v3Key.length != V3_API_KEY_BYTES) {
            throw new ConfigProblem(prefix + "api-v3-key must be exactly 32 bytes");
        }
        if (c.platformKeys().isEmpty()) {
            throw missing(prefix, "platform-keys");
        }
        var keys = new LinkedHashMap<String, PublicKey>();
        c.platformKeys()
                .forEach((serial, text) -> keys.put(serial, rsa(text, prefix + "platform-keys.\"" + serial + "\"")));
        return new Channel(
                name,
                Provider.WECHATPAY_V3,
                appIds,
                mchId,
                List.of(),
                Set.of(),
                v3Key,
                Collections.unmodifiableMap(keys),
                List.of(),
                null);
    }

    private static Channel alipay(String name, String prefix, PaynotifyConfig.ChannelConfig c) {
        String appId = single(required(c.appId(), prefix, "app-id"), prefix, "app-id");
        var keys = new ArrayList<PublicKey>();
        for (String text :
                list(required(c.alipayPublicKey(), prefix, "alipay-public-key"), prefix, "alipay-public-key")) {
            keys.add(rsa(text, prefix + "alipay-public-key"));
        }
        Set<String> signTypes = list(c.signTypes().orElse("RSA2"), prefix, "sign-types");
        for (String t : signTypes) {
            if (!ALIPAY_SIGN_TYPES.contains(t)) {
                throw new ConfigProblem(prefix + "sign-types: unknown sign type (allowed: RSA2, RSA)");
            }
        }
        String sellerId =
                c.sellerId().map(String::strip).filter(s -> !s.isEmpty()).orElse(null);
        return new Channel(
                name,
                Provider.ALIPAY,
                Set.of(appId),
                null,
                List.of(),
                signTypes,
                null,
                Map.of(),
                List.copyOf(keys),
                sellerId);
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
        return new ClientCredentials(id, List.copyOf(secrets), allowed);
    }

    /** Two channels of one provider must never both accept one notification. */
    private static void checkOverlaps(Iterable<Channel> all) {
        var seen = new ArrayList<Channel>();
        for (Channel c : all) {
            for (Channel other : seen) {
                if (other.provider() != c.provider()) {
                    continue;
                }
                boolean sameMerchant =
                        c.provider() == Provider.ALIPAY || c.mchId().equals(other.mchId());
                var shared = new LinkedHashSet<>(c.appIds());
                shared.retainAll(other.appIds());
                if (sameMerchant && !shared.isEmpty()) {
                    throw new ConfigProblem("paynotify.channels.\"" + other.name() + "\" and paynotify.channels.\""
                            + c.name() + "\" could accept the same notification (same mch-id and app-id)");
                }
            }
            seen.add(c);
        }
    }

    private static PublicKey rsa(String text, String key) {
        try {
            return KeyParsing.rsaPublicKey(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigProblem(key + " " + e.getMessage());
        }
    }

    private static String required(Optional<String> value, String prefix, String key) {
        return value.filter(v -> !v.isBlank()).orElseThrow(() -> missing(prefix, key));
    }

    private static ConfigProblem missing(String prefix, String key) {
        return new ConfigProblem(prefix + key + " is required");
    }

    private static String single(String value, String prefix, String key) {
        Set<String> values = list(value, prefix, key);
        if (values.size() != 1) {
            throw new ConfigProblem(prefix + key + " must be a single value");
        }
        return values.iterator().next();
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
