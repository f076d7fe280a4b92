package io.paynotify.intake;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderSnapshot;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.core.order.Reason;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * The one write path for verified notifications: in a single PostgreSQL transaction it locks the order row
 * ({@code SELECT … FOR UPDATE}), asks the pure {@link OrderStateMachine}, inserts the notification row and updates
 * the order, then commits. The caller renders the ack only after this method returned, so a success ack always
 * follows a durable commit; any exception (including one from COMMIT, whose outcome is then unknown) becomes a
 * failure ack.
 *
 * <p>Plain JDBC on purpose: four statements, each visible here, with nothing an ORM could reorder or defer.
 * Concurrent deliveries for one order serialise on the row lock; two orders racing for one transaction id meet
 * the unique constraint on (provider, transaction_id) and the loser is decided again, now seeing the winner.
 *
 * <p>Before taking a pool connection, deliveries for one order also queue on an in-process striped lock. This is
 * not a correctness check (the row lock and the constraints are, across replicas): it keeps a burst of identical
 * retries from parking every pool connection on one row lock while deliveries for other orders wait for a
 * connection.
 */
@ApplicationScoped
public class NotificationIntake {

    /** Deliveries recorded per (channel, outTradeNo); past that they are answered the same way, only counted. */
    public static final int MAX_RECORDED_PER_ORDER = 500;

    private static final int MAX_ATTEMPTS = 3;
    private static final int STRIPES = 1024;
    /** Below the route's 2.5 s deadline: a delivery that waits longer is answered 503 anyway. */
    private static final long QUEUE_WAIT_MS = 2_000;

    private static final String LOCK_ORDER = "SELECT id, state, amount_minor, currency, transaction_id,"
            + " paid_provider_status, attention FROM orders WHERE channel = ? AND out_trade_no = ? FOR UPDATE";
    private static final String TXN_ELSEWHERE = "SELECT 1 FROM orders WHERE provider = ? AND transaction_id = ?"
            + " AND NOT (channel = ? AND out_trade_no = ?) LIMIT 1";
    private static final String INSERT_NOTIFICATION = "INSERT INTO notifications (channel, provider, out_trade_no,"
            + " order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome, reason,"
            + " raw_body, decoded, received_at)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
            + " WHERE (SELECT count(*) FROM (SELECT 1 FROM notifications WHERE channel = ? AND out_trade_no = ?"
            + " LIMIT " + MAX_RECORDED_PER_ORDER + ") recorded) < " + MAX_RECORDED_PER_ORDER;
    private static final String PAY_ORDER = "UPDATE orders SET state = 'SUCCESS', transaction_id = ?, paid_at = ?,"
            + " paid_provider_status = ?, attention = ?, updated_at = ?, version = version + 1"
            + " WHERE id = ? AND state = 'PENDING'";
    private static final String CLOSE_ORDER = "UPDATE orders SET state = 'CLOSED', attention = ?, updated_at = ?,"
            + " version = version + 1 WHERE id = ? AND state = 'PENDING'";
    private static final String FLAG_ORDER =
            "UPDATE orders SET attention = ?, updated_at = ?, version = version + 1 WHERE id = ?";

    private final DataSource dataSource;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    @Inject
    public NotificationIntake(DataSource dataSource) {
        this.dataSource = dataSource;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The result of one intake: the decision and whether the delivery was stored (false past the cap). */
    public record Result(Decision decision, boolean recorded) {}

    /**
     * Records one verified notification and applies its decision, in one committed transaction.
     *
     * @throws SQLException when the database fails or the commit's outcome is unknown: answer 503
     */
    public Result handle(VerifiedNotification n) throws SQLException {
        ReentrantLock stripe =
                stripes[(n.channel().hashCode() * 31 + n.outTradeNo().hashCode()) & (STRIPES - 1)];
        try {
            if (!stripe.tryLock(QUEUE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                throw new SQLException("too many deliveries queued for one order", "55P03");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while queued", "57014");
        }
        try {
            return handleLocked(n);
        } finally {
            stripe.unlock();
        }
    }

    private Result handleLocked(VerifiedNotification n) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                try {
                    Result result = handleIn(c, n);
                    c.commit();
                    return result;
                } catch (SQLException e) {
                    rollbackQuietly(c);
                    if (attempt < MAX_ATTEMPTS && retryable(e)) {
                        continue;
                    }
                    throw e;
                }
            }
        }
    }

