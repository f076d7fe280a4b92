package io.paynotify.simulator.demo;

import java.io.IOException;

/** The fake provider gateway as the demo uses it: where it runs, and how to script a trade's query answer. */
public interface DemoGateway extends AutoCloseable {

    /** Its base URL, such as {@code http://127.0.0.1:8090}. */
    String baseUrl();

    /** Makes the gateway answer paynotify's query for {@code outTradeNo} with a payment of {@code amountFen}. */
    void scriptPaid(String outTradeNo, long amountFen) throws IOException, InterruptedException;

    /** Stops it, if the demo started it. */
    @Override
    void close();
}
