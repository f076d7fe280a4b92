package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paynotify.core.notify.NotifyClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** CONTRACT.md §1 "classes", the v3 rows, and the strict amount of CONTRACT.md §1 "amount compared". */
class WechatV3ClassificationTest {

    @ParameterizedTest
    @CsvSource({
        "TRANSACTION.SUCCESS, SUCCESS, PAID",
        "REFUND.SUCCESS, , REFUND",
        "REFUND.ABNORMAL, , REFUND",
        "REFUND.CLOSED, , REFUND",
        "REFUND.SUCCESS, SUCCESS, REFUND",
        "TRANSACTION.SUCCESS, REFUND, REFUND",
        "TRANSACTION.REFUND, REFUND, REFUND",
        "TRANSACTION.SUCCESS, NOTPAY, INFO",
        "TRANSACTION.SUCCESS, USERPAYING, INFO",
        "TRANSACTION.SUCCESS, ACCEPT, INFO",
        "TRANSACTION.SUCCESS, PAYERROR, INFO",
        "TRANSACTION.SUCCESS, REVOKED, INFO",
        "TRANSACTION.SUCCESS, CLOSED, INFO",
        "TRANSACTION.CLOSED, CLOSED, INFO",
        "TRANSACTION.SUCCESS, success, UNKNOWN",
        "TRANSACTION.SUCCESS, PAID, UNKNOWN",
        "TRANSACTION.CLOSED, SUCCESS, UNKNOWN",
        "transaction.success, SUCCESS, UNKNOWN",
        "PROFITSHARING.SUCCESS, , UNKNOWN",
        "PROFITSHARING.SUCCESS, REFUND, UNKNOWN",
        "MCHTRANSFER.BILL.FINISHED, SUCCESS, UNKNOWN"
    })
    void classifies(String eventType, String tradeState, NotifyClass expected) {
        assertEquals(expected, WechatV3Adapter.notifyClass(eventType, tradeState));
    }

    @Test
    void amountIsAJsonIntegerOfAtMostTenDigits() {
        var f = JsonNodeFactory.instance;
        assertEquals(1L, WechatV3Adapter.fen(f.numberNode(1)));
        assertEquals(0L, WechatV3Adapter.fen(f.numberNode(0)));
        assertEquals(9_999_999_999L, WechatV3Adapter.fen(f.numberNode(9_999_999_999L)));
        assertNull(WechatV3Adapter.fen(f.numberNode(10_000_000_000L)));
        assertNull(WechatV3Adapter.fen(f.numberNode(-1)));
        assertNull(WechatV3Adapter.fen(f.numberNode(1.0)));
        assertNull(WechatV3Adapter.fen(f.textNode("100")));
        assertNull(WechatV3Adapter.fen(f.nullNode()));
        assertNull(WechatV3Adapter.fen(null));
    }

    @Test
    void successTimeKeepsItsOwnOffset() {
        assertEquals(
                java.time.Instant.parse("2015-05-20T05:29:35Z"), WechatV3Adapter.rfc3339("2015-05-20T13:29:35+08:00"));
        assertEquals(java.time.Instant.parse("2015-05-20T13:29:35Z"), WechatV3Adapter.rfc3339("2015-05-20T13:29:35Z"));
        assertEquals(
                java.time.Instant.parse("2015-05-20T18:29:35Z"), WechatV3Adapter.rfc3339("2015-05-20T13:29:35-05:00"));
        org.junit.jupiter.api.Assertions.assertNull(WechatV3Adapter.rfc3339("2015-05-20T13:29:35"));
        org.junit.jupiter.api.Assertions.assertNull(WechatV3Adapter.rfc3339(null));
        org.junit.jupiter.api.Assertions.assertNull(WechatV3Adapter.rfc3339("x".repeat(41)));
    }
}
