package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.Pem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;

/** The merchants of paynotify's dev profile, with the dev keys from {@code simulator/keys} (public, dev-only). */
final class DevMerchants {

    /** Where the pom packages {@code simulator/keys/*.pem} and {@code *.crt}. */
    static final String KEY_DIR = "io/paynotify/simulator/devkeys/";

    static final String WECHAT_V2_MCH_ID = "1900000001";
    static final String WECHAT_V2_APP_ID = "wxdevapp000000001";
    static final String WECHAT_V2_API_KEY = "devdevdevdevdevdevdevdevdevdev32";
    static final String WECHAT_V3_MCH_ID = "1900000003";
    static final String WECHAT_V3_APP_ID = "wxdevapp000000003";
    static final String WECHAT_V3_MERCHANT_SERIAL = "DEV0000000000000000000000000000000000MCH";
    static final String WECHAT_V3_PLATFORM_SERIAL = "PUB_KEY_ID_0000000000000000000000000000DEV1";
    static final String ALIPAY_APP_ID = "2021000000000001";

    // The account-mode dev channels (CONTRACT §10): wx-sp-dev, wx3-sp-dev, ali-isv-dev, ali-cert-dev.
    /** wx-sp-dev: the v2 service provider and its sub-merchants ({@code sub_mch_id}). */
    static final String WECHAT_V2_SP_MCH_ID = "1900000101";

    static final String WECHAT_V2_SP_APP_ID = "wxdevsp0000000001";
    static final String WECHAT_V2_SP_API_KEY = "devSPdevSPdevSPdevSPdevSPdevSP32";
    static final List<String> WECHAT_V2_SP_SUB_MERCHANTS = List.of("1900000201", "1900000202");
    /** wx3-sp-dev: the v3 service provider and its sub-merchants ({@code sub_mchid}). */
    static final String WECHAT_V3_SP_MCH_ID = "1900000103";

    static final String WECHAT_V3_SP_APP_ID = "wxdevsp0000000003";
    static final String WECHAT_V3_SP_MERCHANT_SERIAL = "DEVSP00000000000000000000000000000003MCH";
    static final String WECHAT_V3_SP_PLATFORM_SERIAL = "PUB_KEY_ID_00000000000000000000000000DEVSP3";
    static final List<String> WECHAT_V3_SP_SUB_MERCHANTS = List.of("1900000203", "1900000204");
    /** ali-isv-dev: the ISV application and the app_auth_token of each authorising merchant ({@code auth_app_id}). */
    static final String ALIPAY_ISV_APP_ID = "2021000000000002";

    static final Map<String, String> ALIPAY_ISV_TOKENS = Map.of(
            "2021000000000021", "202601BBdevisvtokenmerchantA0000000021",
            "2021000000000022", "202601BBdevisvtokenmerchantB0000000022");
    /** ali-cert-dev: the certificate-mode app and its three files (and Alipay's re-issued certificate). */
    static final String ALIPAY_CERT_APP_ID = "2021000000000003";

    static final String ALIPAY_CERT_ROOT = KEY_DIR + "alipay-cert-dev-root.crt";
    static final String ALIPAY_CERT_APP_CERT = KEY_DIR + "alipay-cert-dev-app.crt";
    static final String ALIPAY_CERT_ALIPAY_CERT = KEY_DIR + "alipay-cert-dev-alipay.crt";
    static final String ALIPAY_CERT_ALIPAY_REISSUED = KEY_DIR + "alipay-cert-dev-alipay-reissued.crt";



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
                // the service providers answer for their sub-merchants with their own keys; the ISV application
                // and the certificate-mode app as Alipay apps of their own
                .wechatV2(WECHAT_V2_SP_MCH_ID, WECHAT_V2_SP_APP_ID, WECHAT_V2_SP_API_KEY)
                .wechatV3(
                        WECHAT_V3_SP_MCH_ID,
                        WECHAT_V3_SP_APP_ID,
                        WECHAT_V3_SP_MERCHANT_SERIAL,
                        publicKeyResource(KEY_DIR + "wechatpay-v3-dev-sp-merchant-public.pem"),
                        Map.of(
                                WECHAT_V3_SP_PLATFORM_SERIAL,
                                privateKeyResource(KEY_DIR + "wechatpay-v3-dev-sp-platform-private.pem")),
                        WECHAT_V3_SP_PLATFORM_SERIAL)
                .alipay(
                        ALIPAY_ISV_APP_ID,
                        publicKeyResource(KEY_DIR + "alipay-isv-dev-app-public.pem"),
                        privateKeyResource(KEY_DIR + "alipay-isv-dev-private.pem"))
                .alipay(
                        ALIPAY_CERT_APP_ID,
                        publicKeyResource(KEY_DIR + "alipay-cert-dev-app-public.pem"),
                        privateKeyResource(KEY_DIR + "alipay-cert-dev-private.pem"))
                .wechatV2SubMerchants(WECHAT_V2_SP_MCH_ID, WECHAT_V2_SP_SUB_MERCHANTS)
                .wechatV3SubMerchants(WECHAT_V3_SP_MCH_ID, WECHAT_V3_SP_SUB_MERCHANTS)
                .alipayIsvTokens(ALIPAY_ISV_APP_ID, ALIPAY_ISV_TOKENS)
                .alipayCertMode(
                        ALIPAY_CERT_APP_ID,
                        resource(ALIPAY_CERT_APP_CERT),
                        resource(ALIPAY_CERT_ROOT),
                        resource(ALIPAY_CERT_ALIPAY_CERT),
                        resource(ALIPAY_CERT_ALIPAY_REISSUED))
                .build();
    }

    static PublicKey publicKeyResource(String path) {
        return Pem.publicKey(resource(path));
    }

    static PrivateKey privateKeyResource(String path) {
        return Pem.privateKey(resource(path));
    }

    /** A dev key's text from the class path (this class's loader, else the thread's). */
    static String resource(String path) {
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
