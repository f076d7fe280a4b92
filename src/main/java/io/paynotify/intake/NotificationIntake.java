package io.paynotify.intake;

import io.paynotify.core.notify.Source;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.Decision;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one write path for verified notifications and active-query answers, and its front door: admission, the
 * deadline, the capped-order hint, then the order's writer ({@link IntakeWriters}), whose batch transaction
 * ({@link BatchTransaction}) decides and writes each notice ({@link NoticeWrite}) under its order's row lock. Every
 * end of a notification is one {@link IntakeOutcome}; only {@link IntakeOutcome.Kind#DECIDED} was committed, and it
 * is reported only after the COMMIT that holds it returned, so a success ack always follows a durable commit.
 *
 * <p>The row lock, the unique constraints and the conditional updates are the only exactly-once mechanisms; what
 * this class adds only protects the service from floods and never decides an outcome:
 *
 * <ul>
 *   <li><b>Admission</b> (docs/api.md "Admission"). v2 and Alipay notices carry no timestamp, so one captured
 *       genuine body can be replayed without end. At most {@link #MAX_PER_ORDER} deliveries of one order are
 *       between here and their answer in this process; the next is {@link IntakeOutcome.Kind#NOT_ADMITTED} at once
 *       (a 503: the provider retries). A slot is released on every outcome.
 *   <li><b>Deadline.</b> A delivery whose answer's deadline passed is dropped before it touches the database
 *       ({@link IntakeOutcome.Kind#EXPIRED}); its 503 has already left.
 *   <li><b>Past the per-order cap.</b> Once an order has {@link #MAX_RECORDED_PER_ORDER} recorded deliveries,
 *       further ones are only counted. An order known to be at the cap ({@link CappedOrders}) is first decided on a
 *       plain read; a decision that changes nothing is answered from that read without a write transaction. Any
 *       decision that would change the order still runs the locked transaction, so replays can never silence a
 *       later genuine notice.
 * </ul>
 */
@ApplicationScoped
public class NotificationIntake {

    /** Deliveries recorded per (channel, outTradeNo); past that they are answered the same way, only counted. */
    public static final int MAX_RECORDED_PER_ORDER = Notifications.MAX_RECORDED_PER_ORDER;

    /** Deliveries of one order admitted at once in this process: one working and a handful waiting. */
    public static final int MAX_PER_ORDER = 5;

    /** Writer threads (for tests that line up a batch). */
    static final int WRITERS = IntakeWriters.WRITERS;

    private final Transactions transactions;
    private final IntakeWriters writers;
    private final CappedOrders capped;
    private final ConcurrentHashMap<String, Integer> admitted = new ConcurrentHashMap<>();

    @Inject
    public NotificationIntake(Transactions transactions, IntakeWriters writers, CappedOrders capped) {
        this.transactions = transactions;
        this.writers = writers;
        this.capped = capped;
    }

    /**
     * Records one verified notification or query answer and applies its decision, waiting for the outcome.
     *
     * @param deadlineNanos the {@link System#nanoTime()} after which the answer has left already
     */
    public IntakeOutcome handle(VerifiedNotification n, Source source, long deadlineNanos) {
        return submit(n, source, deadlineNanos).join();
    }

    /**
     * Hands one verified notification to its order's writer. The future always completes normally, with the outcome:
     * after the commit that holds it, or at once when it is not admitted, expired, or answered from a read at the cap.
     * It completes on a writer thread, or on the caller's when answered at once: dependants must be quick or move
     * elsewhere.
     */
    public CompletableFuture<IntakeOutcome> submit(VerifiedNotification n, Source source, long deadlineNanos) {
        String key = Orders.key(n.channel(), n.outTradeNo());
        if (!admit(key)) {
            return CompletableFuture.completedFuture(IntakeOutcome.refused(IntakeOutcome.Kind.NOT_ADMITTED));
        }
        var answer = new CompletableFuture<IntakeOutcome>();
        answer.whenComplete((r, e) -> release(key));
        try {
            if (System.nanoTime() - deadlineNanos >= 0) {
                answer.complete(IntakeOutcome.refused(IntakeOutcome.Kind.EXPIRED));
            } else if (capped.contains(key) && answeredFromRead(n, answer)) {
                return answer;
            } else if (!writers.offer(new QueuedNotice(n, source, deadlineNanos, key, answer))) {
                answer.complete(IntakeOutcome.refused(IntakeOutcome.Kind.QUEUE_FULL));
            }
        } catch (RuntimeException e) {
            answer.complete(IntakeOutcome.failed(e));
        }
        return answer;
    }

    /**
     * For an order at the cap: decides on a plain read (no lock, no transaction) and answers when the decision changes
     * nothing (nothing would be written: the row is past the cap); false for the locked path.
     */
    private boolean answeredFromRead(VerifiedNotification n, CompletableFuture<IntakeOutcome> answer) {
        Decision d;
        try {
            d = transactions.autoCommit(c -> {
                OrderRow order = Orders.find(c, n.channel(), n.outTradeNo());
                if (order == null) {
                    return null;
                }
                String key = Orders.key(n.channel(), n.outTradeNo());
                boolean elsewhere =
                        TransactionHolders.read(c, java.util.List.of(n)).elsewhere(n, key);
                Decision decided = NoticeWrite.decide(c, n, order, elsewhere);
                return decided.changesNothing(order.attention()) ? decided : null;
            });
        } catch (DatabaseUnavailable e) {
            answer.complete(IntakeOutcome.failed(e));
            return true;
        }
        if (d == null) {
            return false;
        }
        answer.complete(IntakeOutcome.decidedWithoutWrite(d));
        return true;
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

    /** The writer that takes every notification of this order key (for tests that line up a batch). */
    static int writerOf(String key) {
        return IntakeWriters.writerOf(key);
    }

    /** How many notifications wait for this writer now (for tests). */
    int queued(int writer) {
        return writers.queued(writer);
    }

    /** For tests: forget which orders are known to be at the cap. */
    void forgetCapped() {
        capped.clear();
    }
}
