package io.paynotify.core.order;

/** What a recorded notification did to its order. */
public enum Outcome {
    /** The notification moved the order (PENDING to SUCCESS or CLOSED). */
    APPLIED,
    /** The same fact again: nothing changes. */
    DUPLICATE,
    /** Authentic but not acted on, with a reason. */
    IGNORED,
    /** Something an operator must look at; the order (where known) gets the reason as attention. */
    ANOMALY
}