    private Result handleIn(Connection c, VerifiedNotification n) throws SQLException {
        Long orderId = null;
        OrderSnapshot order = null;
        List<String> attention = List.of();
        try (PreparedStatement ps = c.prepareStatement(LOCK_ORDER)) {
            ps.setString(1, n.channel());
            ps.setString(2, n.outTradeNo());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    orderId = rs.getLong(1);
                    order = new OrderSnapshot(
                            OrderState.valueOf(rs.getString(2)),
                            rs.getLong(3),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getString(6));
                    Array arr = rs.getArray(7);
                    attention = arr == null ? List.of() : Arrays.asList((String[]) arr.getArray());
                }
            }
        }
        boolean elsewhere = false;
        if (n.notifyClass() == NotifyClass.PAID && n.transactionId() != null && !n.accountMismatch()) {
            try (PreparedStatement ps = c.prepareStatement(TXN_ELSEWHERE)) {
                ps.setString(1, n.provider().name());
                ps.setString(2, n.transactionId());
                ps.setString(3, n.channel());
                ps.setString(4, n.outTradeNo());
                try (ResultSet rs = ps.executeQuery()) {
                    elsewhere = rs.next();
                }
            }
        }
        Decision d = OrderStateMachine.decide(order, n, elsewhere);
        boolean recorded = insertNotification(c, n, orderId, d);
        if (orderId != null) {
            updateOrder(c, n, orderId, d, attention);
        }
        return new Result(d, recorded);
    }

    private static boolean insertNotification(Connection c, VerifiedNotification n, Long orderId, Decision d)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT_NOTIFICATION)) {
            int i = 1;
            ps.setString(i++, n.channel());
            ps.setString(i++, n.provider().name());
            ps.setString(i++, n.outTradeNo());
            if (orderId == null) {
                ps.setNull(i++, Types.BIGINT);
            } else {
                ps.setLong(i++, orderId);
            }
            ps.setString(i++, n.notifyId());
            ps.setString(i++, n.providerStatus());
            ps.setString(i++, n.transactionId());
            if (n.amountMinor() == null) {
                ps.setNull(i++, Types.BIGINT);
            } else {
                ps.setLong(i++, n.amountMinor());
            }
            ps.setString(i++, n.currency());
            ps.setString(i++, d.outcome().name());
            ps.setString(i++, d.reason() == null ? null : d.reason().name());
            ps.setBytes(i++, n.rawBody());
            ps.setString(i++, n.decoded());
            ps.setTimestamp(i++, Timestamp.from(n.receivedAt()));
            ps.setString(i++, n.channel());
            ps.setString(i, n.outTradeNo());
            return ps.executeUpdate() == 1;
        }
    }

    private static void updateOrder(
            Connection c, VerifiedNotification n, long orderId, Decision d, List<String> current) throws SQLException {
        var attention = new ArrayList<>(current);
        for (Reason r : d.attention()) {
            if (!attention.contains(r.name())) {
                attention.add(r.name());
            }
        }
        boolean flagged = attention.size() != current.size();
        if (d.newState() == null && !flagged) {
            // a duplicate or an ignored notice: the order stays as it is, nothing to build or send
            return;
        }
        Timestamp now = Timestamp.from(n.receivedAt());
        Array attentionArray = c.createArrayOf("text", attention.toArray(new String[0]));
        if (d.pays()) {
            try (PreparedStatement ps = c.prepareStatement(PAY_ORDER)) {
                ps.setString(1, n.transactionId());
                ps.setTimestamp(2, Timestamp.from(n.paidAt() != null ? n.paidAt() : n.receivedAt()));
                ps.setString(3, n.providerStatus());
                ps.setArray(4, attentionArray);
                ps.setTimestamp(5, now);
                ps.setLong(6, orderId);
                requireOneRow(ps.executeUpdate());
            }
        } else if (d.newState() == OrderState.CLOSED) {
            try (PreparedStatement ps = c.prepareStatement(CLOSE_ORDER)) {
                ps.setArray(1, attentionArray);
                ps.setTimestamp(2, now);
                ps.setLong(3, orderId);
                requireOneRow(ps.executeUpdate());
            }
        } else if (flagged) {
            try (PreparedStatement ps = c.prepareStatement(FLAG_ORDER)) {
                ps.setArray(1, attentionArray);
                ps.setTimestamp(2, now);
                ps.setLong(3, orderId);
                ps.executeUpdate();
            }
        }
    }

    /** The row is locked, so a conditional update that misses means the lock did not hold: never commit that. */
    private static void requireOneRow(int updated) throws SQLException {
        if (updated != 1) {
            throw new SQLException("order changed under its row lock", "40001");
        }
    }

    /** Unique violation (a transaction id taken concurrently), serialization failure or deadlock: decide again. */
    private static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "40001".equals(state) || "40P01".equals(state);
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the pool discards it and the server rolls back on its own
        }
    }
}
