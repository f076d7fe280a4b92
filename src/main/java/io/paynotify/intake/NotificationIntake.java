package io.paynotify.intake;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.OrderStateMachine;
import io.paynotify.core.order.RefundSnapshot;
import io.paynotify.events.EventOutbox;
import io.paynotify.metrics.NotifyMetrics;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.RefundRow;
import io.paynotify.persistence.Refunds;
import io.paynotify.persistence.Transactions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import org.jboss.logging.Logger;

/**
 * The one write path for verified notifications. Each one is decided under its order's row lock
 * ({@code SELECT … FOR UPDATE}) by the pure {@link OrderStateMachine}; its notification row, the order's change and
 * its merchant events are written, and the caller answers only after the COMMIT that holds them returned, so a success
 * ack always follows a durable commit; any exception (including one from COMMIT, whose outcome is then unknown)
 * becomes a failure ack.
 *
 * <p><b>Group commit.</b> Notifications are handed to {@link #WRITERS} writer threads, each order always to the same
 * writer (by a hash of channel and outTradeNo), in arrival order. A writer takes what is waiting, up to
 * {@link #MAX_BATCH}, without waiting for more: at low load a batch is one notification, which runs as before in a
 * transaction of its own; under load the batch grows while the previous one commits. A batch of several runs in one
 * transaction:
 *
 * <ol>
 *   <li>every order of the batch is locked in one statement, in id order, so that writers and replicas never
 *       deadlock on order rows; which orders hold the batch's transaction ids is read in one more statement;
 *   <li>each member, in arrival order, runs inside its own SAVEPOINT: decide, insert its notification, change the
 *       order, write its events. A member that fails (a constraint, a fault, a bug) is rolled back to its savepoint
 *       alone and answered 503; a conflict (unique violation, deadlock) runs that member again after a fresh check;
 *   <li>one COMMIT, then every member's answer. When the transaction itself fails, no member is applied and each is
 *       answered 503.
 * </ol>
 *
 * <p>Concurrent deliveries for one order serialise on the row lock and, in this process, on their writer; two
 * orders racing for one transaction id meet the unique constraint on (provider, transaction_id), and the loser runs
 * again, now seeing the winner. These are the only exactly-once mechanisms; what follows only protects the service
 * from floods and never decides an outcome.
 *
 * <ul>
 *   <li><b>Per-order admission.</b> v2 and Alipay notices carry no timestamp, so one captured genuine body can be
 *       replayed without end. At most {@link #MAX_PER_ORDER} deliveries of one order are admitted in this process;
 *       the next is refused at once ({@link Busy}, a 503: the provider retries). A writer's queue is bounded too.
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

    /** Writer threads, each with its own connection while a batch runs. */
    static final int WRITERS = 2;

    /** Notifications per transaction at most. */
    static final int MAX_BATCH = 64;

    /** Notifications waiting for one writer at most; past that a delivery is answered 503 at once. */
    static final int QUEUE = 1024;

    private static final Logger LOG = Logger.getLogger(NotificationIntake.class);

    private final Transactions transactions;
    private final IntakeFaults faults;
    private final EventOutbox outbox;
    private final NotifyMetrics metrics;
    private final ConcurrentHashMap<String, Integer> admitted = new ConcurrentHashMap<>();
    private final CappedOrders capped = new CappedOrders();
    private final Writer[] writers = new Writer[WRITERS];

    @Inject
    public NotificationIntake(
            Transactions transactions, IntakeFaults faults, EventOutbox outbox, NotifyMetrics metrics) {
        this.transactions = transactions;
        this.faults = faults;
        this.outbox = outbox;
        this.metrics = metrics;
        ThreadFactory threads = DaemonThreads.named("paynotify-intake");
        for (int i = 0; i < WRITERS; i++) {
            writers[i] = new Writer();
            threads.newThread(writers[i]).start();
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

    /**
     * Not admitted: too many deliveries of one order are in this process already ({@link #admission()}), or the
     * writer's queue is full. Answer 503 at once; the provider retries.
     */
    public static final class Busy extends RuntimeException {
        private final boolean admission;

        Busy(boolean admission) {
            super(
                    admission ? "too many deliveries of one order in flight" : "the intake's queue is full",
                    null,
                    false,
                    false);
            this.admission = admission;
        }

        /** True when the per-order bound refused it (docs/api.md "Admission"), false for a full queue. */
        public boolean admission() {
            return admission;
        }
    }

    /** The answer's deadline passed while the delivery waited: it was dropped before touching the database. */
    public static final class Expired extends RuntimeException {
        Expired() {
            super("deadline passed before the delivery's turn", null, false, false);
        }
    }

    /** One notification waiting for its writer. */
    private record Member(
            VerifiedNotification n, Source source, long deadlineNanos, String key, CompletableFuture<Result> answer) {}

    /**
     * Records one verified notification and applies its decision, in one committed transaction, waiting for it.
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
        try {
            return submit(n, source, deadlineNanos).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /**
     * Hands one verified notification to its writer. The future completes after the transaction that holds it
     * committed (with the result), or exceptionally: {@link io.paynotify.persistence.DatabaseUnavailable},
     * {@link Busy}, {@link Expired}, or whatever failed this member alone (its changes rolled back). It completes on
     * a writer thread, or on the caller's when answered at once: dependants must be quick or move elsewhere.
     */
    public CompletableFuture<Result> submit(VerifiedNotification n, Source source, long deadlineNanos) {
        String key = Orders.key(n.channel(), n.outTradeNo());
        if (!admit(key)) {
            return CompletableFuture.failedFuture(new Busy(true));
        }
        var answer = new CompletableFuture<Result>();
        answer.whenComplete((r, e) -> release(key));
        try {
            if (System.nanoTime() - deadlineNanos >= 0) {
                throw new Expired();
            }
            if (capped.contains(key)) {
                Result answered = decideOnRead(n);
                if (answered != null) {
                    answer.complete(answered);
                    return answer;
                }
            }
            Writer writer = writers[writerOf(key)];
            if (!writer.queue.offer(new Member(n, source, deadlineNanos, key, answer))) {
                throw new Busy(false);
            }
        } catch (RuntimeException e) {
            answer.completeExceptionally(e);
        }
        return answer;
    }

    /** The writer that takes every notification of this order key (for tests that line up a batch). */
    static int writerOf(String key) {
        return Math.floorMod(key.hashCode(), WRITERS);
    }

    /** How many notifications wait for this writer now (for tests). */
    int queued(int writer) {
        return writers[writer].queue.size();
    }

    @PreDestroy
    void stop() {
        for (Writer w : writers) {
            w.stop();
        }
    }

    /** One writer: takes what is waiting, runs it as one transaction, answers every member. */
    private final class Writer implements Runnable {
        final BlockingQueue<Member> queue = new ArrayBlockingQueue<>(QUEUE);
        private volatile boolean stopped;
        private volatile Thread thread;

        @Override
        public void run() {
            thread = Thread.currentThread();
            var batch = new ArrayList<Member>(MAX_BATCH);
            while (!stopped) {
                try {
                    batch.add(queue.take());
                } catch (InterruptedException e) {
                    break;
                }
                queue.drainTo(batch, MAX_BATCH - 1);
                try {
                    runBatch(batch);
                    faults.afterBatch(batch.size());
                } catch (Throwable t) {
                    // a bug must not leave a member unanswered, nor stop the writer
                    LOG.errorf(
                            "intake batch failed unexpectedly: %s", t.getClass().getName());
                    for (Member m : batch) {
                        m.answer.completeExceptionally(t);
                    }
                }
                batch.clear();
            }
            for (Member m; (m = queue.poll()) != null; ) {
                m.answer.completeExceptionally(new Expired());
            }
        }

        void stop() {
            stopped = true;
            Thread t = thread;
            if (t != null) {
                t.interrupt();
            }
        }
    }

    private void runBatch(List<Member> batch) {
        long now = System.nanoTime();
        var live = new ArrayList<Member>(batch.size());
        for (Member m : batch) {
            if (now - m.deadlineNanos >= 0) {
                m.answer.completeExceptionally(new Expired());
            } else {
                live.add(m);
            }
        }
        if (live.isEmpty()) {
            return;
        }
        faults.beforeBatch(live.size());
        metrics.intakeBatch(live.size());
        Object[] outcomes;
        try {
            if (live.size() == 1) {
                Member m = live.get(0);
                outcomes =
                        new Object[] {transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> applyOne(c, m))};
            } else {
                outcomes = runSeveral(live);
            }
        } catch (RuntimeException e) {
            // the transaction failed or its COMMIT is unknown: no member gets a success ack
            for (Member m : live) {
                m.answer.completeExceptionally(e);
            }
            return;
        }
        boolean events = false;
        for (int i = 0; i < live.size(); i++) {
            Member m = live.get(i);
            if (outcomes[i] instanceof Result r) {
                if (!r.recorded()) {
                    capped.add(m.key);
                }
                events |= r.events() > 0;
            }
        }
        if (events) {
            outbox.wake();
        }
        for (int i = 0; i < live.size(); i++) {
            Member m = live.get(i);
            if (outcomes[i] instanceof Result r) {
                m.answer.complete(r);
            } else {
                m.answer.completeExceptionally((Throwable) outcomes[i]);
            }
        }
    }

    /**
     * Several members in one transaction. First without savepoints (two round trips less per member); when any
     * member fails, that transaction is rolled back whole and the batch runs again with a savepoint around each
     * member, so that only the failing one is lost. Members whose deadline passed meanwhile are not run again.
     */
    private Object[] runSeveral(List<Member> live) {
        try {
            return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> applyBatch(c, live, false));
        } catch (MemberFailed e) {
            long now = System.nanoTime();
            if (live.stream().allMatch(m -> now - m.deadlineNanos >= 0)) {
                // every answer has left already (a slow or hung database): do not try again
                Object[] expired = new Object[live.size()];
                java.util.Arrays.fill(expired, new Expired());
                return expired;
            }
            return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> applyBatch(c, live, true));
        }
    }

    /** A member failed in a batch without savepoints: the batch runs again with them. */
    private static final class MemberFailed extends RuntimeException {
        MemberFailed() {
            super("a member of the batch failed", null, false, false);
        }
    }

    /** A batch of one: its own transaction, the lock and the transaction-id check in one round trip. */
    private Result applyOne(Connection c, Member m) throws SQLException {
        VerifiedNotification n = m.n;
        Orders.LockedForNotice locked = Orders.lockForNotice(
                c, n.channel(), n.outTradeNo(), n.provider().name(), checkedTransaction(n));
        return decideAndApply(c, n, m.source, locked.order(), locked.transactionElsewhere())
                .result();
    }

    /**
     * A batch of several in one transaction: each member's result, or what failed it (its changes rolled back to
     * its savepoint). Throws only when the transaction itself is lost.
     */
    private Object[] applyBatch(Connection c, List<Member> members, boolean isolated) throws SQLException {
        var orderKeys = new LinkedHashMap<String, String[]>();
        var transactionKeys = new LinkedHashMap<String, String[]>();
        for (Member m : members) {
            orderKeys.putIfAbsent(m.key, new String[] {m.n.channel(), m.n.outTradeNo()});
            String id = checkedTransaction(m.n);
            if (id != null) {
                transactionKeys.putIfAbsent(
                        m.n.provider().name() + '\n' + id,
                        new String[] {m.n.provider().name(), id});
            }
        }
        Map<String, OrderRow> orders = Orders.lockAll(c, orderKeys.values());
        Map<String, String> holders = Orders.transactionHolders(c, transactionKeys.values());
        var stale = new HashSet<String>();
        Object[] out = new Object[members.size()];
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            if (System.nanoTime() - m.deadlineNanos >= 0) {
                // the batch ran long (a slow database): this one's 503 has left, so it must not be applied now
                out[i] = new Expired();
                continue;
            }
            if (!isolated) {
                try {
                    out[i] = applyMember(c, m, orders, holders, stale, 1);
                } catch (SQLException | RuntimeException e) {
                    throw new MemberFailed();
                }
                continue;
            }
            for (int attempt = 1; ; attempt++) {
                Savepoint savepoint = c.setSavepoint();
                try {
                    Result r = applyMember(c, m, orders, holders, stale, attempt);
                    c.releaseSavepoint(savepoint);
                    out[i] = r;
                    break;
                } catch (SQLException e) {
                    c.rollback(savepoint);
                    stale.add(m.key);
                    if (Transactions.conflict(e) && attempt < 3) {
                        continue;
                    }
                    out[i] = new DatabaseUnavailable(e);
                    break;
                } catch (RuntimeException e) {
                    c.rollback(savepoint);
                    stale.add(m.key);
                    out[i] = e;
                    break;
                }
            }
        }
        return out;
    }

    /**
     * One member of a batch, on the orders locked for it: decide (on the order as the members before left it),
     * record, apply.
     */
    private Result applyMember(
            Connection c,
            Member m,
            Map<String, OrderRow> orders,
            Map<String, String> holders,
            Set<String> stale,
            int attempt)
            throws SQLException {
        VerifiedNotification n = m.n;
        if (stale.remove(m.key)) {
            // an earlier member of this order was rolled back to its savepoint: read the row again, under our lock
            orders.put(m.key, Orders.find(c, n.channel(), n.outTradeNo()));
        }
        String id = checkedTransaction(n);
        boolean elsewhere;
        if (id == null) {
            elsewhere = false;
        } else if (attempt == 1) {
            String holder = holders.get(n.provider().name() + '\n' + id);
            elsewhere = holder != null && !holder.equals(m.key);
        } else {
            elsewhere = Orders.transactionElsewhere(c, n.provider().name(), id, n.channel(), n.outTradeNo());
        }
        Applied applied = decideAndApply(c, n, m.source, orders.get(m.key), elsewhere);
        orders.put(m.key, applied.order());
        Result r = applied.result();
        if (id != null && r.decision().pays()) {
            holders.put(n.provider().name() + '\n' + id, m.key);
        }
        return r;
    }

    /** The transaction id whose holder matters for this notice's decision, or null when none does. */
    private static String checkedTransaction(VerifiedNotification n) {
        return n.notifyClass() == NotifyClass.PAID && n.transactionId() != null && !n.accountMismatch()
                ? n.transactionId()
                : null;
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

    /** Decides one notice on its locked order (null: none) and writes what the decision says, in c's transaction. */
    private Applied decideAndApply(
            Connection c, VerifiedNotification n, Source source, OrderRow order, boolean transactionElsewhere)
            throws SQLException {
        Decision d = OrderStateMachine.decide(
                order == null ? null : order.snapshot(), refund(c, order, n), n, transactionElsewhere);
        Long notificationId = Notifications.insertCapped(c, n, source, order == null ? null : order.id(), d);
        faults.afterNotificationInsert(c, n);
        int events = 0;
        OrderRow after = order;
        if (order != null) {
            List<String> added = d.addedAttention(order.attention());
            after = apply(c, n, order, d);
            // in this transaction: the events exist if and only if the change commits
            events = outbox.afterDecision(c, after, d, added);
        }
        return new Applied(new Result(d, notificationId != null, events, notificationId), after);
    }

    /** A member's result and its order as this transaction now holds it (null: no order). */
    private record Applied(Result result, OrderRow order) {}

    /** The refund a REFUND notice names, as it stands (protected by the order's row lock), or null. */
    private static RefundSnapshot refund(Connection c, OrderRow order, VerifiedNotification n) throws SQLException {
        if (order == null || n.refund() == null || !n.refund().identified()) {
            return null;
        }
        RefundRow row = Refunds.find(c, n.channel(), n.outTradeNo(), n.refund().outRefundNo());
        return row == null ? null : row.snapshot();
    }

    private static boolean transactionElsewhere(Connection c, VerifiedNotification n) throws SQLException {
        String id = checkedTransaction(n);
        return id != null && Orders.transactionElsewhere(c, n.provider().name(), id, n.channel(), n.outTradeNo());
    }

    /** Writes the decision's change of the order; returns the order as it now stands. */
    private static OrderRow apply(Connection c, VerifiedNotification n, OrderRow order, Decision d)
            throws SQLException {
        if (d.changesNothing(order.attention())) {
            // a duplicate or an ignored notice: the order stays as it is
            return order;
        }
        var attention = new ArrayList<>(order.attention());
        attention.addAll(d.addedAttention(order.attention()));
        Instant now = n.receivedAt();
        if (d.refund() != null) {
            Refunds.apply(c, order.id(), n.channel(), n.outTradeNo(), d.refund(), now);
            return Orders.refund(c, order.id(), d.newState(), d.refundedAmount(), attention, now);
        } else if (d.pays()) {
            Instant paidAt = n.paidAt() != null ? n.paidAt() : n.receivedAt();
            return Orders.pay(c, order.id(), n.transactionId(), paidAt, n.providerStatus(), attention, now);
        } else if (d.newState() == OrderState.CLOSED) {
            return Orders.close(c, order.id(), attention, now);
        } else {
            return Orders.flag(c, order.id(), attention, now);
        }
    }

    /** For tests: forget which orders are known to be at the cap. */
    void forgetCapped() {
        capped.clear();
    }
}
