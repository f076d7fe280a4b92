package io.paynotify.config;

/**
 * A configuration error found at start. The message names the channel or client and the key, never a value, so
 * it can be logged as it is.
 */
public final class ConfigProblem extends RuntimeException {

    public ConfigProblem(String message) {
        super(message, null, false, false);
    }
}
