package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ledger's totals of a statement's day, shown next to the bill's (docs/api.md "Statements", {@code ledger}): the
 * channel's orders paid in the day ({@code paid_at}) and its refunds that succeeded in it ({@code succeeded_at}),
 * computed live at each read. The one read of {@code orders} and {@code refunds} by time outside {@link Orders} and
 * {@link Refunds}, served by V18's indexes (index-only: they include {@code amount_minor}).
 */
public final class StatementLedger {

    /**
     * One statement for a whole page: each (channel, day) of the arrays with its two sums, through V18's indexes.
     * The days' bounds come from the caller (Beijing midnights), as the comparison's windows do.
     */
    private static final String TOTALS = "SELECT k.i, o.n, o.s, r.n, r.s"
            + " FROM unnest(?::int4[], ?::varchar[], ?::timestamptz[], ?::timestamptz[]) AS k(i, channel, since, until)"
            + " CROSS JOIN LATERAL (SELECT count(*) AS n, coalesce(sum(amount_minor), 0) AS s FROM orders"
            + " WHERE channel = k.channel AND paid_at >= k.since AND paid_at < k.until) o"
            + " CROSS JOIN LATERAL (SELECT count(*) AS n, coalesce(sum(amount_minor), 0) AS s FROM refunds"
            + " WHERE channel = k.channel AND status = 'SUCCESS' AND succeeded_at >= k.since"
            + " AND succeeded_at < k.until) r";

    private StatementLedger() {}

    /** A day of a channel, from its first instant (inclusive) to the next day's (exclusive). */
    public record Day(String channel, LocalDate billDate, Instant since, Instant until) {}

    /** The ledger's payments (orders paid in the day) and refunds (succeeded in it): counts and fen. */
    public record Totals(long paymentCount, long paymentAmount, long refundCount, long refundAmount) {}

    /** The totals of each day, keyed by the day as given. */
    public static Map<Day, Totals> totals(Connection c, List<Day> days) throws SQLException {
        var out = new HashMap<Day, Totals>();
        if (days.isEmpty()) {
            return out;
        }
        int n = days.size();
        Integer[] index = new Integer[n];
        String[] channel = new String[n];
        String[] since = new String[n];
        String[] until = new String[n];
        for (int i = 0; i < n; i++) {
            Day d = days.get(i);
            index[i] = i;
            channel[i] = d.channel();
            since[i] = d.since().toString();
            until[i] = d.until().toString();
        }
        try (PreparedStatement ps = c.prepareStatement(TOTALS)) {
            ps.setArray(1, c.createArrayOf("int4", index));
            ps.setArray(2, c.createArrayOf("varchar", channel));
            // ISO instants ("2026-12-01T16:00:00Z"), exact whatever the JVM's or the session's time zone
            ps.setArray(3, c.createArrayOf("text", since));
            ps.setArray(4, c.createArrayOf("text", until));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(
                            days.get(rs.getInt(1)),
                            new Totals(rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
                }
            }
        }
        return out;
    }
}
