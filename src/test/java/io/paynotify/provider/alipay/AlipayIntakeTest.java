package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayHttp.FIXTURE_PAID_AT;
import static io.paynotify.provider.alipay.AlipayHttp.GMT_PAYMENT;
import static io.paynotify.provider.alipay.AlipayHttp.assertFail;
import static io.paynotify.provider.alipay.AlipayHttp.assertNotification;
import static io.paynotify.provider.alipay.AlipayHttp.assertOk;
import static io.paynotify.provider.alipay.AlipayHttp.assertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.insertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.lastNotification;
import static io.paynotify.provider.alipay.AlipayHttp.markPaid;
import static io.paynotify.provider.alipay.AlipayHttp.newOrderNo;
import static io.paynotify.provider.alipay.AlipayHttp.newTradeNo;
import static io.paynotify.provider.alipay.AlipayHttp.notifications;
import static io.paynotify.provider.alipay.AlipayHttp.order;
import static io.paynotify.provider.alipay.AlipayHttp.post;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Alipay notices through HTTP and PostgreSQL: what is stored, what the order becomes, and the ack that follows the
 * commit. Only what needs the database is here; which notice is refused and what it means is {@link
 * AlipayAdapterTest} and {@link AlipayClassificationTest}, and every cell of the outcome matrix is {@code
 * OrderStateMachineTest}.
 */
@QuarkusTest
class AlipayIntakeTest {

    /** A notice for that order and trade, signed RSA2 for ali-test. */
    static AlipayFixtures.Notice notice(String no, String t) {
        return aNotice().orderNo(no).tradeNo(t);
    }

    @Test
    void aPaymentIsAppliedStoredAndAckedWithExactlySuccess() {
        for (String status : List.of("TRADE_SUCCESS", "TRADE_FINISHED")) {
            String no = newOrderNo();
            String t = newTradeNo();
            long id = insertOrder(no, 100);
            var notice = notice(no, t).status(status);
            assertOk(post(notice.body()));
            var row = lastNotification(no);
            assertNotification(row, "APPLIED", null, status, 100L, t);
            assertEquals(id, row.get("order_id"));
            assertEquals(notice.params().get("notify_id"), row.get("notify_id"));
            assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
            // what TRADE_FINISHED after a payment means depends on the status that paid
            assertEquals(status, order(no).get("paid_provider_status"));
        }
    }

