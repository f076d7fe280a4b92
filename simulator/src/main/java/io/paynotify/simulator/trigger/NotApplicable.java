package io.paynotify.simulator.trigger;

/**
 * A kind that does not exist for the channel's provider. {@code providerSendsNone} tells "the provider never sends
 * such a notice" (nothing to do: success) from "this evil case needs another protocol" (a usage error).
 */
public final class NotApplicable extends Exception {

    private final boolean providerSendsNone;

    NotApplicable(String message, boolean providerSendsNone) {
        super(message);
        this.providerSendsNone = providerSendsNone;
    }

    public boolean providerSendsNone() {
        return providerSendsNone;
    }
}
