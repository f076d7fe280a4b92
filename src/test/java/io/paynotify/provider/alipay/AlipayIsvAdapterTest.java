package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.RawNotify;
import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An ISV channel's notices (docs/api.md "Account modes"): {@code app_id} is the ISV application's (step a), and
 * {@code auth_app_id} names the merchant the notice is checked against (step b, {@code subMerchant}); a notice
 * without it names no merchant at all.
 */
@Tag("unit")
class AlipayIsvAdapterTest {

    static final Channel ISV = TestChannels.channel(TestChannels.ALI_ISV);

    static VerifiedNotification verify(Map<String, String> params) throws Exception {
        byte[] body = AlipayFixtures.body(AlipayFixtures.signed(params, TestKeys.ALIPAY, "RSA2"));
        return new AlipayAdapter().verify(ISV, new RawNotify(ISV.name(), Map.of(), body, Instant.now()));
    }

    static Map<String, String> isvNotice(String authAppId) {
        var p = AlipayFixtures.paid("ISV-ORDER-1", "2026010222001400000000000901", "1.00");
        p.put("app_id", TestChannels.ALI_ISV_APPID);
        p.remove("seller_id");
        if (authAppId == null) {
            p.remove("auth_app_id");
        } else {
            p.put("auth_app_id", authAppId);
        }
        return p;
    }

    @Test
    void theMerchantIsTheAuthAppIdAndAnotherAppIdIsNoMismatchOnAnIsvChannel() throws Exception {
        VerifiedNotification n = verify(isvNotice(TestChannels.AUTH_A));
        assertFalse(n.accountMismatch());
        assertEquals(TestChannels.AUTH_A, n.subMerchant().id());
        assertTrue(n.subMerchant().matches(TestChannels.AUTH_A, null));
        assertFalse(n.subMerchant().matches(TestChannels.AUTH_B, null), "merchant B's order is not A's");
    }

    @Test
    void aNoticeWithoutAuthAppIdMatchesNoOrder() throws Exception {
        VerifiedNotification n = verify(isvNotice(null));
        assertNull(n.subMerchant().id());
        assertFalse(n.subMerchant().matches(TestChannels.AUTH_A, null));
        assertFalse(n.queryWhenUnbound(), "the test channel does not query");
    }

    @Test
    void theAppIdMustStillBeTheIsvApplications() throws Exception {
        var p = isvNotice(TestChannels.AUTH_A);
        p.put("app_id", TestChannels.AUTH_A);
        assertTrue(verify(p).accountMismatch());
    }
}
