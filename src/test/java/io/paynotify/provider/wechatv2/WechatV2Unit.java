package io.paynotify.provider.wechatv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.provider.RawNotify;
import io.paynotify.testing.TestChannels;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * The v2 adapter called directly, as the notify route calls it, on a channel parsed from the test configuration:
 * no Quarkus, no HTTP, no database. A rejection here is what the route answers 400 or 401 and never stores.
 */
final class WechatV2Unit {

    /** When every delivery of the unit tests arrives. */
    static final Instant RECEIVED_AT = Instant.parse("2026-03-01T04:05:06Z");

    /** time_end 20140903131540 of the fixtures, read as Beijing time. */
    static final Instant TIME_END = Instant.parse("2014-09-03T05:15:40Z");

    private static final WechatV2Adapter ADAPTER = new WechatV2Adapter();

    private WechatV2Unit() {}

    static String newOrderNo() {
        return "WX" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    static String newTxn() {
        return "42000" + UUID.randomUUID().toString().replace("-", "").substring(0, 23);
    }

    static VerifiedNotification verify(String channel, byte[] body) throws NotifyRejection {
        return ADAPTER.verify(TestChannels.channel(channel), new RawNotify(channel, Map.of(), body, RECEIVED_AT));
    }

    /** The notification that body on {@link TestChannels#WX} becomes; fails the test when it is refused. */
    static VerifiedNotification accepted(byte[] body) {
        return accepted(TestChannels.WX, body);
    }

    static VerifiedNotification accepted(String channel, byte[] body) {
        try {
            return verify(channel, body);
        } catch (NotifyRejection r) {
            return fail("refused " + r.getMessage() + ": " + new String(body, StandardCharsets.UTF_8));
        }
    }

    /** Asserts that body on {@link TestChannels#WX} is refused with that kind, and returns the rejection. */
    static NotifyRejection assertRefused(Kind kind, byte[] body) {
        return assertRefused(kind, TestChannels.WX, body);
    }

    static NotifyRejection assertRefused(Kind kind, String channel, byte[] body) {
        NotifyRejection r = assertThrows(
                NotifyRejection.class,
                () -> verify(channel, body),
                () -> "accepted: " + new String(body, StandardCharsets.UTF_8));
        assertEquals(kind, r.kind(), () -> r.getMessage() + ": " + new String(body, StandardCharsets.UTF_8));
        return r;
    }

    /** Asserts the kind and the cause (the label of the rejection metric and log). */
    static void assertRefused(Kind kind, Cause cause, byte[] body) {
        assertEquals(cause, assertRefused(kind, body).rejectionCause(), () -> new String(body, StandardCharsets.UTF_8));
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
