package io.paynotify.core.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.RefundNotice;
import io.paynotify.core.notify.SubMerchant;
import io.paynotify.core.notify.VerifiedNotification;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Step b of ACCOUNT_MISMATCH (docs/api.md "Account modes"): one provider key verifies the notices of every
 * sub-merchant of a service provider (and every merchant of an ISV), so once the order is found, the notice's
 * sub-merchant must be the order's. This is what keeps one sub-merchant's genuine notice from paying, closing or
 * refunding another's order.
 */
@Tag("unit")
class SubMerchantRuleTest {

    static final Instant RECEIVED = Instant.parse("2026-01-02T03:04:05Z");

    static OrderSnapshot pending(String sub, String subApp) {
        return new OrderSnapshot(OrderState.PENDING, 100, "CNY", null, null, 0, sub, subApp);
    }

    static OrderSnapshot paid(String sub, String subApp) {
        return new OrderSnapshot(OrderState.SUCCESS, 100, "CNY", "T1", "SUCCESS", 0, sub, subApp);
    }

    static VerifiedNotification.Builder notice(NotifyClass cls, SubMerchant sub) {
        return VerifiedNotification.builder(Provider.WECHATPAY_V3, "sp", "O1", cls, "SUCCESS", new byte[0], RECEIVED)
                .transactionId("T1")
                .amount(100L)
                .subMerchant(sub);
    }

    static void assertMismatch(Decision d) {
        assertEquals(Outcome.ANOMALY, d.outcome());
        assertEquals(Reason.ACCOUNT_MISMATCH, d.reason());
        assertFalse(d.successAck(), "the failure ack: the provider retries while someone looks");
        assertEquals(List.of(Reason.ACCOUNT_MISMATCH), d.attention(), "the order is flagged");
        assertNull(d.newState(), "nothing is applied");
        assertNull(d.refund());
    }

    @Test
    void aSubMerchantsNoticePaysItsOwnOrder() {
        Decision d = OrderStateMachine.decide(
                pending("1900000901", null),
                notice(NotifyClass.PAID, new SubMerchant("1900000901", null)).build(),
                false);
        assertEquals(Outcome.APPLIED, d.outcome());
        assertEquals(OrderState.SUCCESS, d.newState());
    }

    @Test
    void anotherSubMerchantsGenuineNoticeNeverPaysClosesOrRefundsTheOrder() {
        var other = new SubMerchant("1900000902", null);
        assertMismatch(OrderStateMachine.decide(
                pending("1900000901", null), notice(NotifyClass.PAID, other).build(), false));
        assertMismatch(OrderStateMachine.decide(
                pending("1900000901", null), notice(NotifyClass.CLOSE, other).build(), false));
        var refund = notice(NotifyClass.REFUND, other)
                .refund(new RefundNotice("R1", true, "RID1", RefundStatus.SUCCESS, 50L, false, 100L, RECEIVED))
                .build();
        assertMismatch(OrderStateMachine.decide(paid("1900000901", null), null, refund, false));
    }

    @Test
    void theSubAppIdMustAgreeWhereBothNameOne() {
        var order = pending("1900000901", "wxsubapp0000001");
        assertMismatch(OrderStateMachine.decide(
                order,
                notice(NotifyClass.PAID, new SubMerchant("1900000901", "wxsubapp0000002"))
                        .build(),
                false));
        assertEquals(
                Outcome.APPLIED,
                OrderStateMachine.decide(
                                order,
                                notice(NotifyClass.PAID, new SubMerchant("1900000901", "wxsubapp0000001"))
                                        .build(),
                                false)
                        .outcome());
        // a notice without sub_appid, or an order without one: only the sub-merchant is compared
        assertEquals(
                Outcome.APPLIED,
                OrderStateMachine.decide(
                                order,
                                notice(NotifyClass.PAID, new SubMerchant("1900000901", null))
                                        .build(),
                                false)
                        .outcome());
        assertEquals(
                Outcome.APPLIED,
                OrderStateMachine.decide(
                                pending("1900000901", null),
                                notice(NotifyClass.PAID, new SubMerchant("1900000901", "wxsubapp0000009"))
                                        .build(),
                                false)
                        .outcome());
    }

    @Test
    void anIsvNoticeNamingNoMerchantMatchesNoOrder() {
        assertMismatch(OrderStateMachine.decide(
                pending("2021000000000901", null),
                notice(NotifyClass.PAID, new SubMerchant(null, null)).build(),
                false));
    }

    @Test
    void itComesBeforeTheTransactionOnAnotherOrderAndAfterTheChannelsIds() {
        // the notice's transaction id sits on another order too: the sub-merchant decides first
        assertMismatch(OrderStateMachine.decide(
                pending("1900000901", null),
                notice(NotifyClass.PAID, new SubMerchant("1900000902", null)).build(),
                true));
        // the right sub-merchant: then the transaction id
        assertEquals(
                Reason.TRANSACTION_ON_OTHER_ORDER,
                OrderStateMachine.decide(
                                pending("1900000901", null),
                                notice(NotifyClass.PAID, new SubMerchant("1900000901", null))
                                        .build(),
                                true)
                        .reason());
    }

    @Test
    void withoutAnOrderOrWithoutAStatedSubMerchantTheMatrixDecides() {
        assertEquals(
                Reason.UNKNOWN_ORDER,
                OrderStateMachine.decide(
                                null,
                                notice(NotifyClass.PAID, new SubMerchant("1900000902", null))
                                        .build(),
                                false)
                        .reason());
        // a notice bound to its order otherwise (a v2 refund: transaction id and amount) states none
        assertEquals(
                Outcome.APPLIED,
                OrderStateMachine.decide(
                                pending("1900000901", null),
                                notice(NotifyClass.PAID, null).build(),
                                false)
                        .outcome());
    }
}
