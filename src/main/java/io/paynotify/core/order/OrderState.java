package io.paynotify.core.order;

/** The order states of CONTRACT.md §1. SUCCESS and CLOSED are terminal for payment notifications. */
public enum OrderState {
    PENDING,
    SUCCESS,
    CLOSED
}
