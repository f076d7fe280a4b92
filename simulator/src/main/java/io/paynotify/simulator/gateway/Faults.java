package io.paynotify.simulator.gateway;

/** What the APIs share about faults. */
final class Faults {

    private Faults() {}

    /**
     * Waits out {@link ScriptedTrade#delay()} when the fault is {@link Fault#SLOW}; interrupted when the gateway
     * closes.
     */
    static void pauseIfSlow(ScriptedTrade trade) throws InterruptedException {
        if (trade.fault() == Fault.SLOW && !trade.delay().isZero()) {
            Thread.sleep(trade.delay().toMillis());
        }
    }
}
