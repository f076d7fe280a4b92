package io.paynotify.config;

import static io.paynotify.config.ChannelRegistryTest.build;
import static io.paynotify.config.ChannelRegistryTest.failure;
import static io.paynotify.config.ChannelRegistryTest.validV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestKeys;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The start-time rules of the account modes (docs/operations.md "Start-up checks"): the mode fits the provider, the
 * ISV-only and per-mode keys are where they belong, and a client's {@code sub-merchants} have the shape of its
 * channels' sub-merchant ids. Each refusal names the key, never a value.
 */
@Tag("unit")
class AccountModeConfigTest {

    static Map<String, String> isv() {
        var m = validV2();
        m.put("paynotify.channels.ali-isv.provider", "ALIPAY");
        m.put("paynotify.channels.ali-isv.mode", "isv");
        m.put("paynotify.channels.ali-isv.app-id", "2021000000000900");
        m.put("paynotify.channels.ali-isv.alipay-public-key", TestKeys.publicBase64(TestKeys.ALIPAY));
        return m;
    }

    @Test
    void theModeIsDirectUnlessSetAndMustFitTheProvider() {
        var props = validV2();
        assertEquals(
                AccountMode.DIRECT,
                build(props).channel("wx-main").orElseThrow().mode());
        props.put("paynotify.channels.wx-main.mode", "partner");
        assertEquals(
                AccountMode.PARTNER,
                build(props).channel("wx-main").orElseThrow().mode());
        props.put("paynotify.channels.wx-main.mode", "isv");
        String msg = failure(props);
        assertTrue(msg.contains("paynotify.channels.\"wx-main\".mode does not fit the provider"), msg);
        props.put("paynotify.channels.wx-main.mode", "Partner");
        assertTrue(failure(props).contains("\"wx-main\".mode"));

        var alipay = isv();
        assertEquals(
                AccountMode.ISV, build(alipay).channel("ali-isv").orElseThrow().mode());
        alipay.put("paynotify.channels.ali-isv.mode", "partner");
        assertTrue(failure(alipay).contains("\"ali-isv\".mode does not fit the provider"));
    }

    @Test
    void appAuthTokensAreForIsvChannelsAndKeyedByTheirAuthAppId() {
        var props = isv();
        props.put("paynotify.channels.ali-isv.app-auth-tokens.\"2021000000000901\"", "token-a-secret");
        build(props);
        props.put("paynotify.channels.ali-isv.app-auth-tokens.\"merchant-a\"", "token-b-secret");
        String msg = failure(props);
        assertTrue(msg.contains("\"ali-isv\".app-auth-tokens must be keyed by auth_app_id"), msg);
        assertFalse(msg.contains("token-b-secret"));

        var direct = validV2();
        direct.put("paynotify.channels.wx-main.app-auth-tokens.\"2021000000000901\"", "token-a-secret");
        assertTrue(failure(direct).contains("\"wx-main\".app-auth-tokens is only for mode=isv"));
    }

    @Test
    void aSellerIdIsRefusedOnAnIsvChannel() {
        var props = isv();
        props.put("paynotify.channels.ali-isv.seller-id", "2088000000000001");
        assertTrue(failure(props).contains("\"ali-isv\".seller-id is not for mode=isv"));
    }

    @Test
    void subMerchantsHaveTheShapeOfTheClientsChannelsAndNeedSuchAChannel() {
        var props = isv();
        props.put("paynotify.channels.wx-main.mode", "partner");
        props.put("paynotify.clients.shop.secret", "s".repeat(32));
        props.put("paynotify.clients.shop.channels", "wx-main,ali-isv");
        props.put("paynotify.clients.shop.sub-merchants", "1900000901,2021000000000901");
        assertEquals(
                Set.of("1900000901", "2021000000000901"),
                build(props).client("shop").orElseThrow().subMerchants());

        props.put("paynotify.clients.shop.sub-merchants", "1900000901,sub-a");
        String msg = failure(props);
        assertTrue(msg.contains("\"shop\".sub-merchants has an id of no shape its channels take"), msg);
        assertFalse(msg.contains("sub-a"));

        props.put("paynotify.clients.shop.sub-merchants", "0123");
        assertTrue(failure(props).contains("\"shop\".sub-merchants"));

        var direct = validV2();
        direct.put("paynotify.clients.shop.secret", "s".repeat(32));
        direct.put("paynotify.clients.shop.channels", "wx-main");
        direct.put("paynotify.clients.shop.sub-merchants", "1900000901");
        assertTrue(
                failure(direct).contains("\"shop\".sub-merchants is set on a client with no partner or isv channel"));
    }

    @Test
    void aClientMayUseItsSubMerchantsOrdersOnlyWhenLimited() {
        var limited = new ClientCredentials("c", java.util.List.of(), Set.of("sp"), null, Set.of("1900000901"));
        assertTrue(limited.mayUse("sp", "1900000901"));
        assertFalse(limited.mayUse("sp", "1900000902"));
        assertFalse(limited.mayUse("other", "1900000901"));
        assertTrue(limited.mayUse("sp", null), "an order without a sub-merchant (a direct channel's)");
        var all = new ClientCredentials("c", java.util.List.of(), Set.of("sp"), null, Set.of());
        assertTrue(all.mayUse("sp", "1900000902"));
    }
}
