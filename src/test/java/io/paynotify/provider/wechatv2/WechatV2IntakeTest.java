package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_422;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertAck;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOk;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.insertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.lastNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Http.newTxn;
import static io.paynotify.provider.wechatv2.WechatV2Http.order;
import static io.paynotify.provider.wechatv2.WechatV2Http.post;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV2Fixtures.Notice;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a verified v2 notice does to the database, over real HTTP and PostgreSQL: the v2 wiring only (time_end in
 * Beijing time, the raw body, a refund's ids and decrypted fields). The intake's rules (duplicates, anomalies, an
 * unknown order, the transaction-id lookup, attention, the per-order cap) are tested once, with v2 notices, in
 * {@code intake/NotificationRulesTest}; which class a notice is sits in {@code WechatV2ClassificationTest}; what
 * each class does to each order state in {@code OrderStateMachineTest}.
 */
@QuarkusTest
class WechatV2IntakeTest {

    static Notice payment(String no, String txn, long fee) {
        return WechatV2Fixtures.payment(no, txn, fee);
    }

    @Test
    void anAppliedPaymentSetsStateTransactionAndPaidAtFromTimeEndInBeijingTime() {
        String no = newOrderNo();
        String txn = newTxn();
        long id = insertOrder(no, 100);
        // midnight in Beijing (UTC+08:00) is the previous day in UTC
        byte[] body = payment(no, txn, 100)
                .with("time_end", "20260101000000")
                .with("attach", "a+b & c=d %20 空格 中文 😀 <tag> \"q\" 'q'")
                .md5();
        assertOk(post(body));

        var row = lastNotification(no);
        assertNotification(row, "APPLIED", null, "SUCCESS", 100L, txn);
        assertEquals(id, row.get("order_id"));
        assertEquals("CNY", row.get("currency"));
        // the raw body is stored exactly as received
        assertArrayEquals(body, (byte[]) row.get("raw_body"));
        assertOrder(no, "SUCCESS", txn, Instant.parse("2025-12-31T16:00:00Z"), List.of());
        assertEquals("SUCCESS", order(no).get("paid_provider_status"));
    }

    @Test
    void aRefundNoticeOnAPendingOrderIsRefundOnUnpaid() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        // a failure ack: WeChat retries the refund notice until the payment is applied
        assertAck(post(WechatV2Fixtures.refundBody(no, txn, 100, "SUCCESS")), 422, FAIL_422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "REFUND_ON_UNPAID", "SUCCESS", 100L, txn);
        assertEquals("50000408942018111907145868882", row.get("notify_id"));
        String decoded = (String) row.get("decoded");
        assertNotNull(decoded);
        assertTrue(decoded.contains("\"refund_recv_accout\":\"支付用户零钱\""), decoded);
        assertOrder(no, "PENDING", null, null, List.of("REFUND_ON_UNPAID"));
    }
}
