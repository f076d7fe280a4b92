package io.paynotify.config;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

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
            "114329a7a9f3c460434d5079bd2eff1b35146ac906d051eed81e7e813c1782ab",
            // %dev. WeChat Pay v2 api-key of wx-sp-dev (partner)
            "ba66a92165770424f504023cf588e276fe9dacfa7fb5d058efb0d7188379808a",
            // %dev. WeChat Pay v3 api-v3-key of wx3-sp-dev (partner)
            "059089d423a9d0ed2f0899f0493f420174a0f4cbe60cffdfe37f66c4898e8b1d",
            // %dev. app-auth-tokens of ali-isv-dev, merchants 2021000000000021 and 2021000000000022
            "89d885e268dd187a0933dcc8e10de93cc584284404fff9463896fa990243f090",
            "45144db265865d6d983956be78ef9e2924ee337183fbe88084a982157bbe8e0d");

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
            "92eb92a46203c476a82084d16e13156775aa83b1890dbb6b8c2c961d798683ad",
            // wechatpay-v3-dev-sp-platform-private.pem, wechatpay-v3-dev-sp-platform-public.pem
            "4579cadb2f362957f1488b60e68d497d87ba33d094824b2ed3ffbc1896d1da57",
            // wechatpay-v3-dev-sp-merchant-private.pem, wechatpay-v3-dev-sp-merchant-public.pem
            "db37ec9db0596cb8f0982ccca31175774c8324f12b280a9769b5df157fa5257b",
            // alipay-isv-dev-private.pem, alipay-isv-dev-public.pem
            "5f3c1a0b92c501dd52ba2c914400790f0b362465a1108b318a525a4217ac2903",
            // alipay-isv-dev-app-private.pem, alipay-isv-dev-app-public.pem
            "1a0c4a5480a2688607a5f6b526095d17e16f3f4b735f1be85111f6b80b0728e6",
            // alipay-cert-dev-private.pem, alipay-cert-dev-public.pem, the leaf of alipay-cert-dev-alipay.crt (and of
            // alipay-cert-dev-alipay-reissued.crt)
            "db682a205aac4cf882845161af8ab5d00987db3f882cae8562235bb73b5f0d7d",
            // alipay-cert-dev-app-private.pem, alipay-cert-dev-app-public.pem, the leaf of alipay-cert-dev-app.crt
            "3596cd7e46ca420534b57c3dea60b013796b9baa3425bd3e1dc1071813637f8d",
            // the RSA root of alipay-cert-dev-root.crt: its private key was thrown away when the dev PKI was issued,
            // but a trust anchor everyone has a copy of has no place in production either
            "1a4eb6f86743e52c4b1801b5520cb058afd164b3e7d1a9f44495de39e92be752");

    /** One PEM certificate of a file that may hold several. */
    private static final Pattern CERTIFICATE =
            Pattern.compile("-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\\s]*-----END CERTIFICATE-----");

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
     * True when the text is an RSA key (public or private, PEM or bare base64, a certificate, or a PEM file of several
     * certificates one of which holds such a key) of a published key pair; false for anything else, including text that is no key at all (the provider's parser reports that).
     */
    static boolean rsaKey(String text) {
        if (text != null && CERTIFICATE.matcher(text).results().count() > 1) {
            // a chain file or a root bundle (Alipay's certificate mode): published when any of its certificates is
            return CERTIFICATE.matcher(text).results().anyMatch(m -> rsaKey(m.group()));
        }
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
