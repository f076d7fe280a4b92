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
import static io.paynotify.provider.wechatv2.WechatV2Http.post;
import static io.paynotify.provider.wechatv2.WechatV2Http.postSigned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every cell of CONTRACT.md §1's outcome matrix for WeChat Pay v2 over real HTTP and PostgreSQL: ack body and
 * status, the notification row, and the order. WeChat sends no close notices, so the CLOSE row has no v2 cell.
 */
@QuarkusTest
class WechatV2OutcomeMatrixTest {

    static Map<String, String> paid(String no, String txn, long fee) {
        return WechatV2Fixtures.paid(no, txn, fee);
    }

    /** A v2 notice with result_code FAIL (INFO): no transaction_id or total_fee needed. */
    static Map<String, String> info(String no) {
        var f = new LinkedHashMap<>(WechatV2Fixtures.paid(no, "unused", 1));
        f.remove("transaction_id");
        f.remove("total_fee");
        f.remove("cash_fee");
        f.remove("time_end");
        f.put("result_code", "FAIL");
        f.put("err_code", "SYSTEMERROR");
        f.put("err_code_des", "系统错误");
        return f;
    }

    /** A v2 notice with a result_code that is neither SUCCESS nor FAIL (UNKNOWN). */
    static Map<String, String> unknown(String no, String txn) {
        var f = new LinkedHashMap<>(WechatV2Fixtures.paid(no, txn, 100));
        f.put("result_code", "PROCESSING");
        return f;
    }

