package io.paynotify.simulator.trigger;

import io.paynotify.simulator.sign.Pem;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The channels and merchant clients the simulator knows: the dev profile's by default, or those of a properties
 * file written with paynotify's own keys ({@code paynotify.channels."<name>".*}, {@code paynotify.clients."<id>".*},
 * docs/operations.md#configuration) plus the provider-side secrets paynotify never holds:
 *
 * <pre>
 * paynotify.channels."v3".platform-private-key=...   # WeChat v3 platform key (PKCS#8 PEM, base64, or file:PATH)
 * paynotify.channels."v3".platform-serial=...        # optional: which platform-keys serial that key is
 * paynotify.channels."ali".alipay-private-key=...    # Alipay's private key (PKCS#8 PEM, base64, or file:PATH)
 * </pre>
 *
 * A channel's {@code mode} is read as paynotify reads it; its sub-merchants are the keys of an ISV's
 * {@code app-auth-tokens} and the {@code sub-merchants} of its clients (else pass {@code --sub-merchant}); an Alipay
 * channel with {@code alipay-root-cert} and {@code app-cert} is in certificate mode, and {@code alipay-private-key}
 * is then the key inside {@code alipay-public-key}'s certificate.
 *
 * Keys may carry the {@code %dev.} profile prefix; keys of other profiles are ignored. Names may be quoted or not.
 */
public record ChannelTable(Map<String, Channel> channels, Map<String, Client> clients) {

    private static final Pattern CHANNEL_KEY = Pattern.compile("paynotify\\.channels\\.(\"[^\"]+\"|[^.\"]+)\\.(.+)");
    private static final Pattern CLIENT_KEY = Pattern.compile("paynotify\\.clients\\.(\"[^\"]+\"|[^.\"]+)\\.(.+)");
    private static final Pattern PLATFORM_KEY = Pattern.compile("platform-keys\\.(\"[^\"]+\"|[^.\"]+)");
    private static final Pattern AUTH_TOKEN_KEY = Pattern.compile("app-auth-tokens\\.(\"[^\"]+\"|[^.\"]+)");

    public Optional<Channel> channel(String name) {
        return Optional.ofNullable(channels.get(name));
    }

    /** The client to register orders on {@code channel} with: {@code clientId} if given, else the first allowed. */
    public Optional<Client> clientFor(String channel, String clientId) {
        if (clientId != null) {
            return Optional.ofNullable(clients.get(clientId));
        }
        return clients.values().stream()
                .filter(c -> c.channels().contains(channel))
                .sorted((a, b) -> a.id().compareTo(b.id()))
                .findFirst();
    }

