package io.paynotify.core.notify;

/** Where a recorded notification came from (CONTRACT.md §4 {@code source}). */
public enum Source {
    /** A provider's delivery to {@code /notify/**}. */
    NOTIFY,
    /** A provider's answer to an active query (CONTRACT.md §9); its raw body is the provider's response. */
    QUERY
}
