package io.paynotify.core.query;

/** What one active query at a provider found (docs/api.md "Active query"); the names are the admin call's {@code result}. */
public enum QueryResult {
    /** A verified answer that the trade is paid (WeChat SUCCESS/REFUND, Alipay TRADE_SUCCESS/FINISHED/paid CLOSED). */
    PAID,
    /** A verified answer that the trade was closed unpaid (WeChat CLOSED/REVOKED, Alipay TRADE_CLOSED unpaid). */
    CLOSE,
    /** A verified answer with a non-final state (NOTPAY, USERPAYING, WAIT_BUYER_PAY, …): nothing is recorded. */
    NOT_FINAL,
    /** A verified "no such order" answer: nothing is recorded. */
    NOT_FOUND,
    /** A verified answer with a state this version does not know: recorded and flagged like a notification. */
    UNKNOWN,
    /** No verified answer: a timeout, a transport or HTTP error, a failed check, an error answer. Never applied. */
    ERROR
}
