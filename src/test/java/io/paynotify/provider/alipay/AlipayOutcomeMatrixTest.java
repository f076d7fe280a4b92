package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayHttp.FIXTURE_PAID_AT;
import static io.paynotify.provider.alipay.AlipayHttp.GMT_PAYMENT;
import static io.paynotify.provider.alipay.AlipayHttp.assertFail;
import static io.paynotify.provider.alipay.AlipayHttp.assertNotification;
import static io.paynotify.provider.alipay.AlipayHttp.assertOk;
import static io.paynotify.provider.alipay.AlipayHttp.assertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.insertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.lastNotification;
import static io.paynotify.provider.alipay.AlipayHttp.markClosed;
import static io.paynotify.provider.alipay.AlipayHttp.markPaid;
import static io.paynotify.provider.alipay.AlipayHttp.newOrderNo;
import static io.paynotify.provider.alipay.AlipayHttp.newTradeNo;
import static io.paynotify.provider.alipay.AlipayHttp.notifications;
import static io.paynotify.provider.alipay.AlipayHttp.order;
import static io.paynotify.provider.alipay.AlipayHttp.post;
import static io.paynotify.provider.alipay.AlipayHttp.postSigned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every cell of CONTRACT.md §1's outcome matrix for Alipay over real HTTP and PostgreSQL, with the Alipay-only
 * rules: TRADE_FINISHED after TRADE_SUCCESS, and refunds that arrive as TRADE_SUCCESS or TRADE_CLOSED.
 */
@QuarkusTest
class AlipayOutcomeMatrixTest {

    static Map<String, String> notice(String no, String tradeNo, String amount, String status) {
        return AlipayFixtures.notice(no, tradeNo, amount, status);
    }

