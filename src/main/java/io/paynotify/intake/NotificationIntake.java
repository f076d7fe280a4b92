package io.paynotify.intake;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.core.order.RefundSnapshot;
import io.paynotify.events.EventOutbox;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.RefundRow;
import io.paynotify.persistence.Refunds;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one write path for verified notifications: in a single PostgreSQL transaction it locks the order row
 * ({@code SELECT … FOR UPDATE}), asks the pure {@link OrderStateMachine}, inserts the notification row and updates
 * the order, then commits. The caller renders the ack only after this method returned, so a success ack always
 * follows a durable commit; any exception (including one from COMMIT, whose outcome is then unknown) becomes a
 * failure ack.
 *
 * <p>Concurrent deliveries for one order serialise on the row lock; two orders racing for one transaction id meet
 * the unique constraint on (provider, transaction_id), and the loser's transaction runs again
 * ({@link Transactions.Retry#ON_CONFLICT}), now seeing the winner. These are the only exactly-once mechanisms; what
 * follows only protects the service from floods and never decides an outcome.
 *
 * <ul>
 *   <li><b>Per-order admission.</b> v2 and Alipay notices carry no timestamp, so one captured genuine body can be
 *       replayed without end. At most {@link #MAX_PER_ORDER} deliveries of one order are admitted in this process
 *       (one working, the rest queued on an in-process lock without a pool connection); the next is refused at once
 *       ({@link Busy}, a 503: the provider retries).
 *   <li><b>Deadline.</b> A delivery still queued when its answer's deadline passes is dropped before it touches
 *       the database ({@link Expired}); its 503 has already left.
 *   <li><b>Past the per-order cap.</b> Once an order has {@link #MAX_RECORDED_PER_ORDER} recorded deliveries,
 *       further ones are only counted. An order known to be at the cap is first decided on a plain read; a decision
 *       that changes nothing is answered from that read without a write transaction. Any decision that would change
 *       the order still runs the locked transaction, so replays can never silence a later genuine notice.
 * </ul>
 */
@ApplicationScoped
public class NotificationIntake {

    /** Deliveries recorded per (channel, outTradeNo); past that they are answered the same way, only counted. */
    public static final int MAX_RECORDED_PER_ORDER = Notifications.MAX_RECORDED_PER_ORDER;

    /** Deliveries of one order admitted at once in this process: one working and a handful waiting. */
    public static final int MAX_PER_ORDER = 5;

    private static final int STRIPES = 1024;

    private final Transactions transactions;
    private final IntakeFaults faults;
    private final EventOutbox outbox;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final ConcurrentHashMap<String, Integer> admitted = new ConcurrentHashMap<>();
    private final CappedOrders capped = new CappedOrders();

    @Inject
    public NotificationIntake(Transactions transactions, IntakeFaults faults, EventOutbox outbox) {
        this.transactions = transactions;
        this.faults = faults;
        this.outbox = outbox;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /**
     * The result of one intake.
     *
     * @param decision what the state machine decided
     * @param recorded whether the delivery was stored (false past the per-order cap)
     * @param events how many merchant events the decision wrote (docs/api.md "Merchant events")
     * @param notificationId the id of the recorded notification row, or null when it was not recorded
     */
    public record Result(Decision decision, boolean recorded, int events, Long notificationId) {}

    /** Too many deliveries of one order are in this process already: answer 503 at once; the provider retries. */
    public static final class Busy extends RuntimeException {
        Busy() {
            super("too many deliveries of one order in flight", null, false, false);
        }
    }

    /** The answer's deadline passed while the delivery waited: it was dropped before touching the database. */
    public static final class Expired extends RuntimeException {
        Expired() {
            super("deadline passed before the delivery's turn", null, false, false);
        }
    }

    /**
     * Records one verified notification and applies its decision, in one committed transaction.
     *
     * @param deadlineNanos the {@link System#nanoTime()} after which the answer has left already
     * @throws io.paynotify.persistence.DatabaseUnavailable the database failed or the commit's outcome is unknown
     * @throws Busy too many deliveries of this order are in flight
     * @throws Expired the deadline passed before the delivery's turn
     */
    public Result handle(VerifiedNotification n, long deadlineNanos) {
        return handle(n, Source.NOTIFY, deadlineNanos);
    }

    /**
     * Records one verified notification or active-query answer ({@code source}) and applies its decision, exactly
     * as {@link #handle(VerifiedNotification, long)} does.
     */
    public Result handle(VerifiedNotification n, Source source, long deadlineNanos) {
        String key = n.channel() + '\n' + n.outTradeNo();
        if (!admit(key)) {
            throw new Busy();
        }
        try {
            ReentrantLock stripe = stripes[key.hashCode() & (STRIPES - 1)];
            if (!lockBefore(stripe, deadlineNanos)) {
                throw new Expired();
            }
            try {
                if (System.nanoTime() - deadlineNanos >= 0) {
                    throw new Expired();
                }
                if (capped.contains(key)) {
                    Result answered = decideOnRead(n);
                    if (answered != null) {
                        return answered;
                    }
                }
                Result result =
                        transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> decideAndApply(c, n, source));
                if (!result.recorded()) {
                    capped.add(key);
                }
                if (result.events() > 0) {
                    outbox.wake();
                }
                return result;
            } finally {
                stripe.unlock();
            }
        } finally {
            release(key);
        }
    }

    private boolean admit(String key) {
        boolean[] in = {false};
        admitted.compute(key, (k, v) -> {
            int now = v == null ? 0 : v;
            if (now >= MAX_PER_ORDER) {
                return v;
            }
            in[0] = true;
            return now + 1;
        });
        return in[0];
    }

    private void release(String key) {
        admitted.compute(key, (k, v) -> v == null || v <= 1 ? null : v - 1);
    }

    private static boolean lockBefore(ReentrantLock lock, long deadlineNanos) {
        try {
            return lock.tryLock(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * For an order at the cap: decides on a plain read (no lock, no transaction). Returns the result when the
     * decision changes nothing (nothing would be written: the row is past the cap), else null for the locked path.
     */
    private Result decideOnRead(VerifiedNotification n) {
        return transactions.autoCommit(c -> {
            OrderRow order = Orders.find(c, n.channel(), n.outTradeNo());
            if (order == null) {
                return null;
            }
            Decision d = OrderStateMachine.decide(order.snapshot(), refund(c, order, n), n, transactionElsewhere(c, n));
            return d.changesNothing(order.attention()) ? new Result(d, false, 0, null) : null;
        });
    }

    private Result decideAndApply(Connection c, VerifiedNotification n, Source source) throws SQLException {
        OrderRow order = Orders.lock(c, n.channel(), n.outTradeNo());
        Decision d = OrderStateMachine.decide(
                order == null ? null : order.snapshot(), refund(c, order, n), n, transactionElsewhere(c, n));
        Long notificationId = Notifications.insertCapped(c, n, source, order == null ? null : order.id(), d);
        faults.afterNotificationInsert(n);
        int events = 0;
        if (order != null) {
            List<String> added = d.addedAttention(order.attention());
            apply(c, n, order, d);
            // in this transaction: the events exist if and only if the change commits
            events = outbox.afterDecision(c, n.channel(), n.outTradeNo(), d, added);
        }
        return new Result(d, notificationId != null, events, notificationId);
    }

    /** The refund a REFUND notice names, as it stands (protected by the order's row lock), or null. */
    private static RefundSnapshot refund(Connection c, OrderRow order, VerifiedNotification n) throws SQLException {
        if (order == null || n.refund() == null || !n.refund().identified()) {
            return null;
        }
        RefundRow row = Refunds.find(c, n.channel(), n.outTradeNo(), n.refund().outRefundNo());
        return row == null ? null : row.snapshot();
    }

    private static boolean transactionElsewhere(Connection c, VerifiedNotification n) throws SQLException {
        return n.notifyClass() == NotifyClass.PAID
                && n.transactionId() != null
                && !n.accountMismatch()
                && Orders.transactionElsewhere(c, n.provider().name(), n.transactionId(), n.channel(), n.outTradeNo());
    }

    private static void apply(Connection c, VerifiedNotification n, OrderRow order, Decision d) throws SQLException {
        if (d.changesNothing(order.attention())) {
            // a duplicate or an ignored notice: the order stays as it is
            return;
        }
        var attention = new ArrayList<>(order.attention());
        attention.addAll(d.addedAttention(order.attention()));
        Instant now = n.receivedAt();
        if (d.refund() != null) {
            Refunds.apply(c, order.id(), n.channel(), n.outTradeNo(), d.refund(), now);
            Orders.refund(c, order.id(), d.newState(), d.refundedAmount(), attention, now);
        } else if (d.pays()) {
            Instant paidAt = n.paidAt() != null ? n.paidAt() : n.receivedAt();
            Orders.pay(c, order.id(), n.transactionId(), paidAt, n.providerStatus(), attention, now);
        } else if (d.newState() == OrderState.CLOSED) {
            Orders.close(c, order.id(), attention, now);
        } else {
            Orders.flag(c, order.id(), attention, now);
        }
    }

    /** For tests: forget which orders are known to be at the cap. */
    void forgetCapped() {
        capped.clear();
    }
}
