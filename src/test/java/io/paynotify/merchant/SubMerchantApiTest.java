package io.paynotify.merchant;

import static io.paynotify.testing.TestChannels.ALI_ISV;
import static io.paynotify.testing.TestChannels.AUTH_A;
import static io.paynotify.testing.TestChannels.AUTH_B;
import static io.paynotify.testing.TestChannels.SUB_A;
import static io.paynotify.testing.TestChannels.SUB_B;
import static io.paynotify.testing.TestChannels.WX3_SP;
import static io.paynotify.testing.TestChannels.WX_SP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md "Account modes": orders of service-provider and ISV channels carry their sub-merchant through the
 * merchant API, and a client limited to some sub-merchants ({@code sub-merchants}) can neither create, read nor close
 * another's orders, nor receive its events — over real signed HTTP against the real database.
 */
@QuarkusTest
class SubMerchantApiTest {

    static final MerchantClient PLATFORM = new MerchantClient(TestChannels.CLIENT_SP, TestChannels.CLIENT_SP_SECRET);
    static final MerchantClient ONLY_A = new MerchantClient(TestChannels.CLIENT_SP_A, TestChannels.CLIENT_SP_A_SECRET);

    static String no() {
        return "SM" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    static String order(String channel, String no, String sub, String subApp) {
        return "{\"channel\":\"" + channel + "\",\"outTradeNo\":\"" + no + "\",\"amount\":100"
                + (sub == null ? "" : ",\"subMerchantId\":\"" + sub + "\"")
                + (subApp == null ? "" : ",\"subAppId\":\"" + subApp + "\"") + "}";
    }

    @Test
    void anOrderCarriesItsSubMerchantThroughTheApiAndTheDatabase() {
        String no = no();
        var created = PLATFORM.create("k-" + no, order(WX_SP, no, SUB_A, "wxsubapp000000a1"));
        assertEquals(201, created.status(), created::toString);
        assertEquals(SUB_A, created.json().getString("subMerchantId"));
        assertEquals("wxsubapp000000a1", created.json().getString("subAppId"));
        var row = Db.row("SELECT sub_merchant_id, sub_app_id FROM orders WHERE out_trade_no = ?", no);
        assertEquals(SUB_A, row.get("sub_merchant_id"));
        assertEquals("wxsubapp000000a1", row.get("sub_app_id"));
        var read = PLATFORM.get(WX_SP, no);
        assertEquals(200, read.status());
        assertEquals(SUB_A, read.json().getString("subMerchantId"));

        // an ISV order names the authorising merchant; a direct order names none
        String isv = no();
        var isvOrder = PLATFORM.create("k-" + isv, order(ALI_ISV, isv, AUTH_B, null));
        assertEquals(201, isvOrder.status(), isvOrder::toString);
        assertEquals(AUTH_B, isvOrder.json().getString("subMerchantId"));
        assertNull(isvOrder.json().get("subAppId"));
        String direct = no();
        var directOrder = MerchantClient.a().create("k-" + direct, MerchantClient.order(TestChannels.WX, direct, 100));
        assertEquals(201, directOrder.status());
        assertTrue(directOrder.json().getMap("").containsKey("subMerchantId"), "the member is there, null");
        assertNull(directOrder.json().get("subMerchantId"));
    }

    @Test
    void theModeDecidesWhichSubMerchantFieldsAnOrderTakes() {
        assertField(PLATFORM.create("k-" + no(), order(WX_SP, no(), null, null)), "subMerchantId");
        assertField(PLATFORM.create("k-" + no(), order(WX_SP, no(), "0123", null)), "subMerchantId");
        assertField(PLATFORM.create("k-" + no(), order(WX3_SP, no(), SUB_A, "bad app id")), "subAppId");
        assertField(PLATFORM.create("k-" + no(), order(ALI_ISV, no(), SUB_A, null)), "subMerchantId");
        assertField(PLATFORM.create("k-" + no(), order(ALI_ISV, no(), AUTH_A, "wxsubapp000000a1")), "subAppId");
        assertField(MerchantClient.a().create("k-" + no(), order(TestChannels.WX, no(), SUB_A, null)), "subMerchantId");
        assertField(
                MerchantClient.a().create("k-" + no(), order(TestChannels.WX, no(), null, "wxsubapp000000a1")),
                "subAppId");
    }

    static void assertField(MerchantClient.Answer a, String field) {
        assertEquals(400, a.status(), a::toString);
        assertEquals(field, a.json().getString("field"), a::toString);
    }

    @Test
    void aClientLimitedToSomeSubMerchantsNeverSeesAnothersOrders() {
        // A's client creates A's orders, and is refused B's
        String mine = no();
        assertEquals(
                201,
                ONLY_A.create("k-" + mine, order(WX3_SP, mine, SUB_A, null)).status());
        String isvMine = no();
        assertEquals(
                201,
                ONLY_A.create("k-" + isvMine, order(ALI_ISV, isvMine, AUTH_A, null))
                        .status());
        var refused = ONLY_A.create("k-" + no(), order(WX3_SP, no(), SUB_B, null));
        assertEquals(403, refused.status(), refused::toString);
        assertEquals("subMerchantId", refused.json().getString("field"));

        // B's order, created by the platform: A's client can neither read nor close it
        String theirs = no();
        assertEquals(
                201,
                PLATFORM.create("k-" + theirs, order(WX3_SP, theirs, SUB_B, null))
                        .status());
        assertEquals(404, ONLY_A.get(WX3_SP, theirs).status());
        assertEquals(404, ONLY_A.close(WX3_SP, theirs, "c-" + theirs).status());
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", theirs)
                        .get("state"));
        assertEquals(200, ONLY_A.get(WX3_SP, mine).status());
        assertEquals(200, PLATFORM.get(WX3_SP, theirs).status());
    }

