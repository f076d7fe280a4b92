package io.paynotify.simulator.trigger;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The target of the xxe notice's external entity: a listener on 127.0.0.1 that counts fetches. A parser that
 * resolved the entity would show here (when paynotify runs on this machine).
 */
final class XxeCanary implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger fetches = new AtomicInteger();

    XxeCanary() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            fetches.incrementAndGet();
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/paynotify-xxe-canary";
    }

    int fetches() {
        return fetches.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
