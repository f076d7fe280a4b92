package io.paynotify.core.notify;

/** Where a recorded notification came from ({@code source} in docs/api.md "Reading one order's history"). */
public enum Source {
    /** A provider's delivery to {@code /notify/**}. */
    NOTIFY,
    /** A provider's answer to an active query (docs/api.md "Active query"); its raw body is the provider's response. */
    QUERY
}
