package io.paynotify.simulator.trigger;

import java.util.Arrays;
import java.util.Optional;

/** What {@code trigger} sends: the everyday notices, and the evil ones paynotify must refuse. */
public enum TriggerKind {
    PAY("pay", false),
    REFUND("refund", false),
    CLOSE("close", false),
    DUPLICATE("duplicate", false),
    RETRIES("retries", false),
    TAMPERED("tampered", true),
    STALE("stale", true),
    XXE("xxe", true),
    WRONG_APP("wrong-app", true),
    /** Another sub-merchant's genuine notices for this sub-merchant's order (partner and ISV channels). */
    OTHER_SUB_MERCHANT("other-sub-merchant", false),
    /** A partner or ISV notice that names no sub-merchant. */
    MISSING_SUB_MERCHANT("missing-sub-merchant", false),
    /** Alipay certificate mode: signed with the key of a certificate from another root. */
    FOREIGN_ROOT("foreign-root", true);

    private final String word;
    private final boolean evil;

    TriggerKind(String word, boolean evil) {
        this.word = word;
        this.evil = evil;
    }

    /** The word on the command line. */
    public String word() {
        return word;
    }

    /**
     * Evil kinds need no order: paynotify refuses them before (or regardless of) looking one up. The cross-tenant
     * kinds are refused too, but only once the order is found, so they register one.
     */
    public boolean evil() {
        return evil;
    }

    public static Optional<TriggerKind> parse(String word) {
        return Arrays.stream(values()).filter(k -> k.word.equals(word)).findFirst();
    }
}
