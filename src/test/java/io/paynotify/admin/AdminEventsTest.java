package io.paynotify.admin;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.http.HttpDates;
import io.paynotify.testing.Db;
import io.paynotify.testing.HookEvents;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The admin event calls (docs/api.md "Admin event calls") over real HTTP against the real database. Events come from real v2 payment
 * notices on {@code wx-hook}; the delivery worker runs meanwhile, so a test that needs a delivery to hold still
 * first puts it in a state the worker leaves alone ({@link #freeze}) and then compares what the API says with the
 * database.
 */
@QuarkusTest
class AdminEventsTest {

    static final List<String> EVENT_KEYS = List.of("id", "type", "createdAt", "data", "deliveries");
    static final List<String> DELIVERY_KEYS =
            List.of("client", "state", "attempts", "nextAttemptAt", "lastAttemptAt", "lastStatus", "lastError");

    static JsonPath get(String url) {
        return given().header("Authorization", AdminData.AUTH)
                .get(url)
                .then()
                .statusCode(200)
                .contentType("application/json")
                .extract()
                .jsonPath();
    }

    static List<String> ids(JsonPath page) {
        return page.getList("items.id", String.class);
    }

    static String time(Object dbTime) {
        return dbTime == null ? null : HttpDates.jsonTime((Instant) dbTime);
    }

    /** What the API must show for a delivery row of the database. */
    static Map<String, Object> expected(Map<String, Object> row) {
        var m = new LinkedHashMap<String, Object>();
        m.put("client", row.get("client_id"));
        m.put("state", row.get("state"));
        m.put("attempts", row.get("attempts"));
        m.put("nextAttemptAt", "PENDING".equals(row.get("state")) ? time(row.get("next_attempt_at")) : null);
        m.put("lastAttemptAt", time(row.get("last_attempt_at")));
        m.put("lastStatus", row.get("last_status"));
        m.put("lastError", row.get("last_error"));
        return m;
    }

    static Map<String, Object> storedBody(String eventId) {
        byte[] body = (byte[])
                Db.row("SELECT body FROM events WHERE event_id = ?", eventId).get("body");
        return new JsonPath(new String(body, StandardCharsets.UTF_8)).getMap("$");
    }

    /** The event of an order closed through the merchant API by hook-a (whose channel is wx-hook). */
    static String closedOnHookChannel() {
        String no = "EC" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        long order =
                anOrder().channel(TestChannels.WX_HOOK).outTradeNo(no).insert().id();
        var hookA = new MerchantClient(TestChannels.HOOK_A, TestChannels.HOOK_A_SECRET);
        assertEquals(200, hookA.close(TestChannels.WX_HOOK, no, "close-" + no).status());
        return (String) Db.row("SELECT event_id FROM events WHERE order_id = ? AND type = 'order.closed'", order)
                .get("event_id");
    }

    @Test
    void listShowsTheStoredEventJsonAndEachDeliveryNewestFirst() {
        String older = HookEvents.paidOnHookChannel();
        String newer = HookEvents.paidOnHookChannel();
        HookEvents.freeze(older, TestChannels.HOOK_A, "FAILED", 4);
        Db.update(
                "UPDATE deliveries SET last_status = 503, last_error = 'timeout', last_attempt_at = now()"
                        + " WHERE client_id = ? AND event_id = (SELECT id FROM events WHERE event_id = ?)",
                TestChannels.HOOK_A,
                older);
        HookEvents.freeze(older, TestChannels.HOOK_B, "SUCCEEDED", 1);
        HookEvents.freeze(newer, TestChannels.HOOK_A, "PENDING", 0);
        HookEvents.freeze(newer, TestChannels.HOOK_B, "PENDING", 0);

        JsonPath page = get("/admin/events?channel=" + TestChannels.WX_HOOK + "&limit=2");
        assertEquals(List.of(newer, older), ids(page));
        assertNotNull(page.getString("next"), "more events exist: next is a cursor");

        for (int i = 0; i < 2; i++) {
            String id = ids(page).get(i);
            Map<String, Object> item = page.getMap("items[" + i + "]");
            assertEquals(EVENT_KEYS, List.copyOf(item.keySet()));
            var members = new LinkedHashMap<>(item);
            members.remove("deliveries");
            assertEquals(storedBody(id), members, "the members of the stored event JSON, unchanged");
            assertEquals("order.paid", item.get("type"));
            assertTrue(((String) item.get("createdAt")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
            List<Map<String, Object>> deliveries = page.getList("items[" + i + "].deliveries");
            assertEquals(2, deliveries.size());
            assertEquals(DELIVERY_KEYS, List.copyOf(deliveries.get(0).keySet()));
            assertFalse(deliveries.get(0).containsKey("attemptLog"), "the list shows no attempt log");
            assertEquals(expected(HookEvents.delivery(id, TestChannels.HOOK_A)), deliveries.get(0));
            assertEquals(expected(HookEvents.delivery(id, TestChannels.HOOK_B)), deliveries.get(1));
        }
        Map<String, Object> failed = page.getMap("items[1].deliveries[0]");
        assertEquals("FAILED", failed.get("state"));
        assertEquals(4, failed.get("attempts"));
        assertEquals(503, failed.get("lastStatus"));
        assertEquals("timeout", failed.get("lastError"));
        assertNull(failed.get("nextAttemptAt"), "a finished delivery has no next attempt");
        assertNotNull(page.getMap("items[0].deliveries[0]").get("nextAttemptAt"));
    }

    @Test
    void filtersByTypeChannelClientAndDeliveryState() {
        String paid = HookEvents.paidOnHookChannel();
        String closed = closedOnHookChannel();
        String elsewhere = HookEvents.paidOnWxChannel();
        HookEvents.freeze(paid, TestChannels.HOOK_A, "FAILED", 3);
        HookEvents.freeze(paid, TestChannels.HOOK_B, "SUCCEEDED", 1);
        HookEvents.freeze(closed, TestChannels.HOOK_A, "SUCCEEDED", 1);
        HookEvents.freeze(closed, TestChannels.HOOK_B, "PENDING", 0);
        List<String> mine = List.of(paid, closed, elsewhere);

        // which of this test's events each filter keeps (the lists also hold other tests' events)
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("", List.of(paid, closed, elsewhere));
        cases.put("type=order.paid", List.of(paid, elsewhere));
        cases.put("type=order.closed", List.of(closed));
        cases.put("type=order.refunded", List.of());
        cases.put("channel=" + TestChannels.WX_HOOK, List.of(paid, closed));
        cases.put("channel=" + TestChannels.WX, List.of(elsewhere));
        cases.put("client=" + TestChannels.HOOK_A, List.of(paid, closed));
        cases.put("client=" + TestChannels.CLIENT_A, List.of());
        cases.put("client=no-such-client", List.of());
        cases.put("state=FAILED", List.of(paid));
        cases.put("state=PENDING", List.of(closed));
        cases.put("state=SUCCEEDED", List.of(paid, closed));
        cases.put("client=" + TestChannels.HOOK_A + "&state=FAILED", List.of(paid));
        cases.put("client=" + TestChannels.HOOK_B + "&state=FAILED", List.of());
        cases.put("client=" + TestChannels.HOOK_B + "&state=PENDING", List.of(closed));
        cases.put("client=" + TestChannels.HOOK_A + "&state=PENDING", List.of());
        cases.put(
                "type=order.paid&channel=" + TestChannels.WX_HOOK + "&client=" + TestChannels.HOOK_A + "&state=FAILED",
                List.of(paid));
        cases.put("type=&channel=&client=&state=", List.of(paid, closed, elsewhere));

        cases.forEach((query, kept) -> {
            JsonPath page = get("/admin/events?limit=500&" + query);
            List<String> shown = ids(page);
            List<String> mineShown = shown.stream().filter(mine::contains).toList();
            // newest first: the close came after the first payment, the wx-test payment last
            var expectedOrder = new ArrayList<>(kept);
            java.util.Collections.reverse(expectedOrder);
            assertEquals(expectedOrder, mineShown, query);
            if (query.contains("type=order.")) {
                String type = query.replaceAll(".*type=(order\\.[a-z]+).*", "$1");
                page.getList("items.type", String.class).forEach(t -> assertEquals(type, t, query));
            }
            if (query.equals("client=" + TestChannels.CLIENT_A) || query.equals("client=no-such-client")) {
                assertEquals(List.of(), shown, "no delivery to " + query);
                assertNull(page.getString("next"));
            }
        });
        JsonPath wx = get("/admin/events?channel=" + TestChannels.WX + "&limit=500");
        int i = ids(wx).indexOf(elsewhere);
        assertEquals(List.of(), wx.getList("items[" + i + "].deliveries"), "nobody on wx-test has a webhook");
    }

    @Test
    void keysetPagesNeitherRepeatNorShiftWhileEventsArrive() {
        var created = new ArrayList<String>();
        for (int i = 0; i < 5; i++) {
            created.add(HookEvents.paidOnHookChannel());
        }
        var arrived = new ArrayList<String>();
        var walked = new ArrayList<String>();
        String base = "/admin/events?channel=" + TestChannels.WX_HOOK + "&limit=2";
        String url = base;
        int pages = 0;
        while (url != null) {
            JsonPath page = get(url);
            walked.addAll(ids(page));
            pages++;
            if (pages <= 2) {
                arrived.add(HookEvents.paidOnHookChannel());
            }
            String next = page.getString("next");
            url = next == null ? null : base + "&after=" + next;
            assertTrue(pages < 1000, "the walk ends");
        }
        assertEquals(new LinkedHashSet<>(walked).size(), walked.size(), "no event twice");
        var newestFirst = new ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst, walked.subList(0, 5), "the five events, newest first, without gaps");
        arrived.forEach(a -> assertFalse(walked.contains(a), "an event arriving during the walk is not in it"));
        long previous = Long.MAX_VALUE;
        for (String id : walked) {
            long row = HookEvents.rowId(id);
            assertTrue(row < previous, "descending internal ids");
            previous = row;
        }
        // a new walk starts with the arrivals
        assertEquals(List.of(arrived.get(1), arrived.get(0)), ids(get(base)));
    }

    @Test
    void oneEventShowsEveryAttemptOfEachDelivery() {
        String id = HookEvents.paidOnHookChannel();
        HookEvents.freeze(id, TestChannels.HOOK_A, "FAILED", 2);
        HookEvents.freeze(id, TestChannels.HOOK_B, "SUCCEEDED", 1);
        long a = ((Number) HookEvents.delivery(id, TestChannels.HOOK_A).get("id")).longValue();
        long b = ((Number) HookEvents.delivery(id, TestChannels.HOOK_B).get("id")).longValue();
        String insert = "INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)"
                + " VALUES (?, now() - ?::interval, ?, ?, ?)";
        Db.update(insert, a, "2 minutes", 503, null, 120);
        Db.update(insert, a, "1 minute", null, "timeout", 10000);
        Db.update(insert, b, "30 seconds", 204, null, 15);

        JsonPath event = get("/admin/events/" + id);
        assertEquals(EVENT_KEYS, List.copyOf(event.getMap("$").keySet()));
        var members = new LinkedHashMap<>(event.getMap("$"));
        members.remove("deliveries");
        assertEquals(storedBody(id), members);
        var keys = new ArrayList<>(DELIVERY_KEYS);
        keys.add("attemptLog");
        assertEquals(keys, List.copyOf(event.getMap("deliveries[0]").keySet()));
        for (int i = 0; i < 2; i++) {
            String client = i == 0 ? TestChannels.HOOK_A : TestChannels.HOOK_B;
            Map<String, Object> row = HookEvents.delivery(id, client);
            var shown = new LinkedHashMap<>(event.getMap("deliveries[" + i + "]"));
            List<Map<String, Object>> log = event.getList("deliveries[" + i + "].attemptLog");
            shown.remove("attemptLog");
            assertEquals(expected(row), shown);
            var fromDb = new ArrayList<Map<String, Object>>();
            for (Map<String, Object> r : Db.rows(
                    "SELECT at, status, error, duration_ms FROM delivery_attempts WHERE delivery_id = ? ORDER BY id",
                    row.get("id"))) {
                var m = new LinkedHashMap<String, Object>();
                m.put("at", time(r.get("at")));
                m.put("status", r.get("status"));
                m.put("error", r.get("error"));
                m.put("durationMs", r.get("duration_ms"));
                fromDb.add(m);
            }
            assertEquals(fromDb, log, "every attempt, oldest first");
        }
        List<Map<String, Object>> logA = event.getList("deliveries[0].attemptLog");
        Map<String, Object> timeout = logA.get(logA.size() - 1);
        assertNull(timeout.get("status"));
        assertEquals("timeout", timeout.get("error"));
        assertEquals(10000, timeout.get("durationMs"));
        assertEquals(503, logA.get(logA.size() - 2).get("status"));

        given().header("Authorization", AdminData.AUTH)
                .get("/admin/events/evt_" + "0".repeat(26))
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404));
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/events/not-an-event-id")
                .then()
                .statusCode(404);
    }

    @Test
    void badParametersAre400NamingTheParameter() {
        String ordersCursor = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("v1:orders:5".getBytes(StandardCharsets.US_ASCII));
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("type=order.PAID", "type");
        bad.put("type=paid", "type");
        bad.put("state=pending", "state");
        bad.put("state=SUCCESS", "state");
        bad.put("client=two words", "client");
        bad.put("client=" + "c".repeat(256), "client");
        bad.put("channel=WX-HOOK", "channel");
        bad.put("limit=0", "limit");
        bad.put("limit=501", "limit");
        bad.put("limit=abc", "limit");
        bad.put("after=not-a-cursor", "after");
        bad.put("after=" + ordersCursor, "after");
        bad.forEach((query, field) -> given().header("Authorization", AdminData.AUTH)
                .get("/admin/events?" + query)
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("field", equalTo(field)));
        // the bounds themselves are fine
        assertTrue(get("/admin/events?limit=500").getList("items").size() <= 500);
        assertTrue(get("/admin/events?limit=1").getList("items").size() <= 1);
        given().header("Authorization", AdminData.AUTH)
                .post("/admin/events/evt_" + "0".repeat(26) + "/redeliver?client=" + "c".repeat(256))
                .then()
                .statusCode(400)
                .body("field", equalTo("client"));
    }

    @Test
    void redeliverQueuesAgainResetsTheCountAndRefusesWhileInFlight() {
        String id = HookEvents.paidOnHookChannel();
        String urlA = (String) HookEvents.delivery(id, TestChannels.HOOK_A).get("webhook_url");
        // hook-a's webhook disabled, so that the worker leaves hook-a's delivery PENDING once it is queued again
        Db.update(
                "INSERT INTO webhook_endpoints (client_id, webhook_url, disabled_at) VALUES (?, ?, now())"
                        + " ON CONFLICT (client_id, webhook_url) DO UPDATE SET disabled_at = now()",
                TestChannels.HOOK_A,
                urlA);
        try {
            HookEvents.freeze(id, TestChannels.HOOK_A, "FAILED", 7);
            HookEvents.freeze(id, TestChannels.HOOK_B, "SUCCEEDED", 9);
            long attemptsLogged = Db.count(
                    "SELECT count(*) FROM delivery_attempts WHERE delivery_id = ?",
                    HookEvents.delivery(id, TestChannels.HOOK_A).get("id"));

            redeliver(id, "?client=" + TestChannels.HOOK_A).statusCode(202);
            Map<String, Object> a = HookEvents.delivery(id, TestChannels.HOOK_A);
            assertEquals("PENDING", a.get("state"));
            assertEquals(0, a.get("attempts"));
            assertNull(a.get("lease_until"));
            assertTrue(
                    !((Instant) a.get("next_attempt_at")).isAfter(Instant.now().plusSeconds(1)), "due now");
            Map<String, Object> b = HookEvents.delivery(id, TestChannels.HOOK_B);
            assertEquals("SUCCEEDED", b.get("state"), "only hook-a's delivery was queued again");
            assertEquals(9, b.get("attempts"));
            JsonPath shown = get("/admin/events/" + id);
            assertEquals("PENDING", shown.getString("deliveries[0].state"));
            assertEquals(0, shown.getInt("deliveries[0].attempts"));
            assertEquals(
                    attemptsLogged, shown.getList("deliveries[0].attemptLog").size(), "the log keeps every attempt");

            // an attempt in flight (a live lease): 409, with or without client, and nothing changes
            Db.update(
                    "UPDATE deliveries SET lease_until = now() + interval '1 minute', attempts = 2 WHERE id = ?",
                    a.get("id"));
            redeliver(id, "?client=" + TestChannels.HOOK_A)
                    .statusCode(409)
                    .contentType("application/problem+json")
                    .body("status", equalTo(409));
            redeliver(id, "").statusCode(409);
            assertEquals(2, HookEvents.delivery(id, TestChannels.HOOK_A).get("attempts"));
            assertEquals(
                    "SUCCEEDED", HookEvents.delivery(id, TestChannels.HOOK_B).get("state"));
            Db.update("UPDATE deliveries SET lease_until = NULL WHERE id = ?", a.get("id"));

            // without client: every delivery of the event, whatever its state
            redeliver(id, "").statusCode(202);
            a = HookEvents.delivery(id, TestChannels.HOOK_A);
            assertEquals("PENDING", a.get("state"));
            assertEquals(0, a.get("attempts"));
            b = HookEvents.delivery(id, TestChannels.HOOK_B);
            // hook-b's webhook is enabled: the worker may already have attempted it (at most three times in all)
            assertTrue(((Number) b.get("attempts")).intValue() <= 3, "the count was reset: " + b.get("attempts"));

            // 404: unknown event, no delivery for that client, an event without deliveries
            redeliver("evt_" + "0".repeat(26), "").statusCode(404);
            redeliver("evt_short", "").statusCode(404);
            redeliver(id, "?client=" + TestChannels.CLIENT_A).statusCode(404);
            redeliver(id, "?client=no-such-client").statusCode(404);
            redeliver(HookEvents.paidOnWxChannel(), "").statusCode(404);

            // enabling the webhook: 204, the endpoint row says enabled
            given().header("Authorization", AdminData.AUTH)
                    .post("/admin/clients/" + TestChannels.HOOK_A + "/webhook/enable")
                    .then()
                    .statusCode(204);
            assertNull(Db.row(
                            "SELECT disabled_at FROM webhook_endpoints WHERE client_id = ? AND webhook_url = ?",
                            TestChannels.HOOK_A,
                            urlA)
                    .get("disabled_at"));
        } finally {
            Db.update(
                    "UPDATE webhook_endpoints SET disabled_at = NULL WHERE client_id = ? AND webhook_url = ?",
                    TestChannels.HOOK_A,
                    urlA);
        }
    }

    @Test
    void enablingAWebhookIs204AndOnlyForAClientWithOne() {
        String enable = "/admin/clients/{client}/webhook/enable";
        // a webhook that was never disabled: nothing to change, still 204
        given().header("Authorization", AdminData.AUTH)
                .post(enable, TestChannels.HOOK_B)
                .then()
                .statusCode(204);
        given().header("Authorization", AdminData.AUTH)
                .post(enable, TestChannels.CLIENT_A)
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        given().header("Authorization", AdminData.AUTH)
                .post(enable, "no-such-client")
                .then()
                .statusCode(404);
        // the bearer token guards the new calls like every other
        given().post(enable, TestChannels.HOOK_B).then().statusCode(401);
        given().get("/admin/events").then().statusCode(401);
        given().post("/admin/events/evt_" + "0".repeat(26) + "/redeliver")
                .then()
                .statusCode(401);
    }

    static io.restassured.response.ValidatableResponse redeliver(String id, String query) {
        return given().header("Authorization", AdminData.AUTH)
                .post("/admin/events/" + id + "/redeliver" + query)
                .then();
    }
}
