package io.paynotify.events;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.ClientCredentials;
import io.paynotify.core.event.EventType;
import io.paynotify.core.order.Decision;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.order.Outcome;
import io.paynotify.core.order.RefundStatus;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Events;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.RefundRow;
import io.paynotify.persistence.Refunds;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The transactional outbox (docs/api.md "Merchant events"). Its methods run on the caller's connection, inside the transaction that
 * makes the change, so an event exists if and only if its change committed. Each event gets one delivery row per
 * client whose channels include the order's channel and that has a webhook; every such client also sees it in the
 * pull list. After the caller's commit, {@link #wake()} lets this replica's delivery worker start at once.
 */
@ApplicationScoped
public class EventOutbox {

    private static final char[] ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private final ChannelRegistry registry;
    private final Clock clock;
    private final DeliveryWorker worker;
    private final boolean anyWebhook;
    private final SecureRandom random = new SecureRandom();

    @Inject
    public EventOutbox(ChannelRegistry registry, Clock clock, DeliveryWorker worker) {
        this.registry = registry;
        this.clock = clock;
        this.worker = worker;
        this.anyWebhook =
                registry != null && registry.clients().values().stream().anyMatch(c -> c.webhook() != null);
    }

    /**
     * Writes the events a notification's decision causes, in the caller's transaction, after the order and refund
     * rows were changed: {@code order.paid}, {@code order.closed}, {@code order.refunded}, and one
     * {@code order.attention} per reason added (the cell's own reason first).
     *
     * @param order the order as the decision left it (this transaction's row)
     * @param addedAttention the reasons the decision added to the order's attention
     * @return how many events were written
     */
    public int afterDecision(Connection c, OrderRow order, Decision d, List<String> addedAttention)
            throws SQLException {
        List<Events.NewEvent> events = events(c, order, d, addedAttention);
        for (Events.NewEvent e : events) {
            insert(c, e, order);
        }
        return events.size();
    }

    /** One notice's decision whose events a batch writes ({@link #afterDecisions}). */
    public record Decided(OrderRow order, Decision d, List<String> addedAttention) {}

    /**
     * {@link #afterDecision} for a batch's decisions, in the caller's transaction: every event in one statement, in
     * the decisions' order, then their delivery rows.
     *
     * @return how many events each decision wrote
     */
    public int[] afterDecisions(Connection c, List<Decided> decided) throws SQLException {
        int[] written = new int[decided.size()];
        var events = new ArrayList<Events.NewEvent>();
        var orders = new ArrayList<OrderRow>();
        boolean deliveries = false;
        for (int i = 0; i < decided.size(); i++) {
            Decided one = decided.get(i);
            List<Events.NewEvent> these = events(c, one.order(), one.d(), one.addedAttention());
            written[i] = these.size();
            for (Events.NewEvent e : these) {
                events.add(e);
                orders.add(one.order());
                deliveries |= !subscribers(one.order()).isEmpty();
            }
        }
        if (events.isEmpty()) {
            return written;
        }
        long[] rows = Events.insertAll(c, events, deliveries);
        if (deliveries) {
            for (int i = 0; i < rows.length; i++) {
                deliver(c, rows[i], orders.get(i));
            }
        }
        return written;
    }

