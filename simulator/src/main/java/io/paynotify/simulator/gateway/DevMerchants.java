package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.Pem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Map;

/** The merchants of paynotify's dev profile, with the dev keys from {@code simulator/keys} (public, dev-only). */
final class DevMerchants {

    static final String WECHAT_V2_MCH_ID = "1900000001";
    static final String WECHAT_V2_APP_ID = "wxdevapp000000001";
    static final String WECHAT_V2_API_KEY = "devdevdevdevdevdevdevdevdevdev32";
    static final String WECHAT_V3_MCH_ID = "1900000003";
    static final String WECHAT_V3_APP_ID = "wxdevapp000000003";
    static final String WECHAT_V3_MERCHANT_SERIAL = "DEV0000000000000000000000000000000000MCH";
    static final String WECHAT_V3_PLATFORM_SERIAL = "PUB_KEY_ID_0000000000000000000000000000DEV1";
    static final String ALIPAY_APP_ID = "2021000000000001";

    /** Where the pom packages {@code simulator/keys/*.pem}. */
    static final String KEY_DIR = "io/paynotify/simulator/devkeys/";

    private DevMerchants() {}

    static GatewayConfig config(int port) {
        return GatewayConfig.builder()
                .port(port)
                .wechatV2(WECHAT_V2_MCH_ID, WECHAT_V2_APP_ID, WECHAT_V2_API_KEY)
                .wechatV3(
                        WECHAT_V3_MCH_ID,
                        WECHAT_V3_APP_ID,
                        WECHAT_V3_MERCHANT_SERIAL,
                        publicKeyResource(KEY_DIR + "wechatpay-v3-dev-merchant-public.pem"),
                        Map.of(
                                WECHAT_V3_PLATFORM_SERIAL,
                                privateKeyResource(KEY_DIR + "wechatpay-v3-dev-platform-private.pem")),
                        WECHAT_V3_PLATFORM_SERIAL)
                .alipay(
                        ALIPAY_APP_ID,
                        publicKeyResource(KEY_DIR + "alipay-dev-app-public.pem"),
                        privateKeyResource(KEY_DIR + "alipay-dev-private.pem"))
                .build();
    }

    static PublicKey publicKeyResource(String path) {
        return Pem.publicKey(resource(path));
    }

    static PrivateKey privateKeyResource(String path) {
        return Pem.privateKey(resource(path));
    }

    /** A dev key's text from the class path (this class's loader, else the thread's). */
    private static String resource(String path) {
        ClassLoader loader = DevMerchants.class.getClassLoader();
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
}
