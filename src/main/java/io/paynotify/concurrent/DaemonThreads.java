package io.paynotify.concurrent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Named daemon threads for the service's own background pools (a pool never keeps the JVM from exiting). */
public final class DaemonThreads {

    private DaemonThreads() {}

    /** Threads named {@code <name>-1}, {@code <name>-2}, …, each a daemon. */
    public static ThreadFactory named(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
