package io.paynotify.simulator.listen;

import java.time.Instant;

/**
 * One webhook delivery as the receiver saw it: the event id and type, the order it is about (when the body is one of
 * paynotify's events) and whether its signature verified.
 */
public record Delivery(
        String id, String type, String channel, String outTradeNo, WebhookVerifier.Result result, Instant receivedAt) {

    public boolean verified() {
        return result.ok();
    }

    /** One line for a terminal. */
    public String line() {
        String order = outTradeNo == null ? "-" : channel + "/" + outTradeNo;
        return "webhook " + (id == null ? "(no id)" : id) + "  " + (type == null ? "?" : type) + "  " + order + "  "
                + (verified()
                        ? "verified"
                        : "NOT verified (" + result.name().toLowerCase().replace('_', ' ') + ")");
    }
}
