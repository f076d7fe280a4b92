package io.paynotify.simulator.demo;

import io.paynotify.simulator.gateway.Gateway;
import io.paynotify.simulator.gateway.GatewayConfig;
import java.io.IOException;
import java.net.http.HttpClient;
import java.util.Optional;

/**
 * The simulator's own gateway started in this JVM with {@code Gateway.start(GatewayConfig.dev())} (port 8090, the
 * dev merchants), scripted through its control API like any other.
 */
final class EmbeddedGateway extends GatewayControl {

    private final Gateway gateway;

    private EmbeddedGateway(HttpClient http, Gateway gateway) {
        super(http, gateway.baseUrl());
        this.gateway = gateway;
    }

    /** Starts the dev gateway. */
    static Optional<DemoGateway> start(HttpClient http) throws IOException {
        return Optional.of(new EmbeddedGateway(http, Gateway.start(GatewayConfig.dev())));
    }

    @Override
    public void close() {
        gateway.close();
    }
}
