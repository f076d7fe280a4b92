package io.paynotify.testing;

import static io.restassured.RestAssured.given;

import java.util.Map;
import java.util.UUID;

/**
 * Creates merchant events the way production does: a correctly signed WeChat Pay v2 payment notice for a registered
 * order, through the notify endpoint; the intake writes the {@code order.paid} event (and, on {@link TestChannels#WX_HOOK},
 * one delivery each for {@link TestChannels#HOOK_A} and {@link TestChannels#HOOK_B}) in the payment's transaction.
 */
public final class HookEvents {

    private HookEvents() {}

    /** A paid order on {@link TestChannels#WX_HOOK}; the public id of its {@code order.paid} event. */
    public static String paidOnHookChannel() {
        return paid(
                TestChannels.WX_HOOK, TestChannels.WX_HOOK_APPID, TestChannels.WX_HOOK_MCH, TestChannels.WX_HOOK_KEY);
    }

    /** A paid order on {@link TestChannels#WX} (no client there has a webhook): its event's public id. */
    public static String paidOnWxChannel() {
        return paid(TestChannels.WX, TestChannels.WX_APPID, TestChannels.WX_MCH, TestChannels.WX_KEY);
    }

    /** Registers an order on that v2 channel, pays it with a signed notice (200), and returns the event's id. */
    public static String paid(String channel, String appId, String mchId, String key) {
        String no = "EV" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        long order = OrderBuilder.anOrder()
                .channel(channel)
                .outTradeNo(no)
                .amount(100)
                .insert()
                .id();
        String transactionId =
                "4200" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        byte[] body = WechatV2Fixtures.payment(no, transactionId, 100)
                .with("appid", appId)
                .with("mch_id", mchId)
                .signedWith(key, "MD5");
        given().body(body).post("/notify/wechatpay/" + channel).then().statusCode(200);
        Map<String, Object> event =
                Db.row("SELECT event_id FROM events WHERE order_id = ? AND type = 'order.paid'", order);
        return (String) event.get("event_id");
    }

    /** The internal id of an event (what the cursors walk). */
    public static long rowId(String eventId) {
        return ((Number) Db.row("SELECT id FROM events WHERE event_id = ?", eventId)
                        .get("id"))
                .longValue();
    }
    /**
     * Puts one delivery where the worker leaves it: a final state, or PENDING due in an hour; its lease is dropped,
     * so an attempt in flight right now can no longer record itself.
     */
    public static void freeze(String eventId, String client, String state, int attempts) {
        int n = Db.update(
                "UPDATE deliveries SET state = ?, attempts = ?, lease_until = NULL, lease_token = NULL,"
                        + " next_attempt_at = now() + interval '1 hour' WHERE client_id = ?"
                        + " AND event_id = (SELECT id FROM events WHERE event_id = ?)",
                state,
                attempts,
                client,
                eventId);
        org.junit.jupiter.api.Assertions.assertEquals(1, n, "one delivery of " + eventId + " to " + client);
    }

    /** The deliveries row of this event to this client, as column-name map. */
    public static java.util.Map<String, Object> delivery(String eventId, String client) {
        return Db.row(
                "SELECT d.* FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.event_id = ?"
                        + " AND d.client_id = ?",
                eventId,
                client);
    }
}
