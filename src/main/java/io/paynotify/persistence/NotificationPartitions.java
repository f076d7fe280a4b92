package io.paynotify.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The monthly partitions of {@code notifications} (V15) and the statements of their retention: creating the next
 * months ahead, dropping whole partitions past {@code paynotify.notifications.retention}, erasing the personal data
 * of rows past {@code paynotify.notifications.personal-data-retention}.
 *
 * <p>A partition's bounds are in its name, which only this class and V15 give: {@code notifications_YYYY_MM} holds
 * that UTC month, {@code notifications_until_YYYY_MM} (the table that held the rows before V15) everything before that
 * month. A child table of another name is never created over nor dropped.
 *
 * <p>Creating and dropping run under one transaction-scoped advisory lock ({@link #LOCK}), so replicas running them at
 * the same moment take turns and the later ones find the work done; a transaction-scoped lock holds nothing across
 * transactions, which keeps it correct behind PgBouncer in transaction pooling mode.
 */
public final class NotificationPartitions {

    /** The advisory lock key of partition maintenance ("pnparts" in ASCII). */
    static final long LOCK = 0x706e7061727473L;

    /** Rows one erasure statement changes at most. */
    public static final int ERASE_BATCH = 1000;

    private static final Pattern MONTH = Pattern.compile("notifications_(until_)?(\\d{4})_(\\d{2})");

    private static final String CHILDREN = "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            + " WHERE i.inhparent = 'notifications'::regclass";

    /**
     * Erases the bodies and decoded texts of the oldest rows received before the cutoff and not erased yet, the
     * body's hash with them; a row skipped because another replica holds it is taken by the next statement.
     */
    private static final String ERASE = "UPDATE notifications n SET raw_body = NULL, raw_body_sha256 = NULL,"
            + " decoded = NULL, personal_data_erased_at = now()"
            + " FROM (SELECT id, received_at FROM notifications WHERE personal_data_erased_at IS NULL"
            + " AND received_at < ? ORDER BY received_at LIMIT " + ERASE_BATCH + " FOR UPDATE SKIP LOCKED) old"
            + " WHERE n.id = old.id AND n.received_at = old.received_at";

    /**
     * One partition.
     *
     * @param name its table name
     * @param from its first instant, or null for the first partition (MINVALUE)
     * @param to the instant after its last
     */
    public record Partition(String name, Instant from, Instant to) {}

    private NotificationPartitions() {}

    /** The partitions of {@code notifications} whose names this class gave, oldest first. */
    public static List<Partition> list(Connection c) throws SQLException {
        var out = new ArrayList<Partition>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(CHILDREN)) {
            while (rs.next()) {
                Partition p = parse(rs.getString(1));
                if (p != null) {
                    out.add(p);
                }
            }
        }
        out.sort(Comparator.comparing(Partition::to));
        return out;
    }

    /** The partition a table name stands for, or null when the name is not one this class gives. */
    static Partition parse(String name) {
        Matcher m = MONTH.matcher(name);
        if (!m.matches()) {
            return null;
        }
        YearMonth month = YearMonth.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        Instant start = start(month);
        return m.group(1) != null
                ? new Partition(name, null, start)
                : new Partition(name, start, start(month.plusMonths(1)));
    }

    /** The first instant of a UTC month. */
    static Instant start(YearMonth month) {
        return month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /**
     * Creates the partition of the month of {@code now} and of the {@code ahead} months after it, where no partition
     * covers them yet. Runs in the caller's transaction, which it first makes wait for the advisory lock.
     *
     * @return the names of the partitions created (empty when another caller had created them)
     */
    public static List<String> createAhead(Connection c, Instant now, int ahead) throws SQLException {
        lock(c, "2s");
        List<Partition> existing = list(c);
        var created = new ArrayList<String>();
        YearMonth first = YearMonth.from(now.atOffset(ZoneOffset.UTC));
        for (int i = 0; i <= ahead; i++) {
            YearMonth month = first.plusMonths(i);
            Instant from = start(month);
            Instant to = start(month.plusMonths(1));
            boolean covered = existing.stream()
                    .anyMatch(p -> (p.from() == null || p.from().isBefore(to)) && p.to().isAfter(from));
            if (covered) {
                continue;
            }
            String name = String.format("notifications_%04d_%02d", month.getYear(), month.getMonthValue());
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + name + " PARTITION OF notifications FOR VALUES FROM ('" + from + "') TO ('"
                        + to + "')");
            }
            created.add(name);
        }
        return created;
    }

    /**
     * Drops every partition whose rows are all older than the cutoff (its upper bound is at or before it), under the
     * advisory lock and a short lock timeout: a drop waits for the parent's exclusive lock, during which new inserts
     * wait too, so it gives up after 500 ms (the next run tries again) rather than hold up the intake.
     *
     * @return the names of the partitions dropped
     */
    public static List<String> dropBefore(Connection c, Instant cutoff) throws SQLException {
        lock(c, "500ms");
        var dropped = new ArrayList<String>();
        for (Partition p : list(c)) {
            if (!p.to().isAfter(cutoff)) {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE " + p.name());
                }
                dropped.add(p.name());
            }
        }
        return dropped;
    }

    /**
     * One erasure statement (autocommit): the raw bodies, their hashes and the decoded texts of at most
     * {@link #ERASE_BATCH} rows received before the cutoff, oldest first.
     *
     * @return the rows erased; 0 when none is left
     */
    public static int eraseBefore(Connection c, Instant cutoff) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ERASE)) {
            ps.setTimestamp(1, Timestamp.from(cutoff));
            return ps.executeUpdate();
        }
    }

    private static void lock(Connection c, String lockTimeout) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL lock_timeout = '" + lockTimeout + "'");
            s.execute("SET LOCAL statement_timeout = '10s'");
            s.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
        }
    }
}
