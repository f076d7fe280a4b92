package io.paynotify.simulator.cli;

/** A command line that cannot be run as given: the message says what is wrong; the command exits 2. */
public final class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
