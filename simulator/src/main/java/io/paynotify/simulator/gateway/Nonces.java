package io.paynotify.simulator.gateway;

import java.util.concurrent.ThreadLocalRandom;

/** Random strings for nonces and request ids; a simulator's nonces need not be unpredictable. */
final class Nonces {

    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private Nonces() {}

    static String alphanumeric(int length) {
        StringBuilder s = new StringBuilder(length);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < length; i++) {
            s.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
        }
        return s.toString();
    }
}