    static Map<String, String> with(Map<String, String> p, String... kv) {
        var copy = new LinkedHashMap<>(p);
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                copy.remove(kv[i]);
            } else {
                copy.put(kv[i], kv[i + 1]);
            }
        }
        return copy;
    }

    // ---- PAID

    @Test
    void paidWithoutOrderIsUnknownOrder() {
        String no = newOrderNo();
        String t = newTradeNo();
        assertFail(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")), 422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "UNKNOWN_ORDER", "TRADE_SUCCESS", 100L, t);
        assertNull(row.get("order_id"));
        assertEquals("2026010200222110405001301463" + Math.abs(no.hashCode()), row.get("notify_id"));
    }

    @Test
    void paidOnPendingIsApplied() {
        for (String status : List.of("TRADE_SUCCESS", "TRADE_FINISHED")) {
            String no = newOrderNo();
            String t = newTradeNo();
            long id = insertOrder(no, 100);
            assertOk(postSigned(notice(no, t, "1.00", status)));
            var row = lastNotification(no);
            assertNotification(row, "APPLIED", null, status, 100L, t);
            assertEquals(id, row.get("order_id"));
            assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
            assertEquals(status, order(no).get("paid_provider_status"));
        }
    }

    @Test
    void outTradeNoIsMatchedByteForByte() {
        String no = "Case" + newOrderNo().substring(3);
        insertOrder(no, 100);
        for (String variant : List.of(no.toUpperCase(), no.toLowerCase(), no.substring(0, no.length() - 1))) {
            assertFail(postSigned(notice(variant, newTradeNo(), "1.00", "TRADE_SUCCESS")), 422);
            assertEquals("UNKNOWN_ORDER", lastNotification(variant).get("reason"));
        }
        assertOrder(no, "PENDING", null, null, List.of());
    }

    @Test
    void paidOnPendingWithAnotherAmountIsAmountMismatch() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        // the compared amount is total_amount, never receipt_amount or buyer_pay_amount
        assertFail(
                postSigned(with(
                        notice(no, t, "1.01", "TRADE_SUCCESS"), "receipt_amount", "1.00", "buyer_pay_amount", "1.00")),
                422);
        assertNotification(lastNotification(no), "ANOMALY", "AMOUNT_MISMATCH", "TRADE_SUCCESS", 101L, t);
        assertOrder(no, "PENDING", null, null, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void totalAmountIsComparedNotTheOthers() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(with(
                notice(no, t, "1.00", "TRADE_SUCCESS"),
                "receipt_amount",
                "0.80",
                "buyer_pay_amount",
                "0.70",
                "invoice_amount",
                "0.80",
                "point_amount",
                "0.20")));
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
    }

    @Test
    void paidOnSuccessWithSameTradeNoIsDuplicate() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markPaid(no, t);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_SUCCESS", 100L, t);
        assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of());
    }

    @Test
    void duplicateWithAnotherAmountAddsAmountMismatch() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markPaid(no, t);
        assertOk(postSigned(notice(no, t, "2.00", "TRADE_SUCCESS")));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_SUCCESS", 200L, t);
        assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void tradeFinishedAfterTradeSuccessIsAlreadyPaid() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_FINISHED")));
        assertNotification(lastNotification(no), "IGNORED", "ALREADY_PAID", "TRADE_FINISHED", 100L, t);
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
        assertEquals("TRADE_SUCCESS", order(no).get("paid_provider_status"));
        // the same TRADE_FINISHED again: still ALREADY_PAID (the order was paid by TRADE_SUCCESS)
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_FINISHED")));
        assertEquals("ALREADY_PAID", lastNotification(no).get("reason"));
        // a repeated TRADE_SUCCESS is a plain duplicate
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_SUCCESS", 100L, t);
        // with another amount it is flagged, and the answer stays ok
        assertOk(postSigned(notice(no, t, "1.50", "TRADE_FINISHED")));
        assertNotification(lastNotification(no), "IGNORED", "ALREADY_PAID", "TRADE_FINISHED", 150L, t);
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void tradeFinishedAfterTradeFinishedIsDuplicate() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_FINISHED")));
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_FINISHED")));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_FINISHED", 100L, t);
    }

    @Test
    void paidOnSuccessWithAnotherTradeNoIsDuplicatePayment() {
        String no = newOrderNo();
        String t = newTradeNo();
        String other = newTradeNo();
        insertOrder(no, 100);
        markPaid(no, t);
        assertOk(postSigned(notice(no, other, "1.00", "TRADE_SUCCESS")));
        assertNotification(lastNotification(no), "ANOMALY", "DUPLICATE_PAYMENT", "TRADE_SUCCESS", 100L, other);
        assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of("DUPLICATE_PAYMENT"));
    }

    @Test
    void paidOnClosedIsPaidAfterClose() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertNotification(lastNotification(no), "ANOMALY", "PAID_AFTER_CLOSE", "TRADE_SUCCESS", 100L, t);
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE"));
    }

    // ---- CLOSE

    @Test
    void closeWithoutOrderIsNoOrder() {
        String no = newOrderNo();
        String t = newTradeNo();
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_CLOSED")));
        assertNotification(lastNotification(no), "IGNORED", "NO_ORDER", "TRADE_CLOSED", 100L, t);
    }

    @Test
    void closeOnPendingIsApplied() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_CLOSED")));
        assertNotification(lastNotification(no), "APPLIED", null, "TRADE_CLOSED", 100L, t);
        // only an applied PAID sets the transaction id and paidAt
        assertOrder(no, "CLOSED", null, null, List.of());
    }

    @Test
    void closeOnSuccessIsClosedAfterPaid() {
        for (boolean sameTrade : new boolean[] {true, false}) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            markPaid(no, t);
            String sent = sameTrade ? t : newTradeNo();
            assertOk(postSigned(notice(no, sent, "1.00", "TRADE_CLOSED")));
            assertNotification(lastNotification(no), "ANOMALY", "CLOSED_AFTER_PAID", "TRADE_CLOSED", 100L, sent);
            assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of("CLOSED_AFTER_PAID"));
        }
    }

    @Test
    void closeOnClosedIsDuplicate() {
        // also when the close came from the merchant API (here: the order row set CLOSED directly)
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_CLOSED")));
        assertNotification(lastNotification(no), "DUPLICATE", null, "TRADE_CLOSED", 100L, t);
        assertOrder(no, "CLOSED", null, null, List.of());
    }

    // ---- REFUND

    static Map<String, String> refund(String no, String t, String status) {
        return with(
                notice(no, t, "1.00", status),
                "refund_fee",
                "1.00",
                "out_biz_no",
                "RF" + no,
                "gmt_refund",
                "2026-01-03 10:00:00.123");
    }

    @Test
    void refundWithoutOrderIsIgnored() {
        String no = newOrderNo();
        String t = newTradeNo();
        assertOk(postSigned(refund(no, t, "TRADE_SUCCESS")));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "TRADE_SUCCESS", 100L, t);
    }

    @Test
    void refundOnPendingIsRefundOnUnpaidNeverPaidOrClosed() {
        for (String status : List.of("TRADE_SUCCESS", "TRADE_CLOSED", "TRADE_FINISHED")) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            assertOk(postSigned(refund(no, t, status)));
            assertNotification(lastNotification(no), "ANOMALY", "REFUND_ON_UNPAID", status, 100L, t);
            assertOrder(no, "PENDING", null, null, List.of("REFUND_ON_UNPAID"));
        }
    }

    @Test
    void eachRefundFieldAloneMakesARefund() {
        for (String[] kv :
                new String[][] {{"refund_fee", "0.01"}, {"out_biz_no", "RF-1"}, {"gmt_refund", "2026-01-03 10:00:00"}
                }) {
            for (String status : List.of("TRADE_SUCCESS", "TRADE_CLOSED")) {
                String no = newOrderNo();
                String t = newTradeNo();
                insertOrder(no, 100);
                assertOk(postSigned(with(notice(no, t, "1.00", status), kv[0], kv[1])));
                assertEquals("REFUND_ON_UNPAID", lastNotification(no).get("reason"), kv[0] + " " + status);
                assertEquals("PENDING", order(no).get("state"));
            }
        }
    }

    @Test
    void refundOnSuccessAndClosedIsIgnored() {
        String paid = newOrderNo();
        String t = newTradeNo();
        insertOrder(paid, 100);
        markPaid(paid, t);
        assertOk(postSigned(refund(paid, t, "TRADE_SUCCESS")));
        assertNotification(lastNotification(paid), "IGNORED", "REFUND", "TRADE_SUCCESS", 100L, t);
        // a full refund closes the trade at Alipay: it must not close the order here
        assertOk(postSigned(refund(paid, t, "TRADE_CLOSED")));
        assertNotification(lastNotification(paid), "IGNORED", "REFUND", "TRADE_CLOSED", 100L, t);
        String other = newTradeNo();
        assertOk(postSigned(refund(paid, other, "TRADE_SUCCESS")));
        assertOrder(paid, "SUCCESS", t, FIXTURE_PAID_AT, List.of());

        String closed = newOrderNo();
        insertOrder(closed, 100);
        markClosed(closed);
        assertOk(postSigned(refund(closed, newTradeNo(), "TRADE_CLOSED")));
        assertEquals("REFUND", lastNotification(closed).get("reason"));
        assertOrder(closed, "CLOSED", null, null, List.of());
    }

    @Test
    void refundFeeZeroAloneIsNotARefund() {
        String paidNo = newOrderNo();
        String t = newTradeNo();
        insertOrder(paidNo, 100);
        assertOk(postSigned(with(notice(paidNo, t, "1.00", "TRADE_SUCCESS"), "refund_fee", "0.00")));
        assertNotification(lastNotification(paidNo), "APPLIED", null, "TRADE_SUCCESS", 100L, t);
        assertOrder(paidNo, "SUCCESS", t, GMT_PAYMENT, List.of());

        String closeNo = newOrderNo();
        insertOrder(closeNo, 100);
        assertOk(postSigned(with(notice(closeNo, newTradeNo(), "1.00", "TRADE_CLOSED"), "refund_fee", "0")));
        assertEquals("APPLIED", lastNotification(closeNo).get("outcome"));
        assertEquals("CLOSED", order(closeNo).get("state"));

        // an empty refund field is absent (and unsigned)
        String emptyNo = newOrderNo();
        insertOrder(emptyNo, 100);
        assertOk(postSigned(with(
                notice(emptyNo, newTradeNo(), "1.00", "TRADE_SUCCESS"),
                "out_biz_no",
                "",
                "gmt_refund",
                "",
                "refund_fee",
                "")));
        assertEquals("SUCCESS", order(emptyNo).get("state"));
    }

    // ---- INFO

    @Test
    void waitBuyerPayIsNoOrderOrNotFinal() {
        String none = newOrderNo();
        assertOk(postSigned(notice(none, newTradeNo(), "1.00", "WAIT_BUYER_PAY")));
        assertNotification(lastNotification(none), "IGNORED", "NO_ORDER", "WAIT_BUYER_PAY", 100L, (String)
                lastNotification(none).get("transaction_id"));

        String pending = newOrderNo();
        String paid = newOrderNo();
        String paidOther = newOrderNo();
        String closed = newOrderNo();
        String t = newTradeNo();
        for (String no : List.of(pending, paid, paidOther, closed)) {
            insertOrder(no, 100);
        }
        markPaid(paid, t);
        markPaid(paidOther, newTradeNo());
        markClosed(closed);
        for (String no : List.of(pending, paid, paidOther, closed)) {
            assertOk(postSigned(notice(no, no.equals(paid) ? t : newTradeNo(), "1.00", "WAIT_BUYER_PAY")));
            assertEquals("IGNORED", lastNotification(no).get("outcome"));
            assertEquals("NOT_FINAL", lastNotification(no).get("reason"));
            assertEquals(List.of(), order(no).get("attention"));
        }
        assertOrder(pending, "PENDING", null, null, List.of());
        assertOrder(paid, "SUCCESS", t, FIXTURE_PAID_AT, List.of());
        assertOrder(closed, "CLOSED", null, null, List.of());
    }

    // ---- UNKNOWN

    @Test
    void unknownStatusesAreAnomaliesWithTheFailureAck() {
        String none = newOrderNo();
        String pending = newOrderNo();
        String paid = newOrderNo();
        String paidOther = newOrderNo();
        String closed = newOrderNo();
        String t = newTradeNo();
        for (String no : List.of(pending, paid, paidOther, closed)) {
            insertOrder(no, 100);
        }
        markPaid(paid, t);
        markPaid(paidOther, newTradeNo());
        markClosed(closed);
        List<String> statuses =
                List.of("TRADE_PENDING", "trade_success", "TRADE_SUCCESS_", "WAIT_SELLER_SEND_GOODS", "Trade_Closed");
        int i = 0;
        for (String no : List.of(none, pending, paid, paidOther, closed)) {
            String status = statuses.get(i++);
            String sent = no.equals(paid) ? t : newTradeNo();
            assertFail(postSigned(notice(no, sent, "1.00", status)), 422);
            assertNotification(lastNotification(no), "ANOMALY", "UNKNOWN_STATUS", status, 100L, sent);
        }
        assertOrder(pending, "PENDING", null, null, List.of("UNKNOWN_STATUS"));
        assertOrder(paid, "SUCCESS", t, FIXTURE_PAID_AT, List.of("UNKNOWN_STATUS"));
        assertOrder(closed, "CLOSED", null, null, List.of("UNKNOWN_STATUS"));
    }

    // ---- precedence

    @Test
    void appIdDifferingFromTheChannelIsAccountMismatch() {
        String no = newOrderNo();
        insertOrder(no, 100);
        assertFail(
                postSigned(with(
                        notice(no, newTradeNo(), "1.00", "TRADE_SUCCESS"),
                        "app_id",
                        TestChannels.ALI_RSA_APPID,
                        "auth_app_id",
                        TestChannels.ALI_RSA_APPID)),
                422);
        assertEquals("ACCOUNT_MISMATCH", lastNotification(no).get("reason"));
        assertOrder(no, "PENDING", null, null, List.of("ACCOUNT_MISMATCH"));
    }

    @Test
    void authAppIdDifferingFromAppIdIsAccountMismatch() {
        String no = newOrderNo();
        insertOrder(no, 100);
        assertFail(
                postSigned(with(notice(no, newTradeNo(), "1.00", "TRADE_SUCCESS"), "auth_app_id", "2021000000000097")),
                422);
        assertEquals("ACCOUNT_MISMATCH", lastNotification(no).get("reason"));
        assertOrder(no, "PENDING", null, null, List.of("ACCOUNT_MISMATCH"));

        // an absent auth_app_id is fine, and without seller-id on the channel any seller_id is
        String fine = newOrderNo();
        String t = newTradeNo();
        insertOrder(fine, 100);
        assertOk(postSigned(
                with(notice(fine, t, "1.00", "TRADE_SUCCESS"), "auth_app_id", null, "seller_id", "2088999999999999")));
        assertOrder(fine, "SUCCESS", t, GMT_PAYMENT, List.of());
    }

    @Test
    void sellerIdIsRequiredAndComparedWhereTheChannelSetsIt() {
        for (String seller : new String[] {null, "", "2088000000000002", "2088000000000001 "}) {
            String no = newOrderNo();
            Db.insertOrder(TestChannels.ALI_RSA, "ALIPAY", no, 100);
            var p = AlipayFixtures.onRsaChannel(notice(no, newTradeNo(), "1.00", "TRADE_SUCCESS"));
            if (seller == null) {
                p.remove("seller_id");
            } else {
                p.put("seller_id", seller);
            }
            var r = post(TestChannels.ALI_RSA, AlipayFixtures.signedBody(p));
            assertFail(r, 422);
            assertEquals("ACCOUNT_MISMATCH", lastNotification(no).get("reason"), "seller_id=" + seller);
            assertOrder(TestChannels.ALI_RSA, no, "PENDING", null, null, List.of("ACCOUNT_MISMATCH"));
        }
        String no = newOrderNo();
        String t = newTradeNo();
        Db.insertOrder(TestChannels.ALI_RSA, "ALIPAY", no, 100);
        assertOk(post(
                TestChannels.ALI_RSA,
                AlipayFixtures.signedBody(AlipayFixtures.onRsaChannel(notice(no, t, "1.00", "TRADE_SUCCESS")))));
        assertOrder(TestChannels.ALI_RSA, no, "SUCCESS", t, GMT_PAYMENT, List.of());
    }

    @Test
    void accountMismatchOverridesEveryClass() {
        for (String status : List.of("TRADE_CLOSED", "WAIT_BUYER_PAY", "TRADE_PENDING")) {
            String no = newOrderNo();
            insertOrder(no, 100);
            assertFail(postSigned(with(notice(no, newTradeNo(), "1.00", status), "auth_app_id", "1")), 422);
            assertEquals("ACCOUNT_MISMATCH", lastNotification(no).get("reason"));
            assertEquals("PENDING", order(no).get("state"));
        }
        String refundNo = newOrderNo();
        insertOrder(refundNo, 100);
        assertFail(postSigned(with(refund(refundNo, newTradeNo(), "TRADE_SUCCESS"), "auth_app_id", "1")), 422);
        assertEquals("ACCOUNT_MISMATCH", lastNotification(refundNo).get("reason"));
    }

    @Test
    void tradeNoOnAnotherOrderWinsOverEveryColumn() {
        String owner = newOrderNo();
        String t = newTradeNo();
        insertOrder(owner, 100);
        assertOk(postSigned(notice(owner, t, "1.00", "TRADE_SUCCESS")));
        String none = newOrderNo();
        String pending = newOrderNo();
        String paid = newOrderNo();
        String closed = newOrderNo();
        insertOrder(pending, 100);
        insertOrder(paid, 100);
        insertOrder(closed, 100);
        String paidT = newTradeNo();
        markPaid(paid, paidT);
        markClosed(closed);
        for (String no : List.of(none, pending, paid, closed)) {
            assertFail(postSigned(notice(no, t, "1.00", "TRADE_FINISHED")), 422);
            assertNotification(
                    lastNotification(no), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "TRADE_FINISHED", 100L, t);
        }
        assertOrder(pending, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        assertOrder(paid, "SUCCESS", paidT, FIXTURE_PAID_AT, List.of("TRANSACTION_ON_OTHER_ORDER"));
        assertOrder(closed, "CLOSED", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        assertOrder(owner, "SUCCESS", t, GMT_PAYMENT, List.of());
        // and ACCOUNT_MISMATCH comes first
        assertFail(postSigned(with(notice(pending, t, "1.00", "TRADE_SUCCESS"), "auth_app_id", "1")), 422);
        assertEquals("ACCOUNT_MISMATCH", lastNotification(pending).get("reason"));
        // a close or refund carrying that trade number is no payment: the matrix decides
        assertOk(postSigned(notice(pending, t, "1.00", "TRADE_CLOSED")));
        assertEquals("APPLIED", lastNotification(pending).get("outcome"));
    }

    // ---- attention and the cap

    @Test
    void attentionIsAppendOnlyWithoutDuplicates() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        markPaid(no, t);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_CLOSED")));
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_CLOSED")));
        assertOrder(no, "SUCCESS", t, FIXTURE_PAID_AT, List.of("CLOSED_AFTER_PAID"));
        assertOk(postSigned(notice(no, newTradeNo(), "3.00", "TRADE_SUCCESS")));
        assertOk(postSigned(notice(no, t, "1.00", "WAIT_BUYER_PAY")));
        assertOk(postSigned(notice(no, newTradeNo(), "1.00", "TRADE_SUCCESS")));
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
                        + " reason, raw_body, received_at) SELECT ?, 'ALIPAY', ?, ?, 'WAIT_BUYER_PAY', 'IGNORED', 'NOT_FINAL',"
                        + " '\\x00'::bytea, now() FROM generate_series(1, 499)",
                TestChannels.ALI,
                no,
                id);
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertOk(postSigned(notice(no, t, "1.00", "TRADE_SUCCESS")));
        assertEquals(500, notifications(no).size());
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
    }
}
