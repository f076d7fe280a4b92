package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Unit.accepted;
import static io.paynotify.provider.wechatv2.WechatV2Unit.assertRefused;
import static io.paynotify.provider.wechatv2.WechatV2Unit.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Unit.newTxn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.SubMerchant;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * WeChat Pay v2 notices of a service provider's channel (docs/api.md "Account modes", {@code mode=partner}): the
 * provider in {@code appid}/{@code mch_id}, the sub-merchant in {@code sub_mch_id} (and {@code sub_appid}), signed
 * with the provider's API key over every field, the {@code sub_*} ones included. The provider's ids are step a of
 * ACCOUNT_MISMATCH; the sub-merchant goes to the state machine for step b. A refund notice's outer ids decide
 * nothing on any channel.
 */
@Tag("unit")
class WechatV2PartnerTest {

    static final String SP = TestChannels.WX_SP;

    @Test
    void aSubMerchantsPaymentIsVerifiedWithTheProvidersKeyAndNamesItsSubMerchant() {
        String no = newOrderNo();
        String txn = newTxn();
        VerifiedNotification v = accepted(SP, WechatV2Fixtures.partnerPaid(no, txn, 100, TestChannels.SUB_A));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(no, v.outTradeNo());
        assertEquals(txn, v.transactionId());
        assertFalse(v.accountMismatch());
        assertEquals(new SubMerchant(TestChannels.SUB_A, null), v.subMerchant());
    }

    @Test
    void theSubAppIdGoesWithTheSubMerchantAndStaysSigned() {
        var notice = WechatV2Fixtures.partnerPayment(newOrderNo(), newTxn(), 100, TestChannels.SUB_A)
                .with("sub_appid", "wxsubapp00000001");
        VerifiedNotification v = accepted(SP, notice.signedWith(TestChannels.WX_SP_KEY, "HMAC-SHA256"));
        assertEquals(new SubMerchant(TestChannels.SUB_A, "wxsubapp00000001"), v.subMerchant());
        // a sub_appid added after signing breaks the signature: it is part of the signed content
        var tampered = notice.signedFields(TestChannels.WX_SP_KEY, "MD5");
        tampered.put("sub_appid", "wxsubapp00000002");
        assertRefused(Kind.UNAUTHENTICATED, SP, WechatV2Fixtures.body(tampered));
    }

    @Test
    void aPaymentWithoutSubMchIdIs400() {
        var notice = WechatV2Fixtures.partnerPayment(newOrderNo(), newTxn(), 100, TestChannels.SUB_A);
        var r = assertRefused(
                Kind.BAD_REQUEST, SP, notice.without("sub_mch_id").signedWith(TestChannels.WX_SP_KEY, "MD5"));
        assertEquals(Cause.MISSING_FIELD, r.rejectionCause());
        assertRefused(Kind.BAD_REQUEST, SP, notice.with("sub_mch_id", "").signedWith(TestChannels.WX_SP_KEY, "MD5"));
        // also a non-final notice: the sub-merchant is required of every payment notice
        var failed = notice.without("transaction_id").without("total_fee").with("result_code", "FAIL");
        assertRefused(Kind.BAD_REQUEST, SP, failed.without("sub_mch_id").signedWith(TestChannels.WX_SP_KEY, "MD5"));
        assertEquals(
                NotifyClass.INFO,
                accepted(SP, failed.signedWith(TestChannels.WX_SP_KEY, "MD5")).notifyClass());
    }

    @ParameterizedTest(name = "{0} = {1} -> mismatch {2}")
    @CsvSource({
        "appid, " + TestChannels.WX_SP_APPID + ", false",
        "appid, wxffffffffffffffff, true",
        "mch_id, " + TestChannels.SUB_A + ", true",
        // another sub-merchant is not step a: only the order can say whose it is (step b)
        "sub_mch_id, " + TestChannels.SUB_B + ", false"
    })
    void theProvidersIdsAreCheckedAgainstTheChannel(String field, String value, boolean mismatch) {
        var notice = WechatV2Fixtures.partnerPayment(newOrderNo(), newTxn(), 100, TestChannels.SUB_A)
                .with(field, value);
        VerifiedNotification v = accepted(SP, notice.signedWith(TestChannels.WX_SP_KEY, "MD5"));
        assertEquals(NotifyClass.PAID, v.notifyClass());
        assertEquals(mismatch, v.accountMismatch());
    }

    @Test
    void aNoticeSignedWithAnotherKeyIsRefused() {
        byte[] body = WechatV2Fixtures.partnerPayment(newOrderNo(), newTxn(), 100, TestChannels.SUB_A)
                .signedWith(TestChannels.WX_KEY, "MD5");
        assertRefused(Kind.UNAUTHENTICATED, SP, body);
    }

    @Test
    void aDirectChannelRefusesAPartnerShapedNotice() {
        // signed with the direct channel's own key, so that only the sub_* fields differ
        var direct = WechatV2Fixtures.payment(newOrderNo(), newTxn(), 100);
        VerifiedNotification v =
                accepted(direct.with("sub_mch_id", TestChannels.SUB_A).md5());
        assertTrue(v.accountMismatch());
        assertNull(v.subMerchant(), "a direct channel has no step b");
        assertTrue(accepted(direct.with("sub_appid", "wxsubapp00000001").md5()).accountMismatch());
        assertFalse(accepted(direct.md5()).accountMismatch());
    }

    @Test
    void aRefundNoticeIsDecryptedWithTheProvidersKeyAndBoundByItsTransaction() {
        String no = newOrderNo();
        String txn = newTxn();
        var info = WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS");
        VerifiedNotification v = accepted(SP, WechatV2Fixtures.partnerRefundBody(info, TestChannels.SUB_A));
        assertEquals(NotifyClass.REFUND, v.notifyClass());
        assertEquals(txn, v.transactionId());
        assertFalse(v.accountMismatch());
        assertNull(v.subMerchant(), "the outer sub_mch_id is unsigned: §7's transaction id binds the refund");
        // with another sub-merchant outside req_info, or none, the same
        VerifiedNotification other = accepted(SP, WechatV2Fixtures.partnerRefundBody(info, TestChannels.SUB_B));
        assertFalse(other.accountMismatch());
        assertNull(other.subMerchant());
        // encrypted with a direct channel's key, it does not decrypt
        assertRefused(Kind.UNAUTHENTICATED, SP, WechatV2Fixtures.refundBody(info, TestChannels.WX_KEY));
    }
}
