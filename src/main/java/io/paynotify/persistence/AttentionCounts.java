package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The one read behind the attention gauges ({@code io.paynotify.metrics.AttentionMetrics}): how many orders are
 * flagged for attention, by channel and by channel and reason. It walks only flagged orders, through the partial
 * index {@code orders_attention_id_idx} (V4: {@code WHERE attention <> '{}'}), and flagged orders are few.
 *
 * @param byChannel orders whose attention is not empty, by channel name
 * @param byChannelAndReason orders whose attention holds a reason, by channel name and then reason code
 */
public record AttentionCounts(Map<String, Long> byChannel, Map<String, Map<String, Long>> byChannelAndReason) {

    // one statement for both: the grouping set (channel) counts flagged orders, (channel, reason) the orders per reason
    private static final String COUNT = "SELECT o.channel, a.reason, count(DISTINCT o.id) FROM orders o"
            + " CROSS JOIN LATERAL unnest(o.attention) AS a(reason) WHERE o.attention <> '{}'"
            + " GROUP BY GROUPING SETS ((o.channel), (o.channel, a.reason))";

    /** Reads the counts now (a statement of at most 5 s). */
    public static AttentionCounts read(Connection c) throws SQLException {
        Map<String, Long> byChannel = new HashMap<>();
        Map<String, Map<String, Long>> byReason = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(COUNT)) {
            ps.setQueryTimeout(5);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String channel = rs.getString(1);
                    String reason = rs.getString(2);
                    long n = rs.getLong(3);
                    if (reason == null) {
                        byChannel.put(channel, n);
                    } else {
                        byReason.computeIfAbsent(channel, k -> new HashMap<>()).put(reason, n);
                    }
                }
            }
        }
        return new AttentionCounts(byChannel, byReason);
    }
}
