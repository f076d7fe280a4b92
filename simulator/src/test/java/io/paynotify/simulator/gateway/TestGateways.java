package io.paynotify.simulator.gateway;

import java.io.IOException;
import java.util.Map;

/** The merchants the tests configure, and gateways serving them on a free port. */
final class TestGateways {

    static final String V2_MCH_ID = "1230000109";
    static final String V2_APP_ID = "wxd678efh567hg6787";
    static final String V2_API_KEY = "192006250b4c09247ec02edce69f6a2d";
    static final String V3_MCH_ID = "1900009191";
    static final String V3_APP_ID = "wxd678efh567hg6999";
    static final String V3_MERCHANT_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
    static final String V3_PLATFORM_SERIAL = "PUB_KEY_ID_0114232134912410000000000000TEST";
    static final String V3_OTHER_PLATFORM_SERIAL = "PUB_KEY_ID_0114232134912410000000000000OTHR";
    static final String ALIPAY_APP_ID = "2021000122600000";

    private TestGateways() {}

    static GatewayConfig config(TestKeys keys) {
        return GatewayConfig.builder()
                .port(0)
                .wechatV2(V2_MCH_ID, V2_APP_ID, V2_API_KEY)
                .wechatV3(
                        V3_MCH_ID,
                        V3_APP_ID,
                        V3_MERCHANT_SERIAL,
                        keys.v3Merchant.getPublic(),
                        Map.of(
                                V3_PLATFORM_SERIAL, keys.v3Platform.getPrivate(),
                                V3_OTHER_PLATFORM_SERIAL, keys.v3OtherPlatform.getPrivate()),
                        V3_PLATFORM_SERIAL)
                .alipay(ALIPAY_APP_ID, keys.alipayApp.getPublic(), keys.alipayPlatform.getPrivate())
                .build();
    }

    static Gateway start(TestKeys keys) {
        try {
            return Gateway.start(config(keys));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a gateway: " + e.getMessage(), e);
        }
    }
}
