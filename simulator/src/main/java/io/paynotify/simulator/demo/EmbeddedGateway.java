package io.paynotify.simulator.demo;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.util.Optional;

/**
 * The simulator's own gateway started in this JVM with {@code Gateway.start(GatewayConfig.dev())} (port 8090, the
 * dev merchants), scripted through its control API like any other. The gateway package is looked up by name so
 * that the demo builds while that package is developed on its own branch; once both are on one branch this class
 * can call {@code io.paynotify.simulator.gateway.Gateway} directly.
 */
final class EmbeddedGateway extends GatewayControl {

    private static final String GATEWAY = "io.paynotify.simulator.gateway.Gateway";
    private static final String CONFIG = "io.paynotify.simulator.gateway.GatewayConfig";

    private final Object gateway;
    private final Method close;

    private EmbeddedGateway(HttpClient http, Object gateway, String baseUrl, Method close) {
        super(http, baseUrl);
        this.gateway = gateway;
        this.close = close;
    }

    /** Starts the dev gateway; empty when this build has none. */
    static Optional<DemoGateway> start(HttpClient http) throws IOException {
        Class<?> type;
        Class<?> config;
        try {
            type = Class.forName(GATEWAY);
            config = Class.forName(CONFIG);
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
        try {
            Object dev = config.getMethod("dev").invoke(null);
            Object gateway = type.getMethod("start", config).invoke(null, dev);
            String baseUrl = (String) type.getMethod("baseUrl").invoke(gateway);
            return Optional.of(new EmbeddedGateway(http, gateway, baseUrl, type.getMethod("close")));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("the gateway failed to start", e.getCause());
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("the gateway's API is not the one this demo expects", e);
        }
    }

    @Override
    public void close() {
        try {
            close.invoke(gateway);
        } catch (IllegalAccessException | InvocationTargetException e) {
            // stopping is best effort: the process ends next
        }
    }
}
