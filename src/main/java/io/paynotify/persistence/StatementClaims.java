package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.UUID;

/**
 * Every statement on {@code statement_claims}: who works on a (channel, billDate) now (CONTRACT.md §11). A claim is
 * taken with {@code SKIP LOCKED} and a lease on PostgreSQL's clock, renewed while the work runs, released at its end;
 * a lapsed lease (a dead replica) may be taken by anyone.
 */
public final class StatementClaims {

    private static final String ENSURE =
            "INSERT INTO statement_claims (channel, bill_date) VALUES (?, ?)" + " ON CONFLICT DO NOTHING";
    private static final String TAKE = "WITH free AS (SELECT channel, bill_date FROM statement_claims"
            + " WHERE channel = ? AND bill_date = ? AND (lease_until IS NULL OR lease_until < now())"
            + " FOR UPDATE SKIP LOCKED)"
            + " UPDATE statement_claims c SET token = ?, lease_until = now() + ?::interval FROM free"
            + " WHERE c.channel = free.channel AND c.bill_date = free.bill_date";
    private static final String RENEW = "UPDATE statement_claims SET lease_until = now() + ?::interval"
            + " WHERE channel = ? AND bill_date = ? AND token = ? AND lease_until >= now()";
    private static final String HOLDS = "SELECT 1 FROM statement_claims WHERE channel = ? AND bill_date = ?"
            + " AND token = ? AND lease_until >= now() FOR UPDATE";
    private static final String RELEASE = "UPDATE statement_claims SET token = null, lease_until = null"
            + " WHERE channel = ? AND bill_date = ? AND token = ?";

    private StatementClaims() {}

    /** Makes sure the day has a claim row (its own short transaction, before {@link #take}). */
    public static void ensure(Connection c, String channel, LocalDate day) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ENSURE)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            ps.executeUpdate();
        }
    }

    /** Takes the day's claim for {@code lease} unless another holds it; whether it was taken. */
    public static boolean take(Connection c, String channel, LocalDate day, UUID token, Duration lease)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(TAKE)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            ps.setObject(3, token);
            ps.setString(4, lease.toMillis() + " milliseconds");
            return ps.executeUpdate() == 1;
        }
    }

    /** Renews a claim still held; false when it lapsed (then another may have taken it). */
    public static boolean renew(Connection c, String channel, LocalDate day, UUID token, Duration lease)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RENEW)) {
            ps.setString(1, lease.toMillis() + " milliseconds");
            ps.setString(2, channel);
            ps.setDate(3, Date.valueOf(day));
            ps.setObject(4, token);
            return ps.executeUpdate() == 1;
        }
    }

    /** In the swap's transaction: whether the claim is still this token's (its row then locked until the commit). */
    public static boolean holds(Connection c, String channel, LocalDate day, UUID token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(HOLDS)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            ps.setObject(3, token);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Releases a claim this token holds. */
    public static void release(Connection c, String channel, LocalDate day, UUID token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RELEASE)) {
            ps.setString(1, channel);
            ps.setDate(2, Date.valueOf(day));
            ps.setObject(3, token);
            ps.executeUpdate();
        }
    }
}