    /** Reads a channels file. */
    public static ChannelTable load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        Map<String, Map<String, String>> channelKeys = new TreeMap<>();
        Map<String, Map<String, String>> clientKeys = new TreeMap<>();
        for (String rawKey : p.stringPropertyNames()) {
            String key = rawKey;
            if (key.startsWith("%dev.")) {
                key = key.substring("%dev.".length());
            } else if (key.startsWith("%")) {
                continue;
            }
            Matcher ch = CHANNEL_KEY.matcher(key);
            Matcher cl = CLIENT_KEY.matcher(key);
            if (ch.matches()) {
                channelKeys
                        .computeIfAbsent(unquote(ch.group(1)), n -> new LinkedHashMap<>())
                        .put(ch.group(2), p.getProperty(rawKey).trim());
            } else if (cl.matches()) {
                clientKeys
                        .computeIfAbsent(unquote(cl.group(1)), n -> new LinkedHashMap<>())
                        .put(cl.group(2), p.getProperty(rawKey).trim());
            }
        }
        Map<String, Channel> channels = new LinkedHashMap<>();
        for (var e : channelKeys.entrySet()) {
            channels.put(e.getKey(), withAccountMode(channel(e.getKey(), e.getValue(), file.getParent()), e.getValue(), clientKeys));
        }
        Map<String, Client> clients = new LinkedHashMap<>();
        for (var e : clientKeys.entrySet()) {
            String secret = e.getValue().get("secret");
            if (secret == null) {
                continue;
            }
            List<String> allowed = list(e.getValue().getOrDefault("channels", ""));
            clients.put(e.getKey(), new Client(e.getKey(), list(secret).get(0), allowed));
        }
        return new ChannelTable(channels, clients);
    }

    /**
     * The channel's {@code mode}, its certificate mode, and the sub-merchants the file names: an ISV channel's
     * {@code app-auth-tokens} keys, then the {@code sub-merchants} of the clients allowed on it, in file order.
     */
    private static Channel withAccountMode(
            Channel c, Map<String, String> k, Map<String, Map<String, String>> clientKeys) {
        Channel.Mode mode;
        try {
            mode = Channel.Mode.parse(k.get("mode"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("channel " + c.name() + ": mode must be direct, partner or isv");
        }
        List<String> subs = new ArrayList<>();
        for (String key : k.keySet()) {
            Matcher m = AUTH_TOKEN_KEY.matcher(key);
            if (m.matches()) {
                subs.add(unquote(m.group(1)));
            }
        }
        for (Map<String, String> client : clientKeys.values()) {
            if (list(client.getOrDefault("channels", "")).contains(c.name())) {
                for (String sub : list(client.getOrDefault("sub-merchants", ""))) {
                    if (!subs.contains(sub)) {
                        subs.add(sub);
                    }
                }
            }
        }
        boolean certificateMode = k.containsKey("alipay-root-cert") && k.containsKey("app-cert");
        return new Channel(
                c.name(),
                c.provider(),
                c.appId(),
                c.mchId(),
                c.apiKey(),
                c.signTypes(),
                c.apiV3Key(),
                c.platformSerial(),
                c.platformKey(),
                c.alipayKey(),
                mode == Channel.Mode.ISV ? null : c.sellerId(),
                mode,
                mode == Channel.Mode.DIRECT ? List.of() : subs,
                certificateMode);
    }

    private static Channel channel(String name, Map<String, String> k, Path baseDir) {
        String providerValue = required(name, k, "provider");
        Provider provider;
        try {
            provider = Provider.parse(providerValue);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "channel " + name + ": provider must be WECHATPAY_V2, WECHATPAY_V3 or ALIPAY");
        }
        String appId = list(required(name, k, "app-id")).get(0);
        return switch (provider) {
            case WECHATPAY_V2 ->
                new Channel(
                        name,
                        provider,
                        appId,
                        required(name, k, "mch-id"),
                        list(required(name, k, "api-key")).get(0),
                        list(k.getOrDefault("sign-types", "MD5")),
                        null,
                        null,
                        null,
                        null,
                        null);
            case WECHATPAY_V3 -> {
                PrivateKey key = privateKey(name, k, "platform-private-key", baseDir);
                yield new Channel(
                        name,
                        provider,
                        appId,
                        required(name, k, "mch-id"),
                        null,
                        List.of(),
                        required(name, k, "api-v3-key"),
                        platformSerial(name, k, key),
                        key,
                        null,
                        null);
            }
            case ALIPAY ->
                new Channel(
                        name,
                        provider,
                        appId,
                        null,
                        null,
                        List.of(),
                        null,
                        null,
                        null,
                        privateKey(name, k, "alipay-private-key", baseDir),
                        k.getOrDefault("seller-id", "2088000000000001"));
        };
    }

    /**
     * The serial to send: {@code platform-serial} if set, else the one of the channel's {@code platform-keys} whose
     * public key is the half of the private key, else the only one.
     */
    private static String platformSerial(String name, Map<String, String> k, PrivateKey key) {
        if (k.containsKey("platform-serial")) {
            return k.get("platform-serial");
        }
        List<String> serials = new ArrayList<>();
        for (var e : k.entrySet()) {
            Matcher m = PLATFORM_KEY.matcher(e.getKey());
            if (m.matches()) {
                String serial = unquote(m.group(1));
                serials.add(serial);
                if (isHalfOf(e.getValue(), key)) {
                    return serial;
                }
            }
        }
        if (serials.size() == 1) {
            return serials.get(0);
        }
        throw new IllegalArgumentException("channel " + name + ": set platform-serial (no single platform-keys entry"
                + " matches platform-private-key)");
    }

    private static boolean isHalfOf(String publicKeyText, PrivateKey key) {
        try {
            PublicKey pub = Pem.publicKey(publicKeyText);
            return pub instanceof RSAPublicKey rsa
                    && key instanceof RSAPrivateCrtKey crt
                    && rsa.getModulus().equals(crt.getModulus());
        } catch (IllegalArgumentException e) {
            return false; // a certificate, not a bare key: platform-serial must name it
        }
    }

    private static PrivateKey privateKey(String name, Map<String, String> k, String keyName, Path baseDir) {
        String value = required(name, k, keyName);
        try {
            if (value.startsWith("file:")) {
                Path path = Path.of(value.substring("file:".length()));
                if (!path.isAbsolute() && baseDir != null) {
                    path = baseDir.resolve(path);
                }
                value = Files.readString(path, StandardCharsets.US_ASCII);
            }
            return Pem.privateKey(value);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "channel " + name + ": " + keyName + " is not a readable RSA private key");
        }
    }

    private static String required(String name, Map<String, String> k, String key) {
        String value = k.get(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("channel " + name + ": " + key + " is missing");
        }
        return value;
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1) : name;
    }
}
