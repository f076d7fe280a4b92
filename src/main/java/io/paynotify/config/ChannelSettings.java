package io.paynotify.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One channel's raw configuration as a provider's {@link ChannelKeyParser} reads it, with helpers whose every error
 * names the channel and the key ({@code paynotify.channels."wx-main".api-key is required}), never the value.
 */
public final class ChannelSettings {

    private final String name;
    private final PaynotifyConfig.ChannelConfig config;
    private final String prefix;
    private final AccountMode mode;

    ChannelSettings(String name, PaynotifyConfig.ChannelConfig config) {
        this(name, config, AccountMode.DIRECT);
    }

    ChannelSettings(String name, PaynotifyConfig.ChannelConfig config, AccountMode mode) {
        this.name = name;
        this.config = config;
        this.prefix = "paynotify.channels.\"" + name + "\".";
        this.mode = mode;
    }

    /** The channel's account mode ({@code mode}), already checked against the provider's modes. */
    public AccountMode mode() {
        return mode;
    }

    /**
     * Whether the channel calls the provider's API: {@code query-enabled=true} (CONTRACT.md §9) or
     * {@code statements-enabled=true} (§11, which signs its requests as §9's with the same keys).
     */
    public boolean callsApi() {
        return config.queryEnabled() || config.statementsEnabled();
    }

    /** The key that makes the channel call the provider's API, for the message of a missing key. */
    public String apiKeyReason() {
        return config.queryEnabled() ? "query-enabled" : "statements-enabled";
    }

    /** The channel's name. */
    public String name() {
        return name;
    }

    /** The typed configuration of this channel. */
    public PaynotifyConfig.ChannelConfig config() {
        return config;
    }

    /** The full name of one of this channel's keys, for error messages. */
    public String key(String key) {
        return prefix + key;
    }

    /** A problem with one of this channel's keys: {@code <full key> <message>}. */
    public ConfigProblem problem(String key, String message) {
        return new ConfigProblem(key(key) + " " + message);
    }

    /** The value, which must be present and not blank. */
    public String required(Optional<String> value, String key) {
        return value.filter(v -> !v.isBlank()).orElseThrow(() -> problem(key, "is required"));
    }

    /** A comma-separated list of non-empty entries, in order, without repeats. */
    public Set<String> list(String value, String key) {
        var out = new LinkedHashSet<String>();
        for (String part : value.split(",")) {
            String v = part.strip();
            if (v.isEmpty()) {
                throw problem(key, "has an empty entry");
            }
            out.add(v);
        }
        return Collections.unmodifiableSet(out);
    }

    /** A value that must be exactly one entry. */
    public String single(String value, String key) {
        Set<String> values = list(value, key);
        if (values.size() != 1) {
            throw problem(key, "must be a single value");
        }
        return values.iterator().next();
    }

    /** Each entry must be one of {@code allowed}. */
    public Set<String> oneOf(Set<String> values, Set<String> allowed, String key, String allowedText) {
        for (String v : values) {
            if (!allowed.contains(v)) {
                throw problem(key, "has an unknown value (allowed: " + allowedText + ")");
            }
        }
        return values;
    }

    /** An RSA public key of at least 2048 bits from a PEM certificate, PEM key or bare base64. */
    public PublicKey rsaPublicKey(String text, String key) {
        return rsaPublicKeyInfo(text, key).key();
    }

    /** As {@link #rsaPublicKey}, also telling whether the key was given as a certificate, and its notAfter. */
    public KeyParsing.PublicKeyInfo rsaPublicKeyInfo(String text, String key) {
        try {
            return KeyParsing.rsaPublicKeyInfo(text);
        } catch (IllegalArgumentException e) {
            throw problem(key, e.getMessage());
        }
    }

    /** An RSA private key of at least 2048 bits in PKCS#8, PEM or bare base64. */
    public PrivateKey rsaPrivateKey(String text, String key) {
        try {
            return KeyParsing.rsaPrivateKey(text);
        } catch (IllegalArgumentException e) {
            throw problem(key, e.getMessage());
        }
    }

    /**
     * An absolute {@code http} or {@code https} URL with a host, and without user info, query or fragment (a
     * provider's API root or gateway: the request target is built on it), or {@code defaultUrl} when the key is
     * absent or blank.
     */
    public URI httpUrl(Optional<String> value, String key, String defaultUrl) {
        String text = value.map(String::strip).filter(v -> !v.isEmpty()).orElse(defaultUrl);
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw problem(key, "must be an absolute http or https URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean web = scheme.equals("http") || scheme.equals("https");
        if (!web || uri.isOpaque() || uri.getHost() == null) {
            throw problem(key, "must be an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw problem(key, "must be an http or https URL without user info, query or fragment");
        }
        return uri;
    }

    /**
     * An API root: {@link #httpUrl} as text without its trailing {@code /}s, so that a path such as
     * {@code /pay/orderquery} can be appended (WeChat's {@code api-base-url}).
     */
    public String apiRoot(Optional<String> value, String key, String defaultUrl) {
        String text = httpUrl(value, key, defaultUrl).toString();
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == '/') {
            end--;
        }
        return text.substring(0, end);
    }
}
