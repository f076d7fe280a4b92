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
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The admin API's reads, rendered to JSON. Keyset pagination: one row more than the page is read to know whether
 * a next page exists, and the next page continues from the last id shown, so rows that arrive between two pages
 * neither repeat nor push older rows out of the walk.
 */
@ApplicationScoped
class AdminReads {

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

    /** One (channel, outTradeNo)'s notifications, oldest first; null when there is neither order nor notification. */
    byte[] orderNotifications(String channel, String outTradeNo, int limit, Long after) {
        List<NotificationRow> rows = transactions.autoCommit(c -> Notifications.known(c, channel, outTradeNo)
                ? Notifications.forOrder(c, channel, outTradeNo, after, limit + 1)
                : null);
        return rows == null ? null : page(rows, limit, "history", NotificationRow::id, AdminJson::notification);
    }

    byte[] notifications(String outcome, String channel, String source, int limit, Long after) {
        List<NotificationRow> rows =
                transactions.autoCommit(c -> Notifications.list(c, outcome, channel, source, after, limit + 1));
        return page(rows, limit, "notifications", NotificationRow::id, AdminJson::notification);
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
