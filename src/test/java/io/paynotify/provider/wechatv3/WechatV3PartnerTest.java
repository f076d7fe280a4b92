package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.SubMerchant;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.RefundStatus;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WeChat Pay v3 notices of a service provider's channel (docs/api.md "Account modes", {@code mode=partner}): the
 * resource names the provider in {@code sp_appid}/{@code sp_mchid} and the sub-merchant in {@code sub_mchid}
 * ({@code sub_appid}); the provider's keys verify and decrypt them; the provider's ids are step a of
 * ACCOUNT_MISMATCH, the sub-merchant goes to the state machine for step b. A direct channel still refuses them.
 */
@Tag("unit")
class WechatV3PartnerTest {

    static final WechatV3Adapter ADAPTER = new WechatV3Adapter(WechatV3Unit.CLOCK);

    static VerifiedNotification verify(String channel, Delivery d) throws NotifyRejection {
        return ADAPTER.verify(TestChannels.channel(channel), d.raw(WechatV3Unit.RECEIVED_AT));
    }

    static VerifiedNotification accepted(Delivery d) {
        try {
            return verify(TestChannels.WX3_SP, d);
        } catch (NotifyRejection r) {
            throw new AssertionError("refused " + r.getMessage(), r);
        }
    }

    static void assertRefused(Kind kind, Cause cause, String channel, Delivery d) {
        NotifyRejection r = assertThrows(NotifyRejection.class, () -> verify(channel, d), "accepted");
        assertEquals(kind, r.kind(), r.getMessage());
        assertEquals(cause, r.rejectionCause(), r.getMessage());
    }

    static Delivery partner(String eventType, Map<String, Object> resource) {
        return WechatV3Fixtures.partnerSignedAt(WechatV3Fixtures.partnerBody(eventType, resource), WechatV3Unit.NOW);
    }

    static Map<String, Object> payment(String no) {
        return WechatV3Fixtures.partnerTransaction(no, WechatV3Unit.txnId(no), 100, TestChannels.SUB_A);
    }

    @Test
    void aSubMerchantsPaymentIsVerifiedWithTheProvidersKeysAndNamesItsSubMerchant() {
        String no = WechatV3Unit.newOrderNo();
        VerifiedNotification v = accepted(partner("TRANSACTION.SUCCESS", payment(no)));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(no, v.outTradeNo());
        assertEquals(100L, v.amountMinor());
        assertEquals(WechatV3Unit.txnId(no), v.transactionId());
        assertFalse(v.accountMismatch(), "the provider's ids are the channel's");
        assertEquals(new SubMerchant(TestChannels.SUB_A, null), v.subMerchant());
        assertTrue(v.decoded().contains("\"sub_mchid\":\"" + TestChannels.SUB_A + "\""), v.decoded());
    }

    @Test
    void theSubAppIdGoesWithTheSubMerchant() {
        String no = WechatV3Unit.newOrderNo();
        Map<String, Object> r = payment(no);
        r.put("sub_appid", "wxsubapp00000001");
        assertEquals(
                new SubMerchant(TestChannels.SUB_A, "wxsubapp00000001"),
                accepted(partner("TRANSACTION.SUCCESS", r)).subMerchant());
        r.put("sub_appid", "");
        assertEquals(
                new SubMerchant(TestChannels.SUB_A, null),
                accepted(partner("TRANSACTION.SUCCESS", r)).subMerchant(),
                "an empty sub_appid names none");
    }

