package io.paynotify.simulator.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** RSA keys from PEM text: {@code PUBLIC KEY} (X.509 SubjectPublicKeyInfo) and {@code PRIVATE KEY} (PKCS#8). */
final class Pem {

    private Pem() {}

    static PublicKey publicKey(String pem) {
        try {
            return rsa().generatePublic(new X509EncodedKeySpec(der(pem, "PUBLIC KEY")));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an RSA public key: " + e.getMessage(), e);
        }
    }

    static PrivateKey privateKey(String pem) {
        try {
            return rsa().generatePrivate(new PKCS8EncodedKeySpec(der(pem, "PRIVATE KEY")));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an RSA PKCS#8 private key: " + e.getMessage(), e);
        }
    }

    static PublicKey publicKeyResource(String path) {
        return publicKey(resource(path));
    }

    static PrivateKey privateKeyResource(String path) {
        return privateKey(resource(path));
    }

    /** PEM text of a public key, for printing. */
    static String text(PublicKey key) {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded());
        return "-----BEGIN PUBLIC KEY-----\n" + base64 + "\n-----END PUBLIC KEY-----\n";
    }

    private static byte[] der(String pem, String type) {
        String begin = "-----BEGIN " + type + "-----";
        String end = "-----END " + type + "-----";
        int from = pem.indexOf(begin);
        int to = pem.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("no " + begin + " … " + end + " block");
        }
        String body = pem.substring(from + begin.length(), to).replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }

    private static String resource(String path) {
        ClassLoader loader = Pem.class.getClassLoader();
        InputStream in = loader == null ? null : loader.getResourceAsStream(path);
        if (in == null && Thread.currentThread().getContextClassLoader() != null) {
            in = Thread.currentThread().getContextClassLoader().getResourceAsStream(path);
        }
        if (in == null) {
            throw new IllegalStateException("dev key not on the classpath: " + path);
        }
        try (InputStream stream = in) {
            return new String(stream.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    private static KeyFactory rsa() throws GeneralSecurityException {
        return KeyFactory.getInstance("RSA");
    }
}
