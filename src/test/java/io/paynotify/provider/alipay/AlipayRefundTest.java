package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayAdapterTest.verify;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.RefundStatus;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What an Alipay refund notice on the payment URL says about its refund (docs/api.md "Refunds"). */
@Tag("unit")
class AlipayRefundTest {

    @Test
    void aRefundNoticeNamesItsRefundByOutBizNoAndStatesTheRunningTotal() {
        VerifiedNotification n = verify(aNotice()
                .set("out_biz_no", "B-1")
                .set("refund_fee", "3.50")
                .set("gmt_refund", "2026-01-03 10:00:00.123"));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertEquals("B-1", n.refund().outRefundNo());
        assertTrue(n.refund().ownRefundNo());
        assertNull(n.refund().refundId());
        assertEquals(RefundStatus.SUCCESS, n.refund().status());
        assertEquals(350L, n.refund().amount());
        assertEquals(350L, n.amountMinor());
        assertTrue(n.refund().cumulative());
        assertNull(n.refund().tradeTotal(), "Alipay's trade total is not compared for refunds");
        assertEquals(Instant.parse("2026-01-03T02:00:00Z"), n.refund().succeededAt());
        assertFalse(n.finishedNotice());
    }

    @Test
    void withoutOutBizNoTheNoticesOwnIdNamesIt() {
        VerifiedNotification n = verify(aNotice().status("TRADE_CLOSED").set("refund_fee", "10.00"));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertEquals(n.notifyId(), n.refund().outRefundNo());
        assertFalse(n.refund().ownRefundNo());
        assertEquals(1000L, n.refund().amount());
    }

    @Test
    void aRefundWithoutRefundFeeCarriesNoAmount() {
        VerifiedNotification n = verify(aNotice().set("gmt_refund", "2026-01-03 10:00:00"));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertNull(n.refund().amount());
    }
}
