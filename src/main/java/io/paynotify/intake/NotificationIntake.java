package io.paynotify.intake;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * ({@link Transactions.Retry#ON_CONFLICT}), now seeing the winner.
 *
 * <p>Before taking a pool connection, deliveries for one order also queue on an in-process striped lock. This is
 * not a correctness check (the row lock and the constraints are, across replicas): it keeps a burst of identical
 * retries from parking every pool connection on one row lock while deliveries for other orders wait for a
 * connection.
 */
@ApplicationScoped
public class NotificationIntake {

    /** Deliveries recorded per (channel, outTradeNo); past that they are answered the same way, only counted. */
    public static final int MAX_RECORDED_PER_ORDER = Notifications.MAX_RECORDED_PER_ORDER;

    private static final int STRIPES = 1024;
    /** Below the route's 2.5 s deadline: a delivery that waits longer is answered 503 anyway. */
    private static final long QUEUE_WAIT_MS = 2_000;

    private final Transactions transactions;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    @Inject
    public NotificationIntake(Transactions transactions) {
        this.transactions = transactions;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The result of one intake: the decision and whether the delivery was stored (false past the cap). */
    public record Result(Decision decision, boolean recorded) {}

    /** Too many deliveries for one order are queued in this process: answer 503, the provider retries. */
    public static final class Busy extends RuntimeException {
        Busy() {
            super("too many deliveries queued for one order", null, false, false);
        }
    }

    /**
     * Records one verified notification and applies its decision, in one committed transaction.
     *
     * @throws io.paynotify.persistence.DatabaseUnavailable the database failed or the commit's outcome is unknown
     * @throws Busy the delivery waited too long behind others for the same order
     */
    public Result handle(VerifiedNotification n) {
        ReentrantLock stripe =
                stripes[(n.channel().hashCode() * 31 + n.outTradeNo().hashCode()) & (STRIPES - 1)];
        try {
            if (!stripe.tryLock(QUEUE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                throw new Busy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Busy();
        }
        try {
            return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> decideAndApply(c, n));
        } finally {
            stripe.unlock();
        }
    }

    private static Result decideAndApply(Connection c, VerifiedNotification n) throws SQLException {
        OrderRow order = Orders.lock(c, n.channel(), n.outTradeNo());
        boolean elsewhere = n.notifyClass() == NotifyClass.PAID
                && n.transactionId() != null
                && !n.accountMismatch()
                && Orders.transactionElsewhere(c, n.provider().name(), n.transactionId(), n.channel(), n.outTradeNo());
        Decision d = OrderStateMachine.decide(order == null ? null : order.snapshot(), n, elsewhere);
        boolean recorded = Notifications.insertCapped(c, n, order == null ? null : order.id(), d);
        if (order != null) {
            apply(c, n, order, d);
        }
        return new Result(d, recorded);
    }

    private static void apply(Connection c, VerifiedNotification n, OrderRow order, Decision d) throws SQLException {
        List<String> added = d.addedAttention(order.attention());
        if (d.newState() == null && added.isEmpty()) {
            // a duplicate or an ignored notice: the order stays as it is
            return;
        }
        var attention = new ArrayList<>(order.attention());
        attention.addAll(added);
        Instant now = n.receivedAt();
        if (d.pays()) {
            Instant paidAt = n.paidAt() != null ? n.paidAt() : n.receivedAt();
            Orders.pay(c, order.id(), n.transactionId(), paidAt, n.providerStatus(), attention, now);
        } else if (d.newState() == OrderState.CLOSED) {
            Orders.close(c, order.id(), attention, now);
        } else {
            Orders.flag(c, order.id(), attention, now);
        }
    }
}
