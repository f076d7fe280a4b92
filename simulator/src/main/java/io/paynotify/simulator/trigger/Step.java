package io.paynotify.simulator.trigger;

/** One notice to send and the answer paynotify should give it. */
public record Step(Notice notice, Expectation expected) {}
