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
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.RefundStatus;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a v2 refund notice (decrypted req_info) says about its refund (docs/api.md "Refunds"). */
@Tag("unit")
class WechatV2RefundTest {

    static Map<String, String> info(String status) {
        return WechatV2Fixtures.refundInfo(newOrderNo(), newTxn(), 100, status);
    }

    static VerifiedNotification read(Map<String, String> info) {
        return accepted(WechatV2Fixtures.refundBody(info, TestChannels.WX_KEY));
    }

    @ParameterizedTest
    @CsvSource({"SUCCESS, SUCCESS", "CHANGE, ABNORMAL", "REFUNDCLOSE, CLOSED"})
    void refundStatusesMapOntoRefundStates(String providerStatus, RefundStatus status) {
        var info = info(providerStatus);
        VerifiedNotification n = read(info);
        assertEquals(NotifyClass.REFUND, n.notifyClass());
        assertEquals(providerStatus, n.providerStatus());
        assertEquals(status, n.refund().status());
        assertEquals(info.get("out_refund_no"), n.refund().outRefundNo());
        assertTrue(n.refund().ownRefundNo());
        assertEquals("50000408942018111907145868882", n.refund().refundId());
        assertEquals(info.get("transaction_id"), n.transactionId());
        assertEquals(100L, n.refund().tradeTotal());
        assertEquals(100L, n.refund().amount());
        assertEquals(100L, n.amountMinor(), "a refund notice records its refund's amount");
        assertFalse(n.refund().cumulative());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PROCESSING", "success", "REFUND", "X"})
    void anyOtherRefundStatusIsUnknown(String providerStatus) {
        VerifiedNotification n = read(info(providerStatus));
        assertEquals(NotifyClass.UNKNOWN, n.notifyClass());
        assertNull(n.refund().status());
    }

    @Test
    void successTimeIsBeijingTimeAndOptional() {
        assertEquals(
                Instant.parse("2018-11-19T08:24:13Z"),
                read(info("SUCCESS")).refund().succeededAt());
        var info = info("SUCCESS");
        info.remove("success_time");
        assertNull(read(info).refund().succeededAt());
        info.put("success_time", "yesterday");
        assertNull(read(info).refund().succeededAt());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"out_refund_no", "refund_id", "transaction_id", "total_fee", "out_trade_no", "refund_status"})
    void everyRefundFieldTheContractRequiresIsRequired(String field) {
        var info = info("REFUNDCLOSE");
        info.remove(field);
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, WechatV2Fixtures.refundBody(info, TestChannels.WX_KEY));
    }

    @Test
    void aSuccessfulRefundNeedsItsRefundFee() {
        var info = info("SUCCESS");
        info.remove("refund_fee");
        assertRefused(Kind.BAD_REQUEST, Cause.MISSING_FIELD, WechatV2Fixtures.refundBody(info, TestChannels.WX_KEY));
        // a closed one does not
        var closed = info("REFUNDCLOSE");
        closed.remove("refund_fee");
        assertNull(read(closed).refund().amount());
    }
}
