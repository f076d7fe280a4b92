package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.simulator.gateway.GatewayConfig.AlipayApp;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV2Merchant;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV3Merchant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link GatewayConfig#dev()} and the builder's checks. */
class GatewayConfigTest {

    private static final String KEYS = "io/paynotify/simulator/devkeys/";

    @Test
    void dev_serves_the_dev_profile_merchants_with_the_keys_from_the_classpath() {
        GatewayConfig dev = GatewayConfig.dev();

        assertEquals(8090, dev.port());
        WechatV2Merchant v2 = dev.wechatV2("1900000001").orElseThrow();
        assertEquals("wxdevapp000000001", v2.appId());
        assertEquals("devdevdevdevdevdevdevdevdevdev32", v2.apiKey());
        WechatV3Merchant v3 = dev.wechatV3("1900000003").orElseThrow();
        assertEquals("wxdevapp000000003", v3.appId());
        assertEquals("DEV0000000000000000000000000000000000MCH", v3.merchantSerial());
        assertEquals("PUB_KEY_ID_0000000000000000000000000000DEV1", v3.defaultPlatformSerial());
        AlipayApp alipay = dev.alipay("2021000000000001").orElseThrow();

        // each key is the half of the pair whose other half the dev profile (or a verifier) holds
        assertPair(
                DevMerchants.privateKeyResource(KEYS + "wechatpay-v3-dev-merchant-private.pem"),
                v3.merchantPublicKey());
        assertPair(
                v3.platformKeys().get(v3.defaultPlatformSerial()),
                DevMerchants.publicKeyResource(KEYS + "wechatpay-v3-dev-platform-public.pem"));
        assertPair(DevMerchants.privateKeyResource(KEYS + "alipay-dev-app-private.pem"), alipay.appPublicKey());
        assertPair(alipay.alipayPrivateKey(), DevMerchants.publicKeyResource(KEYS + "alipay-dev-public.pem"));
    }

    @Test
    void the_builder_refuses_a_merchant_twice_and_a_default_serial_it_does_not_hold() {
        TestKeys keys = new TestKeys();
        GatewayConfig.Builder builder = GatewayConfig.builder().wechatV2("1", "wx1", "k");

        assertThrows(IllegalArgumentException.class, () -> builder.wechatV2("1", "wx2", "k"));
        assertThrows(
                IllegalArgumentException.class,
                () -> builder.wechatV3(
                        "3", "wx3", "S", keys.v3Merchant.getPublic(), Map.of("A", keys.v3Platform.getPrivate()), "B"));
        assertThrows(IllegalArgumentException.class, () -> builder.port(70000));
    }

    private static void assertPair(java.security.PrivateKey privateKey, java.security.PublicKey publicKey) {
        String signature = RawRequests.rsaSign(privateKey, "pair?");
        assertTrue(RawRequests.rsaVerify(publicKey, "pair?", signature), "the keys are not a pair");
    }
}
