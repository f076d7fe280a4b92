package io.paynotify.core.notify;

/**
 * What a verified notification means to us, before the order is looked at (docs/api.md "How a notification is handled").
 * Each provider adapter maps its own statuses onto these; the state machine only ever sees these.
 */
public enum NotifyClass {
    /** The buyer paid: v2 SUCCESS/SUCCESS, v3 TRANSACTION.SUCCESS, Alipay TRADE_SUCCESS/TRADE_FINISHED. */
    PAID,
    /** The trade was closed unpaid (Alipay TRADE_CLOSED that is not a refund). */
    CLOSE,
    /** A refund notice, never to be read as a payment or a close. */
    REFUND,
    /** A non-final status such as WAIT_BUYER_PAY or a v2 result_code FAIL. */
    INFO,
    /** Anything not recognised: recorded and flagged, answered with a failure ack. */
    UNKNOWN
}