    @Test
    void aSubMerchantsRefundNoticeCarriesSpMchidAndSubMchidAndNoAppId() {
        String no = WechatV3Unit.newOrderNo();
        VerifiedNotification v = accepted(partner(
                "REFUND.SUCCESS",
                WechatV3Fixtures.partnerRefund(no, WechatV3Unit.txnId(no), 100, 40, TestChannels.SUB_B)));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(RefundStatus.SUCCESS, v.refund().status());
        assertEquals(40L, v.amountMinor());
        assertFalse(v.accountMismatch());
        assertEquals(new SubMerchant(TestChannels.SUB_B, null), v.subMerchant());
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(strings = {"sp_mchid", "sub_mchid", "sp_appid", "out_trade_no"})
    void aPaymentWithoutAnIdOfThePartnerModeIs400BeforeAnyIdsCheck(String field) {
        Map<String, Object> r = payment(WechatV3Unit.newOrderNo());
        r.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, TestChannels.WX3_SP, partner("TRANSACTION.SUCCESS", r));
        r.put(field, "");
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, TestChannels.WX3_SP, partner("TRANSACTION.SUCCESS", r));
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(strings = {"sp_mchid", "sub_mchid"})
    void aRefundWithoutSpMchidOrSubMchidIs400(String field) {
        String no = WechatV3Unit.newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.partnerRefund(no, WechatV3Unit.txnId(no), 100, 40, TestChannels.SUB_A);
        r.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, TestChannels.WX3_SP, partner("REFUND.SUCCESS", r));
    }

    @Test
    void aSubMerchantIdThatIsNotAStringIsMissing() {
        Map<String, Object> r = payment(WechatV3Unit.newOrderNo());
        r.put("sub_mchid", 1900000901L);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, TestChannels.WX3_SP, partner("TRANSACTION.SUCCESS", r));
    }

    @ParameterizedTest(name = "{0} = {1} -> mismatch {2}")
    @CsvSource({
        "sp_appid, " + TestChannels.WX3_SP_APPID + ", false",
        "sp_appid, wxsp3app00000002, true",
        "sp_mchid, 1900000901, true",
        // the direct ids have no place in a partner resource (step a)
        "mchid, " + TestChannels.WX3_SP_MCH + ", true",
        "appid, " + TestChannels.WX3_SP_APPID + ", true",
        // another sub-merchant is not step a: only the order can say whose it is (step b)
        "sub_mchid, " + TestChannels.SUB_B + ", false"
    })
    void theProvidersIdsAreCheckedAgainstTheChannel(String field, String value, boolean mismatch) {
        Map<String, Object> r = payment(WechatV3Unit.newOrderNo());
        r.put(field, value);
        VerifiedNotification v = accepted(partner("TRANSACTION.SUCCESS", r));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(mismatch, v.accountMismatch());
    }

    @Test
    void aRefundIsCheckedOnSpMchidAndOnSpAppidOnlyWhereItCarriesOne() {
        String no = WechatV3Unit.newOrderNo();
        Map<String, Object> r = WechatV3Fixtures.partnerRefund(no, WechatV3Unit.txnId(no), 100, 40, TestChannels.SUB_A);
        r.put("sp_mchid", "1900000999");
        assertTrue(accepted(partner("REFUND.SUCCESS", r)).accountMismatch());
        r.put("sp_mchid", TestChannels.WX3_SP_MCH);
        r.put("sp_appid", "wxother000000001");
        assertTrue(accepted(partner("REFUND.SUCCESS", r)).accountMismatch());
        r.put("sp_appid", TestChannels.WX3_SP_APPID);
        assertFalse(accepted(partner("REFUND.SUCCESS", r)).accountMismatch());
    }

    @Test
    void aNoticeSealedWithAnotherMerchantsApiV3KeyDoesNotDecrypt() {
        // the direct channel's key: a partner channel decrypts with the service provider's key only
        String no = WechatV3Unit.newOrderNo();
        String body = WechatV3Fixtures.body("TRANSACTION.SUCCESS", payment(no));
        assertRefused(
                Kind.UNAUTHENTICATED,
                Cause.DECRYPTION,
                TestChannels.WX3_SP,
                WechatV3Fixtures.partnerSignedAt(body, WechatV3Unit.NOW));
    }

    @Test
    void aDirectChannelRefusesAPartnerShapedNotice() throws NotifyRejection {
        String no = WechatV3Unit.newOrderNo();
        // sealed and signed with the direct channel's own keys, so that only its shape differs
        Map<String, Object> r =
                WechatV3Fixtures.partnerTransaction(no, WechatV3Unit.txnId(no), 100, TestChannels.SUB_A);
        // as WeChat sends it, without the direct mode's mchid/appid: ACCOUNT_MISMATCH (step a), recorded and flagged
        // by the state machine, never a 400 for the direct ids it does not carry
        VerifiedNotification shaped = verify(TestChannels.WX3, WechatV3Unit.signedResource("TRANSACTION.SUCCESS", r));
        assertTrue(shaped.accountMismatch());
        assertEquals(NotifyClass.PAID, shaped.notifyClass());
        assertEquals(no, shaped.outTradeNo());
        assertEquals(WechatV3Unit.txnId(no), shaped.transactionId());
        assertNull(shaped.subMerchant(), "a direct channel has no step b");
        // with the direct ids beside the partner ones: the same
        r.put("mchid", TestChannels.WX3_MCH);
        r.put("appid", TestChannels.WX3_APPID);
        VerifiedNotification v = verify(TestChannels.WX3, WechatV3Unit.signedResource("TRANSACTION.SUCCESS", r));
        assertTrue(v.accountMismatch());
        assertNull(v.subMerchant(), "a direct channel has no step b");
    }

    @ParameterizedTest(name = "only {0}")
    @ValueSource(strings = {"sp_mchid", "sub_mchid"})
    void oneServiceProviderIdIsEnoughForAMismatchOnADirectChannel(String kept) throws NotifyRejection {
        String no = WechatV3Unit.newOrderNo();
        Map<String, Object> r =
                WechatV3Fixtures.partnerTransaction(no, WechatV3Unit.txnId(no), 100, TestChannels.SUB_A);
        r.remove("sp_appid");
        r.remove("sp_mchid".equals(kept) ? "sub_mchid" : "sp_mchid");
        assertTrue(verify(TestChannels.WX3, WechatV3Unit.signedResource("TRANSACTION.SUCCESS", r))
                .accountMismatch());
    }

    @Test
    void aPartnerShapedRefundOnADirectChannelIsAMismatchToo() throws NotifyRejection {
        String no = WechatV3Unit.newOrderNo();
        VerifiedNotification v = verify(
                TestChannels.WX3,
                WechatV3Unit.signedResource(
                        "REFUND.SUCCESS",
                        WechatV3Fixtures.partnerRefund(no, WechatV3Unit.txnId(no), 100, 40, TestChannels.SUB_B)));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertTrue(v.accountMismatch());
    }

    @Test
    void aPartnerShapedNoticeOnADirectChannelStillNeedsItsOtherRequiredFields() {
        String no = WechatV3Unit.newOrderNo();
        Map<String, Object> r =
                WechatV3Fixtures.partnerTransaction(no, WechatV3Unit.txnId(no), 100, TestChannels.SUB_A);
        r.remove("out_trade_no");
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.MISSING_FIELD,
                TestChannels.WX3,
                WechatV3Unit.signedResource("TRANSACTION.SUCCESS", r));
        r.put("out_trade_no", no);
        r.remove("transaction_id");
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.MISSING_FIELD,
                TestChannels.WX3,
                WechatV3Unit.signedResource("TRANSACTION.SUCCESS", r));
    }

    @Test
    void aDirectNoticeOnAPartnerChannelIsMissingItsPartnerIds() {
        String no = WechatV3Unit.newOrderNo();
        String body = WechatV3Fixtures.partnerBody(
                "TRANSACTION.SUCCESS", WechatV3Fixtures.transaction(no, WechatV3Unit.txnId(no), 100));
        assertRefused(
                Kind.BAD_REQUEST,
                Cause.MISSING_FIELD,
                TestChannels.WX3_SP,
                WechatV3Fixtures.partnerSignedAt(body, WechatV3Unit.NOW));
    }

    @Test
    void theServiceProvidersPlatformKeyIsTheOnlyOneThatVerifies() {
        String no = WechatV3Unit.newOrderNo();
        byte[] body =
                WechatV3Fixtures.partnerBody("TRANSACTION.SUCCESS", payment(no)).getBytes(StandardCharsets.UTF_8);
        Delivery byAnother =
                WechatV3Fixtures.signed(body, TestKeys.WECHAT_V3_CERT, TestChannels.WX3_SP_PUBKEY_ID, WechatV3Unit.NOW);
        assertRefused(Kind.UNAUTHENTICATED, Cause.SIGNATURE, TestChannels.WX3_SP, byAnother);
    }
}
