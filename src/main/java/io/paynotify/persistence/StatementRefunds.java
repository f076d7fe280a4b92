package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every statement on {@code statement_refunds}: each day's refund lines per (order, refund number), kept as long as
 * the order (CONTRACT.md §11), for WeChat's "a line of its number in any stored bill" and Alipay's per-order sums.
 */
public final class StatementRefunds {

    private StatementRefunds() {}

    /** One order's refund number with the amount the day's bill gives it. */
    public record Line(String outTradeNo, String outRefundNo, long amount) {}

    /** Replaces the day's refund lines (in the swap's transaction). */
    public static void replaceDay(Connection c, String channel, LocalDate day, List<Line> lines) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM statement_refunds WHERE channel = ? AND bill_date = ?")) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO statement_refunds (channel, bill_date,"
                + " out_trade_no, out_refund_no, amount_minor) VALUES (?, ?, ?, ?, ?)")) {
            for (Line l : lines) {
                ps.setString(1, channel);
                ps.setDate(2, Date.valueOf(day));
                ps.setString(3, l.outTradeNo());
                ps.setString(4, l.outRefundNo());
                ps.setLong(5, l.amount());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The refund numbers of these orders that some stored bill holds, as {@code outTradeNo + '\n' + outRefundNo}. */
    public static Set<String> numbers(Connection c, String channel, List<String> outTradeNos) throws SQLException {
        var out = new java.util.HashSet<String>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT out_trade_no, out_refund_no"
                + " FROM statement_refunds WHERE channel = ? AND out_trade_no = ANY (?)")) {
            ps.setString(1, channel);
            ps.setArray(2, c.createArrayOf("text", outTradeNos.toArray(new String[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + "\n" + rs.getString(2));
                }
            }
        }
        return out;
    }

    /** Each order's refund lines of all stored bills added up, and the newest bill day holding one. */
    public record Sum(long amount, LocalDate lastDay) {}

    /** The sums of these orders' refund lines over all stored bills (orders without any are absent). */
    public static Map<String, Sum> sums(Connection c, String channel, List<String> outTradeNos) throws SQLException {
        var out = new HashMap<String, Sum>();
        try (PreparedStatement ps = c.prepareStatement("SELECT out_trade_no, sum(amount_minor), max(bill_date)"
                + " FROM statement_refunds WHERE channel = ? AND out_trade_no = ANY (?) GROUP BY out_trade_no")) {
            ps.setString(1, channel);
            ps.setArray(2, c.createArrayOf("text", outTradeNos.toArray(new String[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(
                            rs.getString(1),
                            new Sum(rs.getLong(2), rs.getDate(3).toLocalDate()));
                }
            }
        }
        return out;
    }

    /** The order numbers with a refund line in the day's bill. */
    public static List<String> ordersOfDay(Connection c, String channel, LocalDate day) throws SQLException {
        return Rows.list(
                c,
                "SELECT DISTINCT out_trade_no FROM statement_refunds WHERE channel = ? AND bill_date = ?"
                        + " ORDER BY out_trade_no",
                List.of(channel, Date.valueOf(day)),
                rs -> rs.getString(1));
    }
}
