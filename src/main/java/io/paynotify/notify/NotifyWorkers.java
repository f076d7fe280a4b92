package io.paynotify.notify;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The notification work (verification, then the hand-over to the intake's writers) runs on these threads and
 * nowhere else, so that a flood on {@code /notify} can never take the threads that {@code /api} and {@code /admin}
 * need. Bounded on both sides: {@link #THREADS} threads and a queue of {@link #QUEUE}; a delivery that finds the
 * queue full is answered 503 at once. A thread does not wait for the commit (the intake's writers run the
 * transactions and the ack leaves from the event loop); it holds a pool connection only for the plain read of an
 * order at the cap of recorded deliveries. Threads plus the intake's 2 writers stay below the pool's 20
 * connections, so the merchant and admin APIs and the scheduled jobs always find a connection too.
 */
@ApplicationScoped
public class NotifyWorkers implements Executor {

    static final int THREADS = 12;
    static final int QUEUE = 512;

    private final ThreadPoolExecutor pool;

    public NotifyWorkers() {
        AtomicInteger n = new AtomicInteger();
        pool = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "paynotify-notify-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
    }

    /** @throws java.util.concurrent.RejectedExecutionException when every thread is busy and the queue is full */
    @Override
    public void execute(Runnable work) {
        pool.execute(work);
    }

    @PreDestroy
    void stop() throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }
}
