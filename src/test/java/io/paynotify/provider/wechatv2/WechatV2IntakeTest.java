package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_422;
import static io.paynotify.provider.wechatv2.WechatV2Http.FIXTURE_PAID_AT;
import static io.paynotify.provider.wechatv2.WechatV2Http.TIME_END;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertAck;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOk;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.insertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.lastNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.markClosed;
import static io.paynotify.provider.wechatv2.WechatV2Http.markPaid;
import static io.paynotify.provider.wechatv2.WechatV2Http.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Http.newTxn;
import static io.paynotify.provider.wechatv2.WechatV2Http.notifications;
import static io.paynotify.provider.wechatv2.WechatV2Http.order;
import static io.paynotify.provider.wechatv2.WechatV2Http.post;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV2Fixtures.Notice;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a verified v2 notice does to the database, over real HTTP and PostgreSQL: the notification row, the order
 * row, the attention list, the transaction-id lookup and the per-order cap. Which class a notice is sits in
 * {@code WechatV2ClassificationTest}; what each class does to each order state in {@code OrderStateMachineTest}.
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
    void withoutTimeEndPaidAtIsTheArrivalTimeAndADuplicateDoesNotMoveIt() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        byte[] body = payment(no, txn, 100).without("time_end").md5();
        Instant before = Instant.now();
        assertOk(post(body));
        Instant receivedAt = (Instant) lastNotification(no).get("received_at");
        assertOrder(no, "SUCCESS", txn, receivedAt, List.of());
        assertTrue(
                !receivedAt.isBefore(before.minusSeconds(5)) && !receivedAt.isAfter(Instant.now()),
                "receivedAt " + receivedAt + " is the arrival time");

        assertOk(post(body));
        assertEquals("DUPLICATE", lastNotification(no).get("outcome"));
        assertEquals(receivedAt, order(no).get("paid_at"));
    }

    @Test
    void aDuplicateIsRecordedAndChangesNothing() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        var before = order(no);

        assertOk(post(payment(no, txn, 100).md5()));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 100L, txn);
        // paidAt and the transaction id are set only by the applying notice; not even updated_at moves
        assertEquals(before, order(no));
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of());

        // a duplicate stating another amount is still a duplicate, and only flags the order
        assertOk(post(payment(no, txn, 101).md5()));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 101L, txn);
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of("AMOUNT_MISMATCH"));
        assertEquals(2, notifications(no).size());
    }

    @Test
    void anAnomalyFlagsTheOrderAndAnswers422WithTheFailureAck() {
        String no = newOrderNo();
        String txn = newTxn();
        long id = insertOrder(no, 100);
        assertAck(post(payment(no, txn, 99).md5()), 422, FAIL_422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "AMOUNT_MISMATCH", "SUCCESS", 99L, txn);
        assertEquals(id, row.get("order_id"));
        assertOrder(no, "PENDING", null, null, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void aPaymentForNoOrderIsRecordedWithoutOneAndCreatesNone() {
        String no = newOrderNo();
        String txn = newTxn();
        assertAck(post(payment(no, txn, 100).md5()), 422, FAIL_422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "UNKNOWN_ORDER", "SUCCESS", 100L, txn);
        assertNull(row.get("order_id"));
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));
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

    @Test
    void aTransactionIdIsLookedUpAcrossTheProvidersChannelsButNotOtherProviders() {
        // on another order of the same channel, paid through the route
        String owner = newOrderNo();
        String txn = newTxn();
        insertOrder(owner, 100);
        assertOk(post(payment(owner, txn, 100).md5()));
        String second = newOrderNo();
        insertOrder(second, 100);
        assertAck(post(payment(second, txn, 100).md5()), 422, FAIL_422);
        assertNotification(lastNotification(second), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "SUCCESS", 100L, txn);
        assertOrder(second, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        // the owner is untouched
        assertOrder(owner, "SUCCESS", txn, TIME_END, List.of());

        // on an order of another v2 channel: still another order of the provider
        String hmacOwner = newOrderNo();
        String hmacTxn = newTxn();
        Db.insertOrder(TestChannels.WX_HMAC, "WECHATPAY_V2", hmacOwner, 100);
        paidDirectly(TestChannels.WX_HMAC, hmacOwner, hmacTxn);
        String no = newOrderNo();
        insertOrder(no, 100);
        assertAck(post(payment(no, hmacTxn, 100).md5()), 422, FAIL_422);
        assertNotification(lastNotification(no), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "SUCCESS", 100L, hmacTxn);
        assertOrder(no, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));

        // the same number on another provider's order is no conflict
        String ali = newOrderNo();
        String shared = newTxn();
        Db.insertOrder(TestChannels.ALI, "ALIPAY", ali, 100);
        paidDirectly(TestChannels.ALI, ali, shared);
        String mine = newOrderNo();
        insertOrder(mine, 100);
        assertOk(post(payment(mine, shared, 100).md5()));
        assertOrder(mine, "SUCCESS", shared, TIME_END, List.of());
    }

    static void paidDirectly(String channel, String no, String txn) {
        Db.update(
                "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = now() WHERE channel = ? AND"
                        + " out_trade_no = ?",
                txn,
                channel,
                no);
    }

    @Test
    void attentionIsAppendOnlyWithoutDuplicates() {
        String no = newOrderNo();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(post(payment(no, newTxn(), 100).md5()));
        assertOk(post(payment(no, newTxn(), 100).md5()));
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE"));
        assertAck(
                post(payment(no, newTxn(), 100)
                        .with("result_code", "PROCESSING")
                        .md5()),
                422,
                FAIL_422);
        assertOk(post(payment(no, newTxn(), 7).md5()));
        // a refund on a closed order: REFUND_ON_UNPAID, answered ok
        assertOk(post(WechatV2Fixtures.refundBody(no, newTxn(), 100, "SUCCESS")));
        assertOk(post(WechatV2Fixtures.refundBody(no, newTxn(), 100, "SUCCESS")));
        assertOrder(
                no,
                "CLOSED",
                null,
                null,
                List.of("PAID_AFTER_CLOSE", "UNKNOWN_STATUS", "AMOUNT_MISMATCH", "REFUND_ON_UNPAID"));
        assertEquals(6, notifications(no).size());
    }

    @Test
    void pastFiveHundredRowsDeliveriesAreAnsweredTheSameButNotRecorded() {
        String no = newOrderNo();
        String txn = newTxn();
        long id = insertOrder(no, 100);
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, order_id, provider_status, outcome,"
                        + " reason, raw_body, received_at) SELECT ?, 'WECHATPAY_V2', ?, ?, 'FAIL', 'IGNORED', 'NOT_FINAL',"
                        + " '\\x00'::bytea, now() FROM generate_series(1, 499)",
                TestChannels.WX,
                no,
                id);
        assertEquals(499, notifications(no).size());

        assertOk(post(payment(no, txn, 100).md5()));
        assertEquals(500, notifications(no).size());
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of());

        assertOk(post(payment(no, txn, 100).md5()));
        assertOk(post(payment(no, txn, 100).md5()));
        assertAck(post(payment(no, txn, 100).with("result_code", "PROCESSING").md5()), 422, FAIL_422);
        assertEquals(500, notifications(no).size());
        assertEquals(
                0, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'DUPLICATE'", no));
        // the decision still applies to the order: the anomaly is flagged even though it is not recorded
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of("UNKNOWN_STATUS"));
    }
}
