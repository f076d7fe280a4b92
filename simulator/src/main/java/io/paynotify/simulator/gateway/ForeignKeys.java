package io.paynotify.simulator.gateway;

import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;

/** Keys no merchant configured, for {@link Fault#BAD_SIGNATURE}: made once per gateway, when first needed. */
final class ForeignKeys {

    private volatile PrivateKey rsa;
    private final String wechatV2ApiKey = Nonces.alphanumeric(32);

    /** An RSA key generated for this gateway (generating one takes a moment, so it is kept). */
    PrivateKey rsa() {
        PrivateKey key = rsa;
        if (key == null) {
            synchronized (this) {
                if (rsa == null) {
                    rsa = generateRsaKey();
                }
                key = rsa;
            }
        }
        return key;
    }

    String wechatV2ApiKey() {
        return wechatV2ApiKey;
    }

    private static PrivateKey generateRsaKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair().getPrivate();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate an RSA key: " + e.getMessage(), e);
        }
    }
}
