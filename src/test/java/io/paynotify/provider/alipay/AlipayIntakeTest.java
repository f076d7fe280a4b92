package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayHttp.GMT_PAYMENT;
import static io.paynotify.provider.alipay.AlipayHttp.assertNotification;
import static io.paynotify.provider.alipay.AlipayHttp.assertOk;
import static io.paynotify.provider.alipay.AlipayHttp.assertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.insertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.lastNotification;
import static io.paynotify.provider.alipay.AlipayHttp.newOrderNo;
import static io.paynotify.provider.alipay.AlipayHttp.newTradeNo;
import static io.paynotify.provider.alipay.AlipayHttp.notifications;
import static io.paynotify.provider.alipay.AlipayHttp.order;
import static io.paynotify.provider.alipay.AlipayHttp.post;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.AlipayFixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Alipay notices through HTTP and PostgreSQL: what is stored, what the order becomes, and the ack that follows the
 * commit, for what is Alipay's own (TRADE_SUCCESS and TRADE_FINISHED, the close notice, a GBK body). The intake's
 * rules are tested once in {@code intake/NotificationRulesTest} (Alipay's 422 ack there too); which notice is
 * refused and what it means is {@link AlipayAdapterTest} and {@link AlipayClassificationTest}, and every cell of the
 * outcome matrix is {@code OrderStateMachineTest}.
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
    void theRawBodyIsStoredAsReceived() {
        String no = newOrderNo();
        insertOrder(no, 100);
        byte[] body = notice(no, newTradeNo()).charset("gbk").body();
        assertOk(post(body));
        assertArrayEquals(body, (byte[]) lastNotification(no).get("raw_body"));
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
}
