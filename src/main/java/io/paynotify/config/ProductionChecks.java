package io.paynotify.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the prod profile refuses on top of the checks of every profile (docs/operations.md "Start-up checks"): a key,
 * secret or token published in this repository ({@link PublishedSecrets}), {@code paynotify.webhooks.allow-loopback
 * =true}, and an {@code api-base-url} in plain {@code http} to anything but a loopback address. Each refusal is a
 * {@link ConfigProblem} naming the key, never the value. The checks read the configuration as given, whatever the
 * channel's provider, so this class knows no provider.
 */
final class ProductionChecks {

    /** The profile these checks run in: a packaged application started without a profile runs in it. */
    static final String PROD = "prod";

    static final String DEV = "dev";

    /** IP literals only: an {@code api-base-url}'s host is never looked up at start. */
    private static final Pattern IP_LITERAL =
            Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}|\\[[0-9a-fA-F:.]*:[0-9a-fA-F:.]*\\]");

    private ProductionChecks() {}

    /** Whether the checks run: {@code prod} is among the active profiles (a profile whose parent is prod counts). */
    static boolean apply(List<String> profiles) {
        return profiles.contains(PROD);
    }

    /**
     * The warning to log at start when the checks are off: always in the dev profile (its keys are the published
     * ones), and for any other profile but prod when the application was packaged (a {@code @QuarkusTest} or
     * {@code quarkus:test} run stays quiet).
     *
     * @param packaged whether this is the packaged application (Quarkus' launch mode {@code NORMAL})
     */
    static Optional<String> startWarning(List<String> profiles, boolean packaged) {
        if (apply(profiles)) {
            return Optional.empty();
        }
        if (profiles.contains(DEV)) {
            return Optional.of("The dev profile is active: it configures keys, secrets and tokens published in the"
                    + " repository (simulator/keys, the %dev. lines of application.properties), and the prod"
                    + " profile's start-up checks are off. Never let it receive real payments.");
        }
        if (packaged) {
            return Optional.of("Profile " + profiles + " is active, not prod: the prod profile's start-up checks"
                    + " (published keys, paynotify.webhooks.allow-loopback, plain-http api-base-url) are off.");
        }
        return Optional.empty();
    }

    /** Throws the first refusal of the prod profile, if any. */
    static void check(PaynotifyConfig config) {
        config.channels().forEach(ProductionChecks::channel);
        config.clients().forEach(ProductionChecks::client);
        for (String token : config.admin().tokens().orElse(List.of())) {
            if (PublishedSecrets.text(token)) {
                throw published("paynotify.admin.tokens");
            }
        }
        if (config.webhooks().allowLoopback()) {
            throw new ConfigProblem("paynotify.webhooks.allow-loopback must not be true in the prod profile: it lets a"
                    + " webhook reach this pod's own ports and the cloud metadata service (dev and tests only)");
        }
    }

    private static void channel(String name, PaynotifyConfig.ChannelConfig c) {
        String prefix = "paynotify.channels.\"" + name + "\".";
        for (String key : entries(c.apiKey())) {
            if (PublishedSecrets.text(key)) {
                throw published(prefix + "api-key");
            }
        }
        if (c.apiV3Key().filter(PublishedSecrets::text).isPresent()) {
            throw published(prefix + "api-v3-key");
        }
        for (Map.Entry<String, String> e : c.platformKeys().entrySet()) {
            if (PublishedSecrets.rsaKey(e.getValue())) {
                throw published(prefix + "platform-keys.\"" + e.getKey() + "\"");
            }
        }
        for (String key : entries(c.alipayPublicKey())) {
            if (PublishedSecrets.rsaKey(key)) {
                throw published(prefix + "alipay-public-key");
            }
        }
        if (c.merchantPrivateKey().filter(PublishedSecrets::rsaKey).isPresent()) {
            throw published(prefix + "merchant-private-key");
        }
        if (c.appCert().filter(PublishedSecrets::rsaKey).isPresent()) {
            throw published(prefix + "app-cert");
        }
        if (c.alipayRootCert().filter(PublishedSecrets::rsaKey).isPresent()) {
            throw published(prefix + "alipay-root-cert");
        }
        for (Map.Entry<String, String> e : c.appAuthTokens().entrySet()) {
            if (PublishedSecrets.text(e.getValue())) {
                throw published(prefix + "app-auth-tokens.\"" + e.getKey() + "\"");
            }
        }
        c.apiBaseUrl().map(String::strip).filter(v -> !v.isEmpty()).ifPresent(url -> {
            if (plainHttpBeyondLoopback(url)) {
                throw new ConfigProblem(prefix + "api-base-url must be https in the prod profile (plain http only to a"
                        + " loopback address)");
            }
        });
    }

    private static void client(String id, PaynotifyConfig.ClientConfig c) {
        String prefix = "paynotify.clients.\"" + id + "\".";
        for (String secret : entries(c.secret())) {
            if (PublishedSecrets.text(secret)) {
                throw published(prefix + "secret");
            }
        }
        for (String secret : entries(c.webhookSecret())) {
            if (PublishedSecrets.text(secret) || publishedWebhookKey(secret)) {
                throw published(prefix + "webhook-secret");
            }
        }
    }

    /** A {@code whsec_} secret whose decoded HMAC key is a published one, however its base64 is written. */
    private static boolean publishedWebhookKey(String secret) {
        if (!secret.startsWith("whsec_")) {
            return false;
        }
        try {
            return PublishedSecrets.bytes(Base64.getDecoder().decode(secret.substring("whsec_".length())));
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    /** True for an {@code http} URL whose host is not {@code localhost} or a loopback IP literal. */
    static boolean plainHttpBeyondLoopback(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return false; // the provider's parser refuses it, naming the key
        }
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("http")) {
            return false;
        }
        return !loopback(uri.getHost());
    }

    static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!IP_LITERAL.matcher(host).matches()) {
            return false;
        }
        String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        try {
            return InetAddress.getByName(literal).isLoopbackAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The non-blank entries of a comma-separated value, stripped. */
    private static List<String> entries(Optional<String> value) {
        return value.stream()
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::strip)
                .filter(v -> !v.isEmpty())
                .toList();
    }

    private static ConfigProblem published(String key) {
        return new ConfigProblem(key + " is a key or secret published in this repository (simulator/keys, the dev"
                + " profile of application.properties): the prod profile never accepts it, configure your own");
    }
}
