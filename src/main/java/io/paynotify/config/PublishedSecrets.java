package io.paynotify.config;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.HexFormat;
import java.util.Set;

/**
 * The keys, secrets and tokens published in this repository, which the prod profile refuses ({@link
 * ProductionChecks}): every key pair of {@code simulator/keys/} and every secret of the {@code %dev.} lines of
 * {@code application.properties}. Only their SHA-256 fingerprints are held here, so the application needs neither
 * the repository nor the secrets at run time. {@code PublishedSecretsTest} reads those files and fails when one of
 * their secrets is missing here.
 */
final class PublishedSecrets {

    /**
     * SHA-256 of each published secret's UTF-8 text (as configured, without surrounding blanks), and of the HMAC key
     * a published {@code whsec_} secret decodes to.
     */
    private static final Set<String> SECRETS = Set.of(
            // %dev. WeChat Pay v2 api-key of wx-dev
            "ff485bf4087ed9bab7a37cb84b6f759a1aba242f918dc1dd9882a15a23b404af",
            // %dev. WeChat Pay v3 api-v3-key of wx3-dev
            "4c8db320de7e6d1e785814baf9765a7dcd33200a37910282cd727ca56e78706a",
            // %dev. secret of client dev-shop
            "eb6e46415cb275b859393e1b16a3702b09e1098805438391df5b7e17a88320b4",
            // %dev. webhook-secret of client dev-shop, as text and as the HMAC key it decodes to
            "80dc4bf8daf9db619786badd6d341a288cc3532c44dd72585ec7e454557dfbfe",
            "7e5c9158d3ece20763383603abe60255c0816a87dbc20a4d0dd5fb1fe7fb149e",
            // %dev. paynotify.admin.tokens
            "114329a7a9f3c460434d5079bd2eff1b35146ac906d051eed81e7e813c1782ab");

    /**
     * SHA-256 of the modulus ({@code BigInteger.toByteArray()}) of each key pair in {@code simulator/keys/}: the
     * public and the private half of a pair share it, however the key is spelled (PEM, bare base64, a certificate).
     */
    private static final Set<String> RSA_MODULI = Set.of(
            // alipay-dev-app-private.pem, alipay-dev-app-public.pem
            "d23c3d66dd44124c6d28a4d0c11ae8d72fc69d9fc34d46707f5bb9b88ad3ebf6",
            // alipay-dev-private.pem, alipay-dev-public.pem
            "14ce86a3f0eeb1fcce2b6a5598eaa9b98f94dea53c07f9ddc892ff0c072972cb",
            // wechatpay-v3-dev-merchant-private.pem, wechatpay-v3-dev-merchant-public.pem
            "d2911b0e049220907c81699364f57377e5c974fe9e2f1155fce9a4b6c968bfd8",
            // wechatpay-v3-dev-platform-private.pem, wechatpay-v3-dev-platform-public.pem
            "92eb92a46203c476a82084d16e13156775aa83b1890dbb6b8c2c961d798683ad");

    private PublishedSecrets() {}

    /** True when this text (blanks around it ignored) is a published secret. */
    static boolean text(String value) {
        return value != null && bytes(value.strip().getBytes(StandardCharsets.UTF_8));
    }

    /** True when these bytes (a secret's text, or a decoded webhook key) are a published secret. */
    static boolean bytes(byte[] value) {
        return SECRETS.contains(sha256(value));
    }

    /**
     * True when the text is an RSA key (public or private, PEM or bare base64, or a certificate) of a published key
     * pair; false for anything else, including text that is no key at all (the provider's parser reports that).
     */
    static boolean rsaKey(String text) {
        BigInteger modulus = modulus(text);
        return modulus != null && RSA_MODULI.contains(sha256(modulus.toByteArray()));
    }

    /** The RSA modulus of a public key, certificate or PKCS#8 private key, or null when the text is none of them. */
    static BigInteger modulus(String text) {
        try {
            return ((RSAPublicKey) KeyParsing.rsaPublicKey(text)).getModulus();
        } catch (IllegalArgumentException | ClassCastException notPublic) {
            try {
                return ((RSAPrivateKey) KeyParsing.rsaPrivateKey(text)).getModulus();
            } catch (IllegalArgumentException | ClassCastException notPrivate) {
                return null;
            }
        }
    }

    private static String sha256(byte[] value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
