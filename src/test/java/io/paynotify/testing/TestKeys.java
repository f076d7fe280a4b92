package io.paynotify.testing;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * RSA key pairs generated at test time; no real key is ever committed. A pair is generated once per JVM and kept
 * in a system property, so the test resource (which configures the public key) and the tests (which sign with the
 * private key) see the same pair even though Quarkus loads them in different class loaders.
 */
public final class TestKeys {

    /** The Alipay channel's key. */
    public static final String ALIPAY = "alipay";
    /** A second Alipay key, live beside the first as in a rotation. */
    public static final String ALIPAY_NEXT = "alipay-next";
    /** A key no channel knows. */
    public static final String STRANGER = "stranger";
    /** WeChat v3 platform keys (certificate serial and public-key id). */
    public static final String WECHAT_V3_CERT = "wechat-v3-cert";

    public static final String WECHAT_V3_PUBKEY = "wechat-v3-pubkey";

    /** The WeChat v3 merchant API key that signs queries (docs/api.md "Active query"). */
    public static final String WECHAT_V3_MERCHANT = "wechat-v3-merchant";

    /** The Alipay app private key that signs queries (docs/api.md "Active query"). */
    public static final String ALIPAY_APP = "alipay-app";

    private TestKeys() {}

    public static synchronized KeyPair pair(String name) {
        String prop = "pntest.keys." + name;
        String stored = System.getProperty(prop);
        try {
            if (stored == null) {
                KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
                g.initialize(2048);
                KeyPair kp = g.generateKeyPair();
                stored = b64(kp.getPrivate().getEncoded()) + ":"
                        + b64(kp.getPublic().getEncoded());
                System.setProperty(prop, stored);
            }
            String[] parts = stored.split(":");
            KeyFactory f = KeyFactory.getInstance("RSA");
            PrivateKey priv = f.generatePrivate(
                    new PKCS8EncodedKeySpec(Base64.getDecoder().decode(parts[0])));
            PublicKey pub =
                    f.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(parts[1])));
            return new KeyPair(pub, priv);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The bare base64 X.509 SubjectPublicKeyInfo, as Alipay's console shows it. */
    public static String publicBase64(String name) {
        return b64(pair(name).getPublic().getEncoded());
    }

    /** The public key as PEM. */
    public static String publicPem(String name) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes())
                        .encodeToString(pair(name).getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    }

    /** The private key as PEM PKCS#8, as WeChat Pay's {@code apiclient_key.pem}. */
    public static String privatePem(String name) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes())
                        .encodeToString(pair(name).getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    }

    /** The private key as bare base64 PKCS#8, as Alipay's key tool shows an app private key. */
    public static String privateBase64(String name) {
        return b64(pair(name).getPrivate().getEncoded());
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }
}