    /**
     * The events a decision causes, rendered: {@code order.paid}, {@code order.closed}, {@code order.refunded}, and
     * one {@code order.attention} per reason added.
     */
    private List<Events.NewEvent> events(Connection c, OrderRow order, Decision d, List<String> addedAttention)
            throws SQLException {
        var types = new ArrayList<EventType>();
        if (d.pays()) {
            types.add(EventType.ORDER_PAID);
        }
        if (d.outcome() == Outcome.APPLIED && d.newState() == OrderState.CLOSED) {
            types.add(EventType.ORDER_CLOSED);
        }
        boolean refunded = d.outcome() == Outcome.APPLIED
                && d.refund() != null
                && d.refund().status() == RefundStatus.SUCCESS;
        if (refunded) {
            types.add(EventType.ORDER_REFUNDED);
        }
        if (types.isEmpty() && addedAttention.isEmpty()) {
            return List.of();
        }
        RefundRow refund = refunded
                ? Refunds.find(
                        c, order.channel(), order.outTradeNo(), d.refund().outRefundNo())
                : null;
        var out = new ArrayList<Events.NewEvent>(types.size() + addedAttention.size());
        for (EventType t : types) {
            out.add(event(t, order, refund, null));
        }
        for (String reason : addedAttention) {
            out.add(event(EventType.ORDER_ATTENTION, order, null, reason));
        }
        return out;
    }

    /**
     * {@code order.attention} for a reason a statement difference added to the order's attention (CONTRACT.md
     * §11), in the transaction that added it.
     */
    public void attention(Connection c, OrderRow order, String reason) throws SQLException {
        write(c, EventType.ORDER_ATTENTION, order, null, reason);
    }

    /** {@code order.closed} for a close by the merchant API, in its transaction. */
    public void closedByMerchant(Connection c, OrderRow closed) throws SQLException {
        write(c, EventType.ORDER_CLOSED, closed, null, null);
    }

    /**
     * Lets this replica's delivery worker look for work now (call after the commit); nothing when no client has a
     * webhook, since then no event has a delivery (each wake-up costs the worker a claim statement).
     */
    public void wake() {
        if (anyWebhook) {
            worker.wake();
        }
    }

    private void write(Connection c, EventType type, OrderRow order, RefundRow refund, String reason)
            throws SQLException {
        insert(c, event(type, order, refund, reason), order);
    }

    private Events.NewEvent event(EventType type, OrderRow order, RefundRow refund, String reason) {
        String id = newId();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        byte[] body = EventJson.render(id, type, now, order, refund, reason);
        return new Events.NewEvent(
                id, type.wireName(), order.channel(), order.outTradeNo(), order.id(), body, now, order.subMerchantId());
    }

    private void insert(Connection c, Events.NewEvent e, OrderRow order) throws SQLException {
        long row = Events.insert(
                c,
                e.eventId(),
                e.type(),
                e.channel(),
                e.outTradeNo(),
                e.orderId(),
                e.body(),
                e.createdAt(),
                e.subMerchantId());
        deliver(c, row, order);
    }

    /** One delivery row per client with a webhook that sees this order's events. */
    private void deliver(Connection c, long eventRow, OrderRow order) throws SQLException {
        for (ClientCredentials client : subscribers(order)) {
            Deliveries.insert(c, eventRow, client.id(), client.webhook().url().toString(), order.id());
        }
    }

    /** The clients with a webhook that get this order's events (a client limited to some sub-merchants: theirs). */
    private List<ClientCredentials> subscribers(OrderRow order) {
        var out = new ArrayList<ClientCredentials>(1);
        for (ClientCredentials client : registry.clients().values()) {
            if (client.webhook() != null && client.mayUse(order.channel(), order.subMerchantId())) {
                out.add(client);
            }
        }
        return out;
    }

    /**
     * {@code evt_} + 26 random characters of [0-9A-Za-z] (about 154 bits): one call to the secure random for 32
     * bytes instead of one per character; a byte of 248 or more is skipped, so that every character is equally
     * likely (248 = 4 × 62).
     */
    String newId() {
        char[] id = new char[4 + 26];
        id[0] = 'e';
        id[1] = 'v';
        id[2] = 't';
        id[3] = '_';
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        int filled = 4;
        int i = 0;
        while (filled < id.length) {
            if (i == bytes.length) {
                random.nextBytes(bytes);
                i = 0;
            }
            int b = bytes[i++] & 0xff;
            if (b < 4 * ALPHABET.length) {
                id[filled++] = ALPHABET[b % ALPHABET.length];
            }
        }
        return new String(id);
    }
}
