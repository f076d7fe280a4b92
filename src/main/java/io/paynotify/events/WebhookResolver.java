package io.paynotify.events;

import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves the host name of a webhook URL: the system resolver ({@link InetAddress#getAllByName}, with the JVM's
 * cache). It blocks, so {@link WebhookSender} calls it only on its own small resolver pool, never on the delivery
 * loop or an event loop. A seam: tests replace it to make one host name slow to resolve, or resolve to an address
 * the target rule refuses.
 */
@ApplicationScoped
public class WebhookResolver {

    /** Every address of the name; {@link UnknownHostException} when it has none. */
    public List<InetAddress> resolve(String host) throws UnknownHostException {
        return List.of(InetAddress.getAllByName(host));
    }
}
