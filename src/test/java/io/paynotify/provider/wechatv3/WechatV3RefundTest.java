package io.paynotify.provider.wechatv3;

import static io.paynotify.provider.wechatv3.WechatV3Unit.accepted;
import static io.paynotify.provider.wechatv3.WechatV3Unit.assertRefused;
import static io.paynotify.provider.wechatv3.WechatV3Unit.newOrderNo;
import static io.paynotify.provider.wechatv3.WechatV3Unit.signedResource;
import static io.paynotify.provider.wechatv3.WechatV3Unit.txnId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.RefundStatus;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.testing.WechatV3Fixtures;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a v3 REFUND.* notice says about its refund (docs/api.md "Refunds"). */
@Tag("unit")
class WechatV3RefundTest {

    static Map<String, Object> resource(String status) {
        String no = newOrderNo();
        var r = WechatV3Fixtures.refund(no, txnId(no), 500, 200);
        r.put("refund_status", status);
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"SUCCESS", "CLOSED", "PROCESSING", "ABNORMAL"})
    void theRefundStatusIsTakenAsItIs(String status) {
        var r = resource(status);
        VerifiedNotification n = accepted(signedResource("REFUND." + status, r));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertEquals(status, n.providerStatus());
        assertEquals(RefundStatus.valueOf(status), n.refund().status());
        assertEquals(r.get("out_refund_no"), n.refund().outRefundNo());
        assertEquals("50000000382019052709732678859", n.refund().refundId());
        assertEquals(r.get("transaction_id"), n.transactionId());
        assertEquals(200L, n.refund().amount());
        assertEquals(200L, n.amountMinor(), "a refund notice records its refund's amount");
        assertEquals(500L, n.refund().tradeTotal());
        assertFalse(n.refund().cumulative());
        assertEquals(Instant.parse("2018-06-08T02:34:56Z"), n.refund().succeededAt());
    }

    @Test
    void anotherRefundStatusIsUnknown() {
        VerifiedNotification n = accepted(signedResource("REFUND.SUCCESS", resource("REFUNDED")));
        assertEquals(NotifyClass.UNKNOWN, n.notifyClass());
    }

    @ParameterizedTest
    @ValueSource(strings = {"out_refund_no", "refund_id", "refund_status", "transaction_id"})
    void requiredRefundFields(String field) {
        var r = resource("SUCCESS");
        r.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signedResource("REFUND.SUCCESS", r));
    }

    @ParameterizedTest
    @ValueSource(strings = {"total", "refund"})
    void requiredAmounts(String field) {
        var r = resource("SUCCESS");
        @SuppressWarnings("unchecked")
        var amount = (Map<String, Object>) r.get("amount");
        amount.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, signedResource("REFUND.SUCCESS", r));
        amount.put(field, "200");
        assertRefused(Kind.BAD_REQUEST, Cause.BAD_AMOUNT, signedResource("REFUND.SUCCESS", r));
    }

    @Test
    void aTransactionInTradeStateRefundNamesNoRefund() {
        String no = newOrderNo();
        var t = WechatV3Fixtures.transaction(no, txnId(no), 500);
        t.put("trade_state", "REFUND");
        VerifiedNotification n = accepted(signedResource("TRANSACTION.SUCCESS", t));
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertFalse(n.refund().identified());
        assertNull(n.refund().status());
    }

    @Test
    void refundResourcesCarryNoAppid() {
        VerifiedNotification n = accepted(signedResource("REFUND.SUCCESS", resource("SUCCESS")));
        assertFalse(n.accountMismatch());
        assertTrue(n.refund().identified());
    }
}
