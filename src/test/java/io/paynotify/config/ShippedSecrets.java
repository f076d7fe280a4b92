package io.paynotify.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What this repository ships in the open, read from the files themselves: the key files of {@code simulator/keys/}
 * and the {@code %dev.} lines of {@code src/main/resources/application.properties} (tests run in the project
 * directory). For the tests of {@link PublishedSecrets} and the prod profile's checks.
 */
final class ShippedSecrets {

    static final Path KEYS = Path.of("simulator", "keys");
    static final Path PROPERTIES = Path.of("src", "main", "resources", "application.properties");

    /** How a {@code %dev.paynotify.*} key's value is compared with what the prod profile refuses. */
    enum Kind {
        /** A secret compared as text: API keys, client secrets, admin tokens. */
        TEXT,
        /** A {@code whsec_} webhook secret: its text and the HMAC key it decodes to. */
        WEBHOOK,
        /** An RSA key, public or private: its modulus. */
        RSA,
        /** Not a secret (ids, URLs, switches, schedules). */
        NOT_SECRET
    }

    /** The last segment of each non-secret {@code paynotify.*} key; anything else unknown makes the tests fail. */
    private static final Set<String> NOT_SECRET = Set.of(
            "provider",
            "app-id",
            "mch-id",
            "sign-types",
            "seller-id",
            "query-enabled",
            "statements-enabled",
            "api-base-url",
            "merchant-serial",
            "channels",
            "webhook-url",
            "allow-loopback",
            "retry-schedule",
            "lease",
            "retention",
            "schedule",
            "max-rate",
            "mode");

    private ShippedSecrets() {}

    /** The kind of a {@code paynotify.*} key (without its profile), or null when this class does not know it. */
    static Kind kind(String key) {
        if (key.contains(".platform-keys.")
                || key.endsWith(".alipay-public-key")
                || key.endsWith(".merchant-private-key")
                || key.endsWith(".app-cert")
                || key.endsWith(".alipay-root-cert")) {
            return Kind.RSA;
        }
        if (key.endsWith(".webhook-secret")) {
            return Kind.WEBHOOK;
        }
        if (key.contains(".app-auth-tokens.")
                || key.endsWith(".api-key")
                || key.endsWith(".api-v3-key")
                || key.endsWith(".secret")
                || key.equals("paynotify.admin.tokens")) {
            return Kind.TEXT;
        }
        String last = key.substring(key.lastIndexOf('.') + 1);
        return NOT_SECRET.contains(last) ? Kind.NOT_SECRET : null;
    }

    /** Every {@code %dev.paynotify.*} line of application.properties, by key without {@code %dev.}, sorted. */
    static Map<String, String> devPaynotify() {
        var file = new Properties();
        try (InputStream in = Files.newInputStream(PROPERTIES)) {
            file.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var dev = new TreeMap<String, String>();
        for (String key : file.stringPropertyNames()) {
            if (key.startsWith("%dev.paynotify.")) {
                dev.put(key.substring("%dev.".length()), file.getProperty(key));
            }
        }
        return dev;
    }

    /** The dev profile's value of that key (without {@code %dev.}). */
    static String dev(String key) {
        String value = devPaynotify().get(key);
        if (value == null) {
            throw new AssertionError(key + " is not in the dev profile of " + PROPERTIES);
        }
        return value;
    }

    /** Every file in simulator/keys/, sorted. */
    static List<Path> keyFiles() {
        try (Stream<Path> files = Files.list(KEYS)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of one file of simulator/keys/. */
    static String keyFile(String name) {
        try {
            return Files.readString(KEYS.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base64 inside a PEM file, without armour or line breaks: the same key, spelled as bare base64. */
    static String bareBase64(String pem) {
        return pem.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s+", "");
    }

    /** A dev key pair of simulator/keys from its two files, e.g. {@code pair("wechatpay-v3-dev-platform")}. */
    static KeyPair pair(String prefix) {
        try {
            KeyFactory f = KeyFactory.getInstance("RSA");
            PublicKey pub = f.generatePublic(
                    new X509EncodedKeySpec(Base64.getDecoder().decode(bareBase64(keyFile(prefix + "-public.pem")))));
            PrivateKey priv = f.generatePrivate(
                    new PKCS8EncodedKeySpec(Base64.getDecoder().decode(bareBase64(keyFile(prefix + "-private.pem")))));
            return new KeyPair(pub, priv);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