    @Test
    void aClientLimitedToSomeSubMerchantsGetsOnlyTheirEvents() throws Exception {
        String mine = no();
        String theirs = no();
        assertEquals(
                201,
                PLATFORM.create("k-" + mine, order(WX_SP, mine, SUB_A, null)).status());
        assertEquals(
                201,
                PLATFORM.create("k-" + theirs, order(WX_SP, theirs, SUB_B, null))
                        .status());
        // both closed by the platform: one order.closed event each
        assertEquals(200, PLATFORM.close(WX_SP, theirs, "c-" + theirs).status());
        assertEquals(200, PLATFORM.close(WX_SP, mine, "c-" + mine).status());
        String mineEvent = (String) Db.row("SELECT event_id FROM events WHERE out_trade_no = ?", mine)
                .get("event_id");
        String theirEvent = (String) Db.row("SELECT event_id FROM events WHERE out_trade_no = ?", theirs)
                .get("event_id");
        assertEquals(
                SUB_B,
                Db.row("SELECT sub_merchant_id FROM events WHERE event_id = ?", theirEvent)
                        .get("sub_merchant_id"));

        // deliveries: only A's event for A's client
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id"
                                + " WHERE e.event_id = ? AND d.client_id = ?",
                        mineEvent,
                        TestChannels.CLIENT_SP_A));
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id"
                                + " WHERE e.event_id = ? AND d.client_id = ?",
                        theirEvent,
                        TestChannels.CLIENT_SP_A));
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> !WebhookReceiver.get().of("/sp-a", mineEvent).isEmpty());

        // the pull list: A's event, never B's; the platform's client sees both
        List<String> seenByA = EventPullTest.walkUntil(
                        ONLY_A, cursorBefore(mineEvent, theirEvent), 500, List.of(mineEvent))
                .ids();
        assertTrue(seenByA.contains(mineEvent));
        assertTrue(!seenByA.contains(theirEvent), "another sub-merchant's event: " + seenByA);
        List<String> seenByAll = EventPullTest.walkUntil(
                        PLATFORM, cursorBefore(mineEvent, theirEvent), 500, List.of(mineEvent, theirEvent))
                .ids();
        assertTrue(seenByAll.containsAll(List.of(mineEvent, theirEvent)));
    }

    /** A cursor just before the older of the two events. */
    static String cursorBefore(String... eventIds) {
        long first = Long.MAX_VALUE;
        for (String id : eventIds) {
            first = Math.min(
                    first,
                    ((Number) Db.row("SELECT id FROM events WHERE event_id = ?", id)
                                    .get("id"))
                            .longValue());
        }
        return io.paynotify.http.KeysetCursor.encode("events", first - 1);
    }
}
