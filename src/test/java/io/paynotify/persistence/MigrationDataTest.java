package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.MigrationSandbox;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Migrations on a database that already holds data: each test migrates a schema of its own up to an older version,
 * puts rows of that schema in place, runs the remaining migrations and checks what they made of the rows.
 */
@QuarkusTest
class MigrationDataTest {

    @Test
    void refundsRecordedBeforeV9TakeTheirAmountFromTheirNewestNotice() throws Exception {
        try (var db = MigrationSandbox.create().migrateTo("8")) {
            db.execute(
                    "INSERT INTO orders (channel, out_trade_no, provider, amount_minor, currency, state, transaction_id,"
                            + " paid_at, refunded_minor, created_at, updated_at) VALUES"
                            + " ('wx', 'O1', 'WECHATPAY_V2', 1000, 'CNY', 'PARTIALLY_REFUNDED', 'T1', now(), 300,"
                            + " now(), now()),"
                            + " ('wx3', 'O2', 'WECHATPAY_V3', 1000, 'CNY', 'SUCCESS', 'T2', now(), 0, now(), now())",
                    // O1: R1 succeeded (300), R2 became ABNORMAL (CHANGE, 200), R3 was closed by a notice without
                    // refund_fee; O2: R4 PROCESSING (400), then CLOSED (400)
                    "INSERT INTO refunds (order_id, channel, out_trade_no, out_refund_no, refund_id, amount_minor,"
                            + " status, succeeded_at, created_at, updated_at) VALUES"
                            + " (1, 'wx', 'O1', 'R1', 'RID1', 300, 'SUCCESS', now(), now(), now()),"
                            + " (1, 'wx', 'O1', 'R2', 'RID2', 0, 'ABNORMAL', null, now(), now()),"
                            + " (1, 'wx', 'O1', 'R3', 'RID3', 0, 'CLOSED', null, now(), now()),"
                            + " (2, 'wx3', 'O2', 'R4', 'RID4', 0, 'CLOSED', null, now(), now())",
                    "INSERT INTO notifications (channel, provider, out_trade_no, order_id, provider_status,"
                            + " amount_minor, outcome, reason, raw_body, decoded, received_at) VALUES"
                            + notice("wx", "WECHATPAY_V2", "O1", 1, "SUCCESS", "300", "APPLIED", "R1") + ","
                            + notice("wx", "WECHATPAY_V2", "O1", 1, "CHANGE", "200", "ANOMALY", "R2") + ","
                            + notice("wx", "WECHATPAY_V2", "O1", 1, "REFUNDCLOSE", "null", "APPLIED", "R3") + ","
                            + notice("wx3", "WECHATPAY_V3", "O2", 2, "PROCESSING", "400", "IGNORED", "R4") + ","
                            + notice("wx3", "WECHATPAY_V3", "O2", 2, "CLOSED", "400", "APPLIED", "R4") + ","
                            // a payment notice: its decoded resource names no refund, its amount is the trade's
                            + " ('wx3', 'WECHATPAY_V3', 'O2', 2, 'SUCCESS', 1000, 'APPLIED', null, '\\x00'::bytea,"
                            + " '{\"out_trade_no\":\"O2\"}', now())");
            db.migrateAll();
            assertEquals(
                    Map.of("R1", 300L, "R2", 200L, "R3", 0L, "R4", 400L),
                    amounts(db),
                    "a SUCCESS refund is untouched; the others take the newest stated amount; none stated stays 0");
        }
    }

    private static String notice(
            String channel,
            String provider,
            String no,
            int orderId,
            String status,
            String amount,
            String outcome,
            String outRefundNo) {
        String reason =
                outcome.equals("APPLIED") ? "null" : "'" + (outcome.equals("IGNORED") ? "NOT_FINAL" : "X") + "'";
        return " ('" + channel + "', '" + provider + "', '" + no + "', " + orderId + ", '" + status + "', " + amount
                + ", '" + outcome + "', " + reason + ", '\\x00'::bytea, '{\"out_trade_no\":\"" + no
                + "\",\"out_refund_no\":\"" + outRefundNo + "\"}', now())";
    }

    private static Map<String, Long> amounts(MigrationSandbox db) throws Exception {
        var out = new LinkedHashMap<String, Long>();
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT out_refund_no, amount_minor FROM refunds ORDER BY id")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }
}
