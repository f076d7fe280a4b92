package io.paynotify.intake;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.events.EventOutbox;
import io.paynotify.metrics.Meters;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import org.jboss.logging.Logger;

/**
 * The writer threads of group commit: {@link #WRITERS} of them, each with its own bounded queue, each order always on
 * the same writer (by a hash of its key), so that one order's notifications keep their arrival order and two writers
 * never wait for each other on an order row. A writer takes what is waiting, up to {@link #MAX_BATCH}, without
 * waiting for more: at low load a batch is one notification; under load the batch grows while the previous one
 * commits. It runs the batch as one {@link BatchTransaction} and then answers every member, after the commit.
 *
 * <p>Why 2: on the 2-core bench 4 writers made batches of about 2 and cost PostgreSQL about 1.6× the CPU per
 * notification, and 1 writer let one slow commit hold every notification (bench/README.md).
 */
@Singleton
class IntakeWriters {

    /** Writer threads, each with its own connection while a batch runs. */
    static final int WRITERS = 2;

    /** Notifications per transaction at most. */
    static final int MAX_BATCH = 64;

    /** Notifications waiting for one writer at most; past that a delivery is answered 503 at once. */
    static final int QUEUE = 1024;

    private static final Logger LOG = Logger.getLogger(NotificationIntake.class);

    private final BatchTransaction batches;
    private final IntakeFaults faults;
    private final EventOutbox outbox;
    private final Meters metrics;
    private final CappedOrders capped;
    private final Writer[] writers = new Writer[WRITERS];

    @Inject
    IntakeWriters(
            BatchTransaction batches, IntakeFaults faults, EventOutbox outbox, Meters metrics, CappedOrders capped) {
        this.batches = batches;
        this.faults = faults;
        this.outbox = outbox;
        this.metrics = metrics;
        this.capped = capped;
        ThreadFactory threads = DaemonThreads.named("paynotify-intake");
        for (int i = 0; i < WRITERS; i++) {
            writers[i] = new Writer();
            threads.newThread(writers[i]).start();
        }
    }

    /** The writer that takes every notification of this order key (for tests that line up a batch). */
    static int writerOf(String key) {
        return Math.floorMod(key.hashCode(), WRITERS);
    }

    /** Queues a notification behind the others of its writer; false when that queue is full. */
    boolean offer(QueuedNotice notice) {
        return writers[writerOf(notice.key())].queue.offer(notice);
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
        final BlockingQueue<QueuedNotice> queue = new ArrayBlockingQueue<>(QUEUE);
        private volatile boolean stopped;
        private volatile Thread thread;

        @Override
        public void run() {
            thread = Thread.currentThread();
            var batch = new ArrayList<QueuedNotice>(MAX_BATCH);
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
                    for (QueuedNotice m : batch) {
                        m.answer().complete(IntakeOutcome.failed(t));
                    }
                }
                batch.clear();
            }
            for (QueuedNotice m; (m = queue.poll()) != null; ) {
                m.answer().complete(IntakeOutcome.refused(IntakeOutcome.Kind.EXPIRED));
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

    /** Runs the live members of a batch, then answers each: only after the commit that holds it. */
    private void runBatch(List<QueuedNotice> batch) {
        long now = System.nanoTime();
        var live = new ArrayList<QueuedNotice>(batch.size());
        for (QueuedNotice m : batch) {
            if (m.expired(now)) {
                m.answer().complete(IntakeOutcome.refused(IntakeOutcome.Kind.EXPIRED));
            } else {
                live.add(m);
            }
        }
        if (live.isEmpty()) {
            return;
        }
        faults.beforeBatch(live.size());
        metrics.intakeBatch(live.size());
        List<IntakeOutcome> outcomes = batches.run(live);
        boolean events = false;
        for (int i = 0; i < live.size(); i++) {
            IntakeOutcome o = outcomes.get(i);
            if (o.decided()) {
                if (!o.recorded()) {
                    capped.add(live.get(i).key());
                }
                events |= o.events() > 0;
            }
        }
        if (events) {
            outbox.wake();
        }
        for (int i = 0; i < live.size(); i++) {
            live.get(i).answer().complete(outcomes.get(i));
        }
    }
}
