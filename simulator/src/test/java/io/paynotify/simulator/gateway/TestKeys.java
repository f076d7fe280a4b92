package io.paynotify.simulator.gateway;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

/** RSA key pairs generated at test time (no test key is ever committed), one set per test class. */
final class TestKeys {

    final KeyPair v3Merchant = generate();
    final KeyPair v3Platform = generate();
    final KeyPair v3OtherPlatform = generate();
    final KeyPair alipayApp = generate();
    final KeyPair alipayPlatform = generate();
    final KeyPair stranger = generate();

    static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The DER encoding in Base64, the form the Alipay SDK takes keys in. */
    static String base64(java.security.Key key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }
}
