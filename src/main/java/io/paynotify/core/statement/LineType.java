package io.paynotify.core.statement;

/** What one bill line is: a payment, a refund, or another line (a revoked trade, ...) that is kept and not compared. */
public enum LineType {
    PAYMENT,
    REFUND,
    OTHER
}
