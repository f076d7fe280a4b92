package io.paynotify.simulator.trigger;

import io.paynotify.simulator.sign.Pem;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;

/** The dev channels and their public halves, and keys that are not theirs, for tests. */
final class TestKeys {

    static final ChannelTable DEV = DevProfile.table();
    static final Channel WX = DEV.channel("wx-dev").orElseThrow();
    static final Channel WX3 = DEV.channel("wx3-dev").orElseThrow();
    static final Channel ALI = DEV.channel("ali-dev").orElseThrow();

    private TestKeys() {}

    static PublicKey platformPublicKey() {
        return Pem.publicKey(DevKeys.pem("wechatpay-v3-dev-platform-public.pem"));
    }

    /** Alipay's public key as the SDK takes it: bare base64. */
    static String alipayPublicKeyBase64() {
        return bare(DevKeys.pem("alipay-dev-public.pem"));
    }

    static String bare(String pem) {
        return pem.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s", "");
    }

    /** A freshly generated RSA 2048 public key: not the provider's. */
    static PublicKey otherPublicKey() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair().getPublic();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A form body decoded once, as a servlet container hands it to Alipay's SDK. */
    static Map<String, String> form(byte[] body) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : new String(body, StandardCharsets.US_ASCII).split("&")) {
            int eq = pair.indexOf('=');
            params.put(
                    URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }
}
