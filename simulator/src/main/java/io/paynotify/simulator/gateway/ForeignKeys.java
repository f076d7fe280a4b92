package io.paynotify.simulator.gateway;

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
                    rsa = Rsa.generatePrivateKey();
                }
                key = rsa;
            }
        }
        return key;
    }

    String wechatV2ApiKey() {
        return wechatV2ApiKey;
    }
}
