package io.paynotify.core.event;

/** The merchant events of docs/api.md "Merchant events", each written in the transaction of the change it reports. */
public enum EventType {
    /** An APPLIED payment: PENDING → SUCCESS. {@code data: {"order"}} */
    ORDER_PAID("order.paid"),
    /** PENDING → CLOSED, by a provider notice or the merchant API. {@code data: {"order"}} */
    ORDER_CLOSED("order.closed"),
    /** An APPLIED refund that succeeded. {@code data: {"order","refund"}} */
    ORDER_REFUNDED("order.refunded"),
    /** A reason the order's attention did not hold was added, one event per reason. {@code data: {"order","reason"}} */
    ORDER_ATTENTION("order.attention");

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    /** The {@code type} as the JSON and the APIs spell it. */
    public String wireName() {
        return wireName;
    }

    /** The type of that wire name, or null. */
    public static EventType ofWireName(String name) {
        for (EventType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
