package io.paynotify.logging;

import io.quarkus.logging.LoggingFilter;
import io.quarkus.runtime.ImageMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.handlers.AsyncHandler;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * Makes the process write every queued console line before it exits, so that a refused start always shows its
 * reason (docs/operations.md "Logs"). With {@code quarkus.log.console.async.enabled} a daemon thread of the
 * JBoss LogManager's {@link AsyncHandler} formats and writes the lines. When a start fails, Quarkus logs the cause,
 * waits 200 ms for that thread ({@code ApplicationLifecycleManager.ensureConsoleLogsDrained}) and calls {@code
 * System.exit(1)}; nothing waits for the queue, and on a busy machine the line naming the key was still in it when
 * the JVM halted (the log then ended with Flyway's lines).
 *
 * <p>This filter sits on the console handler ({@code quarkus.log.console.filter}) and lets every record through.
 * On the first record it sees it registers a JVM shutdown hook, if the console is asynchronous. The hook runs
 * after every line the exiting process logged was queued: it puts a marker record at the end of each asynchronous
 * console's queue and waits, at most {@link #LIMIT}, until this filter sees the marker arrive at the console
 * handler, which is then the moment every line before it has been written; the marker itself is filtered out.
 * Only public JBoss LogManager API is used (no reflection).
 */
@LoggingFilter(name = ConsoleDrain.NAME)
public final class ConsoleDrain implements Filter {

    /** The filter's name for {@code quarkus.log.console.filter}. */
    public static final String NAME = "paynotify-console-drain";

    /** The longest a shutdown waits for the console (a stalled stdout must not keep the process alive). */
    static final Duration LIMIT = Duration.ofSeconds(10);

    private static final AtomicBoolean DECIDED = new AtomicBoolean();

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof Marker marker) {
            marker.written.countDown();
            return false;
        }
        if (!DECIDED.get() && DECIDED.compareAndSet(false, true)) {
            registerHook();
        }
        return true;
    }

    private static void registerHook() {
        if (ImageMode.current() == ImageMode.NATIVE_BUILD || asyncConsoles().isEmpty()) {
            return; // a synchronous console has written each line before the call that logged it returned
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> drain(LIMIT), "paynotify-console-drain"));
        } catch (IllegalStateException alreadyShuttingDown) {
            // too late to register: the JVM is exiting
        }
    }

    /**
     * Waits until each asynchronous console handler has written every record queued before this call, at most
     * {@code limit} in all. True when all of them did.
     */
    static boolean drain(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        boolean all = true;
        for (AsyncHandler async : asyncConsoles()) {
            Marker marker = new Marker();
            if (!async.isLoggable(marker)) {
                continue; // nothing reaches this console at all
            }
            // queued from a daemon thread: with overflow=block a full queue behind a stalled stdout would block
            // the publisher, and a shutdown hook that never returns keeps the JVM alive
            Thread publisher = new Thread(() -> async.publish(marker), "paynotify-console-drain-marker");
            publisher.setDaemon(true);
            publisher.start();
            try {
                all &= marker.written.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            async.flush();
        }
        return all;
    }

    /** The {@link AsyncHandler}s under the root logger that write to a console handler. */
    static List<AsyncHandler> asyncConsoles() {
        var found = new ArrayList<AsyncHandler>();
        Set<Handler> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        var pending = new ArrayList<Handler>(
                List.of(LogContext.getLogContext().getLogger("").getHandlers()));
        while (!pending.isEmpty()) {
            Handler h = pending.remove(pending.size() - 1);
            if (!seen.add(h) || !(h instanceof ExtHandler ext)) {
                continue;
            }
            Handler[] children = ext.getHandlers();
            if (h instanceof AsyncHandler async) {
                for (Handler child : children) {
                    if (child instanceof ConsoleHandler) {
                        found.add(async);
                        break;
                    }
                }
            }
            pending.addAll(List.of(children));
        }
        return found;
    }

    /** The record a drain queues; this filter drops it when it reaches the console handler. */
    static final class Marker extends ExtLogRecord {
        final CountDownLatch written = new CountDownLatch(1);

        Marker() {
            super(Level.SEVERE, "paynotify console drain marker (never written)", Marker.class.getName());
            setLoggerName("io.paynotify.logging.ConsoleDrain");
        }
    }
}