    static Response refund(String no, String txn, long fee) {
        return post(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(no, txn, fee, "SUCCESS"), TestChannels.WX_KEY))));
    }

    // ---- PAID

    @Test
    void paidWithoutOrderIsUnknownOrder() {
        String no = newOrderNo();
        String txn = newTxn();
        assertAck(postSigned(paid(no, txn, 100)), 422, FAIL_422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "UNKNOWN_ORDER", "SUCCESS", 100L, txn);
        assertNull(row.get("order_id"));
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));
    }

    @Test
    void paidOnPendingIsApplied() {
        String no = newOrderNo();
        String txn = newTxn();
        long id = insertOrder(no, 100);
        assertOk(postSigned(paid(no, txn, 100)));
        var row = lastNotification(no);
        assertNotification(row, "APPLIED", null, "SUCCESS", 100L, txn);
        assertEquals(id, row.get("order_id"));
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of());
        assertEquals("SUCCESS", WechatV2Http.order(no).get("paid_provider_status"));
    }

    @Test
    void paidOnPendingWithAnotherAmountIsAmountMismatch() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        assertAck(postSigned(paid(no, txn, 99)), 422, FAIL_422);
        assertNotification(lastNotification(no), "ANOMALY", "AMOUNT_MISMATCH", "SUCCESS", 99L, txn);
        assertOrder(no, "PENDING", null, null, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void paidOnPendingWithAnotherCurrencyIsAmountMismatch() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("fee_type", "USD");
        assertAck(postSigned(f), 422, FAIL_422);
        var row = lastNotification(no);
        assertNotification(row, "ANOMALY", "AMOUNT_MISMATCH", "SUCCESS", 100L, txn);
        assertEquals("USD", row.get("currency"));
        assertOrder(no, "PENDING", null, null, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void absentFeeTypeIsCny() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.remove("fee_type");
        assertOk(postSigned(f));
        assertEquals("CNY", lastNotification(no).get("currency"));
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of());
    }

    @Test
    void paidOnSuccessWithSameTransactionIsDuplicate() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        assertOk(postSigned(paid(no, txn, 100)));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 100L, txn);
        // paidAt and the transaction id are set only by the applying notice
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of());
    }

    @Test
    void duplicateWithAnotherAmountAddsAmountMismatchToAttention() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        assertOk(postSigned(paid(no, txn, 101)));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 101L, txn);
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void duplicateWithAnotherCurrencyAddsAmountMismatchToAttention() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        var f = paid(no, txn, 100);
        f.put("fee_type", "HKD");
        assertOk(postSigned(f));
        assertNotification(lastNotification(no), "DUPLICATE", null, "SUCCESS", 100L, txn);
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of("AMOUNT_MISMATCH"));
    }

    @Test
    void paidOnSuccessWithAnotherTransactionIsDuplicatePayment() {
        String no = newOrderNo();
        String txn = newTxn();
        String other = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        assertOk(postSigned(paid(no, other, 100)));
        assertNotification(lastNotification(no), "ANOMALY", "DUPLICATE_PAYMENT", "SUCCESS", 100L, other);
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of("DUPLICATE_PAYMENT"));
    }

    @Test
    void paidOnClosedIsPaidAfterClose() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(postSigned(paid(no, txn, 100)));
        assertNotification(lastNotification(no), "ANOMALY", "PAID_AFTER_CLOSE", "SUCCESS", 100L, txn);
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE"));
    }

    @Test
    void paidOnClosedWithAnotherAmountAlsoFlagsAmountMismatch() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(postSigned(paid(no, txn, 5)));
        assertNotification(lastNotification(no), "ANOMALY", "PAID_AFTER_CLOSE", "SUCCESS", 5L, txn);
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE", "AMOUNT_MISMATCH"));
    }

    // ---- REFUND (req_info)

    @Test
    void refundWithoutOrderIsIgnored() {
        String no = newOrderNo();
        String txn = newTxn();
        assertOk(refund(no, txn, 100));
        var row = lastNotification(no);
        assertNotification(row, "IGNORED", "REFUND", "SUCCESS", 100L, txn);
        assertNotNull(row.get("decoded"));
    }

    @Test
    void refundOnPendingIsRefundOnUnpaid() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        assertOk(refund(no, txn, 100));
        assertNotification(lastNotification(no), "ANOMALY", "REFUND_ON_UNPAID", "SUCCESS", 100L, txn);
        assertOrder(no, "PENDING", null, null, List.of("REFUND_ON_UNPAID"));
    }

    @Test
    void refundOnSuccessIsIgnored() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        assertOk(refund(no, txn, 100));
        var row = lastNotification(no);
        assertNotification(row, "IGNORED", "REFUND", "SUCCESS", 100L, txn);
        String decoded = (String) row.get("decoded");
        assertTrue(decoded.contains("\"out_trade_no\":\"" + no + "\""), decoded);
        assertTrue(decoded.contains("\"refund_recv_accout\":\"支付用户零钱\""), decoded);
        assertOrder(no, "SUCCESS", txn, FIXTURE_PAID_AT, List.of());
    }

    @Test
    void refundOnSuccessWithAnotherTransactionIsIgnored() {
        String no = newOrderNo();
        insertOrder(no, 100);
        markPaid(no, newTxn());
        String other = newTxn();
        assertOk(refund(no, other, 100));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "SUCCESS", 100L, other);
        assertEquals("SUCCESS", WechatV2Http.order(no).get("state"));
    }

    @Test
    void refundOnClosedIsIgnored() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(refund(no, txn, 100));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "SUCCESS", 100L, txn);
        assertOrder(no, "CLOSED", null, null, List.of());
    }

    @Test
    void refundStatusIsTheProviderStatus() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        assertOk(post(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(no, txn, 100, "REFUNDCLOSE"), TestChannels.WX_KEY)))));
        assertNotification(lastNotification(no), "IGNORED", "REFUND", "REFUNDCLOSE", 100L, txn);
    }

    // ---- INFO (result_code FAIL)

    @Test
    void infoWithoutOrderIsNoOrder() {
        String no = newOrderNo();
        assertOk(postSigned(info(no)));
        assertNotification(lastNotification(no), "IGNORED", "NO_ORDER", "FAIL", null, null);
    }

    @Test
    void infoOnEveryOrderStateIsNotFinal() {
        String pending = newOrderNo();
        String paid = newOrderNo();
        String paidOther = newOrderNo();
        String closed = newOrderNo();
        String txn = newTxn();
        for (String no : List.of(pending, paid, paidOther, closed)) {
            insertOrder(no, 100);
        }
        markPaid(paid, txn);
        markPaid(paidOther, newTxn());
        markClosed(closed);
        for (String no : List.of(pending, paid, paidOther, closed)) {
            var f = info(no);
            f.put("transaction_id", no.equals(paid) ? txn : newTxn());
            assertOk(postSigned(f));
            assertEquals("IGNORED", lastNotification(no).get("outcome"));
            assertEquals("NOT_FINAL", lastNotification(no).get("reason"));
            assertEquals("FAIL", lastNotification(no).get("provider_status"));
            assertEquals(List.of(), WechatV2Http.order(no).get("attention"));
        }
        assertOrder(pending, "PENDING", null, null, List.of());
        assertOrder(paid, "SUCCESS", txn, FIXTURE_PAID_AT, List.of());
        assertOrder(closed, "CLOSED", null, null, List.of());
    }

    // ---- UNKNOWN

    @Test
    void unknownStatusIsAnAnomalyWithTheFailureAckInEveryColumn() {
        String none = newOrderNo();
        String pending = newOrderNo();
        String paid = newOrderNo();
        String paidOther = newOrderNo();
        String closed = newOrderNo();
        String txn = newTxn();
        for (String no : List.of(pending, paid, paidOther, closed)) {
            insertOrder(no, 100);
        }
        markPaid(paid, txn);
        markPaid(paidOther, newTxn());
        markClosed(closed);
        for (String no : List.of(none, pending, paid, paidOther, closed)) {
            String t = no.equals(paid) ? txn : newTxn();
            assertAck(postSigned(unknown(no, t)), 422, FAIL_422);
            assertNotification(lastNotification(no), "ANOMALY", "UNKNOWN_STATUS", "PROCESSING", 100L, t);
        }
        assertOrder(pending, "PENDING", null, null, List.of("UNKNOWN_STATUS"));
        assertOrder(paid, "SUCCESS", txn, FIXTURE_PAID_AT, List.of("UNKNOWN_STATUS"));
        assertOrder(closed, "CLOSED", null, null, List.of("UNKNOWN_STATUS"));
    }

    @Test
    void resultCodeIsMatchedCaseSensitively() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        var f = paid(no, txn, 100);
        f.put("result_code", "success");
        assertAck(postSigned(f), 422, FAIL_422);
        assertNotification(lastNotification(no), "ANOMALY", "UNKNOWN_STATUS", "success", 100L, txn);
        assertOrder(no, "PENDING", null, null, List.of("UNKNOWN_STATUS"));
    }

    // ---- precedence: ACCOUNT_MISMATCH, then TRANSACTION_ON_OTHER_ORDER

    @Test
    void accountMismatchOverridesTheMatrix() {
        String secondAppidOrder = newOrderNo();
        insertOrder(secondAppidOrder, 100);
        var second = paid(secondAppidOrder, newTxn(), 100);
        second.put("appid", TestChannels.WX_APPID_2);
        // both appids of the channel are accepted
        assertOk(postSigned(second));

        List<Map<String, String>> mismatches = List.of(
                with(paid(newOrderNo(), newTxn(), 100), "appid", "wxffffffffffffffff"),
                with(paid(newOrderNo(), newTxn(), 100), "appid", TestChannels.WX_HMAC_APPID),
                with(paid(newOrderNo(), newTxn(), 100), "mch_id", "10000101"),
                with(paid(newOrderNo(), newTxn(), 100), "sub_mch_id", "1900000109"),
                with(paid(newOrderNo(), newTxn(), 100), "sub_appid", TestChannels.WX_APPID),
                with(info(newOrderNo()), "mch_id", TestChannels.WX_HMAC_MCH));
        for (Map<String, String> f : mismatches) {
            String no = f.get("out_trade_no");
            insertOrder(no, 100);
            assertAck(postSigned(f), 422, FAIL_422);
            var row = lastNotification(no);
            assertEquals("ANOMALY", row.get("outcome"));
            assertEquals("ACCOUNT_MISMATCH", row.get("reason"));
            assertOrder(no, "PENDING", null, null, List.of("ACCOUNT_MISMATCH"));
        }
    }

    @Test
    void accountMismatchOnARefundNotice() {
        String no = newOrderNo();
        String txn = newTxn();
        insertOrder(no, 100);
        markPaid(no, txn);
        var f = WechatV2Fixtures.refundNotice(WechatV2Fixtures.encryptReqInfo(
                WechatV2Fixtures.refundInfo(no, txn, 100, "SUCCESS"), TestChannels.WX_KEY));
        f.put("mch_id", "10000101");
        assertAck(post(WechatV2Fixtures.body(f)), 422, FAIL_422);
        assertNotification(lastNotification(no), "ANOMALY", "ACCOUNT_MISMATCH", "SUCCESS", 100L, txn);
    }

    @Test
    void accountMismatchComesBeforeTransactionOnOtherOrder() {
        String first = newOrderNo();
        String txn = newTxn();
        insertOrder(first, 100);
        assertOk(postSigned(paid(first, txn, 100)));
        String second = newOrderNo();
        insertOrder(second, 100);
        assertAck(postSigned(with(paid(second, txn, 100), "sub_mch_id", "1")), 422, FAIL_422);
        assertEquals("ACCOUNT_MISMATCH", lastNotification(second).get("reason"));
    }

    @Test
    void transactionOnAnotherOrderWinsOverEveryColumn() {
        String owner = newOrderNo();
        String txn = newTxn();
        insertOrder(owner, 100);
        assertOk(postSigned(paid(owner, txn, 100)));

        String none = newOrderNo();
        String pending = newOrderNo();
        String paid = newOrderNo();
        String closed = newOrderNo();
        insertOrder(pending, 100);
        insertOrder(paid, 100);
        insertOrder(closed, 100);
        String paidTxn = newTxn();
        markPaid(paid, paidTxn);
        markClosed(closed);
        for (String no : List.of(none, pending, paid, closed)) {
            assertAck(postSigned(paid(no, txn, 100)), 422, FAIL_422);
            assertNotification(lastNotification(no), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "SUCCESS", 100L, txn);
        }
        assertOrder(pending, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        assertOrder(paid, "SUCCESS", paidTxn, FIXTURE_PAID_AT, List.of("TRANSACTION_ON_OTHER_ORDER"));
        assertOrder(closed, "CLOSED", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));
        // the owner is untouched
        assertOrder(owner, "SUCCESS", txn, TIME_END, List.of());
    }

    @Test
    void aTransactionIdIsUniqueAcrossTheProvidersChannels() {
        // the transaction id sits on an order of another v2 channel: still another order of the provider
        String owner = newOrderNo();
        String txn = newTxn();
        Db.insertOrder(TestChannels.WX_HMAC, "WECHATPAY_V2", owner, 100);
        Db.update(
                "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = now() WHERE channel = ? AND"
                        + " out_trade_no = ?",
                txn,
                TestChannels.WX_HMAC,
                owner);
        String no = newOrderNo();
        insertOrder(no, 100);
        assertAck(postSigned(paid(no, txn, 100)), 422, FAIL_422);
        assertNotification(lastNotification(no), "ANOMALY", "TRANSACTION_ON_OTHER_ORDER", "SUCCESS", 100L, txn);
        assertOrder(no, "PENDING", null, null, List.of("TRANSACTION_ON_OTHER_ORDER"));

        // the same number on another provider's order is no conflict
        String ali = newOrderNo();
        String shared = newTxn();
        Db.insertOrder(TestChannels.ALI, "ALIPAY", ali, 100);
        Db.update(
                "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = now() WHERE channel = ? AND"
                        + " out_trade_no = ?",
                shared,
                TestChannels.ALI,
                ali);
        String mine = newOrderNo();
        insertOrder(mine, 100);
        assertOk(postSigned(paid(mine, shared, 100)));
        assertOrder(mine, "SUCCESS", shared, TIME_END, List.of());
    }

    // ---- attention and the per-order cap

    @Test
    void attentionIsAppendOnlyWithoutDuplicates() {
        String no = newOrderNo();
        insertOrder(no, 100);
        markClosed(no);
        assertOk(postSigned(paid(no, newTxn(), 100)));
        assertOk(postSigned(paid(no, newTxn(), 100)));
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE"));
        assertAck(postSigned(unknown(no, newTxn())), 422, FAIL_422);
        assertOk(postSigned(paid(no, newTxn(), 7)));
        assertOk(refund(no, newTxn(), 100));
        assertOrder(no, "CLOSED", null, null, List.of("PAID_AFTER_CLOSE", "UNKNOWN_STATUS", "AMOUNT_MISMATCH"));
        assertEquals(5, notifications(no).size());
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

        assertOk(postSigned(paid(no, txn, 100)));
        assertEquals(500, notifications(no).size());
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of());

        assertOk(postSigned(paid(no, txn, 100)));
        assertOk(postSigned(paid(no, txn, 100)));
        assertAck(postSigned(unknown(no, txn)), 422, FAIL_422);
        assertEquals(500, notifications(no).size());
        assertEquals(
                0, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'DUPLICATE'", no));
        // the decision still applies to the order: the anomaly is flagged even though it is not recorded
        assertOrder(no, "SUCCESS", txn, TIME_END, List.of("UNKNOWN_STATUS"));
    }

    static Map<String, String> with(Map<String, String> f, String key, String value) {
        var copy = new LinkedHashMap<>(f);
        copy.put(key, value);
        return copy;
    }
}
