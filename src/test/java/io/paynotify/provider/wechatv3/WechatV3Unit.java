package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.NotifyRejection.Kind;
import io.paynotify.provider.RawNotify;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV3Fixtures;
import io.paynotify.testing.WechatV3Fixtures.Delivery;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

/**
 * The v3 adapter called directly, as the notify route calls it, with a fixed clock and the channel parsed from the
 * test configuration: no Quarkus, no HTTP, no database. Deliveries are signed at {@link #NOW} unless a test says
 * otherwise, and arrive at {@link #RECEIVED_AT}.
 */
final class WechatV3Unit {

    /** The adapter's clock, in unix seconds. */
    static final long NOW = 1_800_000_000L;

    static final Instant RECEIVED_AT = Instant.ofEpochSecond(NOW);

    static final Clock CLOCK = Clock.fixed(RECEIVED_AT, ZoneOffset.UTC);

    private static final WechatV3Adapter ADAPTER = new WechatV3Adapter(CLOCK);

    private WechatV3Unit() {}

    static String newOrderNo() {
        return "V3" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    static String txnId(String outTradeNo) {
        return "42000" + outTradeNo.substring(2, 26);
    }

    static VerifiedNotification verify(RawNotify raw) throws NotifyRejection {
        return ADAPTER.verify(TestChannels.channel(TestChannels.WX3), raw);
    }

    static VerifiedNotification accepted(Delivery d) {
        return accepted(d.raw(RECEIVED_AT));
    }

    static VerifiedNotification accepted(RawNotify raw) {
        try {
            return verify(raw);
        } catch (NotifyRejection r) {
            return fail("refused " + r.getMessage());
        }
    }

    static NotifyRejection assertRefused(Kind kind, Delivery d) {
        return assertRefused(kind, d.raw(RECEIVED_AT));
    }

    static NotifyRejection assertRefused(Kind kind, RawNotify raw) {
        NotifyRejection r = assertThrows(NotifyRejection.class, () -> verify(raw), "accepted");
        assertEquals(kind, r.kind(), r.getMessage());
        return r;
    }

    /** Asserts the kind and the cause (the label of the rejection metric and log). */
    static void assertRefused(Kind kind, Cause cause, Delivery d) {
        assertEquals(cause, assertRefused(kind, d).rejectionCause());
    }

    static void assertRefused(Kind kind, Cause cause, RawNotify raw) {
        assertEquals(cause, assertRefused(kind, raw).rejectionCause());
    }

    /** A TRANSACTION.SUCCESS notice for that payment, signed at {@link #NOW}. */
    static Delivery paid(String outTradeNo, long total) {
        return WechatV3Fixtures.paidAt(outTradeNo, txnId(outTradeNo), total, NOW);
    }

    /** The resource fields encrypted into an envelope of that event, signed at {@link #NOW}. */
    static Delivery signedResource(String eventType, Map<String, Object> resourceFields) {
        return WechatV3Fixtures.signedAt(WechatV3Fixtures.body(eventType, resourceFields), NOW);
    }

    /** A TRANSACTION.SUCCESS envelope around a resource object the test built, signed at {@link #NOW}. */
    static Delivery signedEnvelope(Map<String, Object> resourceObject) {
        return WechatV3Fixtures.signedAt(WechatV3Fixtures.envelopeBody("TRANSACTION.SUCCESS", resourceObject), NOW);
    }

    /** Any body text, signed at {@link #NOW}. */
    static Delivery signed(String body) {
        return WechatV3Fixtures.signedAt(body, NOW);
    }
}
