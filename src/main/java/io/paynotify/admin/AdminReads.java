package io.paynotify.admin;

import io.paynotify.persistence.AttemptRow;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.DeliveryRow;
import io.paynotify.persistence.EventRow;
import io.paynotify.persistence.Events;
import io.paynotify.persistence.NotificationRow;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Refunds;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.StreamingOutput;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The admin API's reads, rendered to JSON. Keyset pagination: one row more than the page is read to know whether
 * a next page exists, and the next page continues from the last id shown, so rows that arrive between two pages
 * neither repeat nor push older rows out of the walk. Pages of notifications are also bounded by bytes
 * ({@link #PAGE_BYTES}).
 */
@ApplicationScoped
class AdminReads {

    /**
     * The stored bodies and decoded texts one page of notifications carries at most (always at least one
     * notification): a page of {@code limit=500} replays padded to 64 KiB would otherwise be 32 MiB of bodies, held
     * several times over (driver, rows, JSON) in a heap of 128 MiB. 500 ordinary notifications, a few KiB each, fit
     * whole; past the bound the page holds fewer than {@code limit} and {@code next} continues the walk.
     */
    static final long PAGE_BYTES = 2L * 1024 * 1024;

    private final Transactions transactions;

    @Inject
    AdminReads(Transactions transactions) {
        this.transactions = transactions;
    }

    byte[] orders(String channel, String state, Boolean attention, int limit, Long after) {
        List<OrderRow> rows = transactions.autoCommit(c -> Orders.list(c, channel, state, attention, after, limit + 1));
        return page(rows, limit, "orders", OrderRow::id, AdminJson::order);
    }

    /** One order, or null. */
    byte[] order(String channel, String outTradeNo) {
        return transactions.autoCommit(c -> {
            OrderRow o = Orders.find(c, channel, outTradeNo);
            return o == null ? null : AdminJson.order(o, Refunds.forOrder(c, o.id()));
        });
    }

    /** Whether the order exists. */
    boolean orderExists(String channel, String outTradeNo) {
        return transactions.autoCommit(c -> Orders.find(c, channel, outTradeNo) != null);
    }

    /** An operator's active query's answer, with the notification it recorded (when there is one). */
    byte[] queryOutcome(String result, Long notificationId) {
        NotificationRow n =
                notificationId == null ? null : transactions.autoCommit(c -> Notifications.find(c, notificationId));
        return AdminJson.queryOutcome(result, n);
    }

    /**
     * One (channel, outTradeNo)'s notifications, oldest first, at most {@link #PAGE_BYTES} of them; null when there is
     * neither order nor notification.
     */
    StreamingOutput orderNotifications(String channel, String outTradeNo, int limit, Long after) {
        Notifications.Page p = transactions.autoCommit(c -> Notifications.known(c, channel, outTradeNo)
                ? Notifications.forOrder(c, channel, outTradeNo, after, limit, PAGE_BYTES)
                : null);
        return p == null ? null : page(p, "history");
    }

    /** Notifications, newest first, at most {@link #PAGE_BYTES} of them. */
    StreamingOutput notifications(String outcome, String channel, String source, int limit, Long after) {
        Notifications.Page p =
                transactions.autoCommit(c -> Notifications.list(c, outcome, channel, source, after, limit, PAGE_BYTES));
        return page(p, "notifications");
    }

    /**
     * A page of notifications, read already (the connection is back in the pool) and written to the client as the
     * JSON is generated; {@code next} continues after its last row whenever more follow.
     */
    private static StreamingOutput page(Notifications.Page p, String list) {
        List<NotificationRow> rows = p.rows();
        String next = p.more() ? Cursor.encode(list, rows.get(rows.size() - 1).id()) : null;
        return out -> AdminJson.page(out, rows, next, AdminJson::notification);
    }

    /**
     * Events newest first, each with its deliveries (read right after the page, so a delivery may show a state it
     * reached after the filter ran).
     */
    byte[] events(String type, String channel, String client, String state, int limit, Long after) {
        EventPage p = transactions.autoCommit(c -> {
            List<EventRow> rows = Events.list(c, type, channel, client, state, after, limit + 1);
            List<EventRow> shown = rows.size() > limit ? rows.subList(0, limit) : rows;
            return new EventPage(
                    rows,
                    Deliveries.forEvents(c, shown.stream().map(EventRow::id).toList()));
        });
        return page(
                p.rows(),
                limit,
                "events",
                EventRow::id,
                (g, e) -> AdminJson.event(g, e, p.deliveries().getOrDefault(e.id(), List.of()), null));
    }

    private record EventPage(List<EventRow> rows, Map<Long, List<DeliveryRow>> deliveries) {}

    /** One event with its deliveries and every attempt of each, or null. */
    byte[] event(String eventId) {
        return transactions.autoCommit(c -> {
            EventRow e = Events.find(c, eventId);
            if (e == null) {
                return null;
            }
            List<DeliveryRow> deliveries =
                    Deliveries.forEvents(c, List.of(e.id())).getOrDefault(e.id(), List.of());
            Map<Long, List<AttemptRow>> attempts = Deliveries.attempts(
                    c, deliveries.stream().map(DeliveryRow::id).toList());
            return AdminJson.eventDetail(e, deliveries, attempts);
        });
    }

    private static <T> byte[] page(
            List<T> rows, int limit, String list, ToLongFunction<T> id, AdminJson.ItemWriter<T> writer) {
        if (rows.size() <= limit) {
            return AdminJson.page(rows, null, writer);
        }
        List<T> shown = rows.subList(0, limit);
        return AdminJson.page(shown, Cursor.encode(list, id.applyAsLong(shown.get(limit - 1))), writer);
    }
}
