package io.paynotify.channel;

import java.security.PublicKey;
import java.util.Collections;
import java.util.LinkedHashSet;
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

    ChannelSettings(String name, PaynotifyConfig.ChannelConfig config) {
        this.name = name;
        this.config = config;
        this.prefix = "paynotify.channels.\"" + name + "\".";
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
        try {
            return KeyParsing.rsaPublicKey(text);
        } catch (IllegalArgumentException e) {
            throw problem(key, e.getMessage());
        }
    }
}