    @Test
    void withoutGmtPaymentTheOrderIsPaidAtTheArrival() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(post(notice(no, t).without("gmt_payment").body()));
        Instant receivedAt = (Instant) lastNotification(no).get("received_at");
        assertOrder(no, "SUCCESS", t, receivedAt, List.of());
    }

    @Test
    void theRawBodyIsStoredAsReceived() {
        String no = newOrderNo();
        insertOrder(no, 100);
        byte[] body = notice(no, newTradeNo()).charset("gbk").body();
        assertOk(post(body));
        assertArrayEquals(body, (byte[]) lastNotification(no).get("raw_body"));
    }

    @Test
    void outTradeNoIsMatchedByteForByte() {
        String no = "Case" + newOrderNo().substring(3);
        insertOrder(no, 100);
        for (String variant : List.of(no.toUpperCase(), no.toLowerCase(), no.substring(0, no.length() - 1))) {
            String t = newTradeNo();
            assertFail(post(notice(variant, t).body()), 422);
            var row = lastNotification(variant);
            assertNotification(row, "ANOMALY", "UNKNOWN_ORDER", "TRADE_SUCCESS", 100L, t);
            assertNull(row.get("order_id"));
        }
        assertOrder(no, "PENDING", null, null, List.of());
    }

    @Test
    void anotherAmountIsAnsweredFailAndFlagsTheOrder() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertFail(post(notice(no, t).amount("1.01").body()), 422);
        assertNotification(lastNotification(no), "ANOMALY", "AMOUNT_MISMATCH", "TRADE_SUCCESS", 101L, t);
        assertOrder(no, "PENDING", null, null, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void aDuplicateChangesNothing() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markPaid(no, t);
        Map<String, Object> before = order(no);
        assertOk(post(notice(no, t).body()));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_SUCCESS", 100L, t);
        assertEquals(before, order(no));
        assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of());
    }

    @Test
    void tradeFinishedAfterTradeSuccessIsAlreadyPaid() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(post(notice(no, t).status("TRADE_SUCCESS").body()));
        assertOk(post(notice(no, t).status("TRADE_FINISHED").body()));
        assertNotification(lastNotification(no), "IGNORED", "ALREADY_PAID", "TRADE_FINISHED", 100L, t);
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
        assertEquals("TRADE_SUCCESS", order(no).get("paid_provider_status"));
        // the same TRADE_FINISHED again: still ALREADY_PAID (the order was paid by TRADE_SUCCESS)
        assertOk(post(notice(no, t).status("TRADE_FINISHED").body()));
        assertEquals("ALREADY_PAID", lastNotification(no).get("reason"));
        // a repeated TRADE_SUCCESS is a plain duplicate
        assertOk(post(notice(no, t).status("TRADE_SUCCESS").body()));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_SUCCESS", 100L, t);
        // with another amount it is flagged (an IGNORED notice that adds attention), and the answer stays ok
        assertOk(post(notice(no, t).status("TRADE_FINISHED").amount("1.50").body()));
        assertNotification(lastNotification(no), "IGNORED", "ALREADY_PAID", "TRADE_FINISHED", 150L, t);
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of("AMOUNT_MISMATCH"));
        assertEquals(5, notifications(no).size());
    }

    @Test
    void aCloseIsAppliedWithoutAmount() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        // total_amount is required for payments only
        assertOk(post(
                notice(no, t).status("TRADE_CLOSED").without("total_amount").body()));
        assertNotification(lastNotification(no), "APPLIED", null, "TRADE_CLOSED", null, t);
        // only an applied payment sets the transaction id and paidAt
        assertOrder(no, "CLOSED", null, null, List.of());
    }

    @Test
    void aTradeNumberAlreadyOnAnotherOrderIsTransactionOnOtherOrder() {
        String owner = newOrderNo();
        String pending = newOrderNo();
        String t = newTradeNo();
        insertOrder(owner, 100);
        insertOrder(pending, 100);
        assertOk(post(notice(owner, t).body()));
        assertFail(post(notice(pending, t).status("TRADE_FINISHED").body()), 422);
        assertNotification(
                lastNotification(pending), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "TRADE_FINISHED", 100L, t);
        assertOrder(pending, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        assertOrder(owner, "SUCCESS", t, GMT_PAYMENT, List.of());
        // only a payment is looked up: a close carrying that trade number closes the order
        assertOk(post(notice(pending, t).status("TRADE_CLOSED").body()));
        assertEquals("APPLIED", lastNotification(pending).get("outcome"));
        assertOrder(pending, "CLOSED", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
    }

    @Test
    void attentionIsAppendOnlyWithoutDuplicates() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markPaid(no, t);
        assertOk(post(notice(no, t).status("TRADE_CLOSED").body()));
        assertOk(post(notice(no, t).status("TRADE_CLOSED").body()));
        assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of("CLOSED_AFTER_PAID"));
        assertOk(post(notice(no, newTradeNo()).amount("3.00").body()));
        assertOk(post(notice(no, t).status("WAIT_BUYER_PAY").body()));
        assertOk(post(notice(no, newTradeNo()).body()));
        assertOrder(
                no,
                "SUCCESS",
                t,
                FIXTURE_PAID_AT,
                List.of("CLOSED_AFTER_PAID", "DUPLICATE_PAYMENT", "AMOUNT_MISMATCH"));
        assertEquals(5, notifications(no).size());
    }

    @Test
    void pastFiveHundredRowsDeliveriesAreAnsweredTheSameButNotRecorded() {
        String no = newOrderNo();
        String t = newTradeNo();
        long id = insertOrder(no, 100);
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, order_id, provider_status, outcome,"
                        + " reason, raw_body, received_at) SELECT ?, 'ALIPAY', ?, ?, 'WAIT_BUYER_PAY', 'IGNORED',"
                        + " 'NOT_FINAL', '\\x00'::bytea, now() FROM generate_series(1, 499)",
                TestChannels.ALI,
                no,
                id);
        assertOk(post(notice(no, t).body()));
        assertOk(post(notice(no, t).body()));
        assertOk(post(notice(no, t).body()));
        assertEquals(500, notifications(no).size());
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
    }
}
