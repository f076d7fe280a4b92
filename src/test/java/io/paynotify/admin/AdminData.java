package io.paynotify.admin;

import io.paynotify.testing.Db;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

/**
 * Arranges admin test rows directly in the run's database (the admin API only reads); orders come from
 * {@link io.paynotify.testing.OrderBuilder}.
 */
final class AdminData {

    static final String AUTH = "Bearer " + io.paynotify.testing.TestChannels.ADMIN_TOKEN;

    private AdminData() {}

    /** A channel name no other test uses, so filtered lists see only this test's rows. */
    static String channel(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A notification row as the intake would write it; returns its id. */
    static long notification(
            String channel, String outTradeNo, String outcome, String reason, byte[] body, String decoded) {
        try (Connection c = Db.connect();
                PreparedStatement ps = c.prepareStatement("INSERT INTO notifications (channel, provider, out_trade_no,"
                        + " provider_status, transaction_id, amount_minor, currency, outcome, reason, raw_body, decoded,"
                        + " received_at) VALUES (?, 'WECHATPAY_V2', ?, 'SUCCESS', ?, 100, 'CNY', ?, ?, ?, ?, ?)"
                        + " RETURNING id")) {
            ps.setString(1, channel);
            ps.setString(2, outTradeNo);
            ps.setString(3, "4200" + Math.abs(outTradeNo.hashCode()));
            ps.setString(4, outcome);
            ps.setString(5, reason);
            ps.setBytes(6, body);
            ps.setString(7, decoded);
            ps.setTimestamp(8, Timestamp.from(Instant.parse("2026-01-02T03:04:05.123Z")));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static long notification(String channel, String outTradeNo, String outcome, String reason) {
        return notification(
                channel,
                outTradeNo,
                outcome,
                reason,
                ("<xml><out_trade_no>" + outTradeNo + "</out_trade_no></xml>").getBytes(StandardCharsets.UTF_8),
                null);
    }
}
