package io.paynotify.testing;

import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.intake.IntakeFaults;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Replaces the intake's no-op fault seams in every @QuarkusTest.
 *
 * <ul>
 *   <li>A test arms a fault for one outTradeNo: the intake then runs it inside the transaction, on its connection,
 *       right after that order's notification row was inserted ({@link #arm} throws an unchecked exception; {@link
 *       #arm(String, Fault)} runs anything, e.g. a statement that breaks a constraint).
 *   <li>{@link #holdBatches()} stops every writer before its next batch until {@link #releaseBatches()}, so that a
 *       test can line notifications up behind it and see them run as one batch; {@link #batchSizes()} tells the size
 *       of every batch since.
 * </ul>
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ArmedIntakeFaults extends IntakeFaults {

    /** What an armed order does inside the intake transaction. */
    @FunctionalInterface
    public interface Fault {
        void run(Connection c, VerifiedNotification n) throws SQLException;
    }

    private static final Fault THROW = (c, n) -> {
        throw new IllegalStateException("injected fault after the notification insert");
    };

    private static final Map<String, Fault> ARMED = new ConcurrentHashMap<>();
    private static final List<Integer> SIZES = new CopyOnWriteArrayList<>();
    private static final List<Integer> DONE = new CopyOnWriteArrayList<>();
    private static volatile CountDownLatch gate;

    /** The next intake transactions of this outTradeNo fail after the insert, until {@link #disarm}. */
    public static void arm(String outTradeNo) {
        ARMED.put(outTradeNo, THROW);
    }

    /** The next intake transactions of this outTradeNo run {@code fault} after the insert, until {@link #disarm}. */
    public static void arm(String outTradeNo, Fault fault) {
        ARMED.put(outTradeNo, fault);
    }

    public static void disarm(String outTradeNo) {
        ARMED.remove(outTradeNo);
    }

    /** Writers stop before their next batch (at most 30 s) until {@link #releaseBatches()}; sizes are recorded anew. */
    public static void holdBatches() {
        SIZES.clear();
        DONE.clear();
        gate = new CountDownLatch(1);
    }

    public static void releaseBatches() {
        CountDownLatch g = gate;
        gate = null;
        if (g != null) {
            g.countDown();
        }
    }

    /** The size of every batch a writer started since {@link #holdBatches()}, in start order. */
    public static List<Integer> batchSizes() {
        return List.copyOf(SIZES);
    }

    /** How many batches a writer finished (committed, failed or gave up) since {@link #holdBatches()}. */
    public static int finishedBatches() {
        return DONE.size();
    }

    @Override
    public void afterBatch(int size) {
        DONE.add(size);
    }

    @Override
    public void beforeBatch(int size) {
        SIZES.add(size);
        CountDownLatch g = gate;
        if (g != null) {
            try {
                g.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void afterNotificationInsert(Connection c, VerifiedNotification n) throws SQLException {
        Fault fault = ARMED.get(n.outTradeNo());
        if (fault != null) {
            fault.run(c, n);
        }
    }
}
