package io.paynotify.merchant;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.HookEvents;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.OrderBuilder;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;

/**
 * The pull list {@code GET /api/v1/events} (docs/api.md "Pulling events") over real signed HTTP against the real database: oldest
 * first, a cursor that is never null, only the client's channels, strict parameters, and no event ever skipped by a
 * cursor while an earlier transaction could still insert one.
 *
 * <p>An event becomes visible once every transaction older than its own has ended — in the whole PostgreSQL
 * server, other test runs included — so the walks here poll for a while instead of expecting an event at once.
 */
@QuarkusTest
class EventPullTest {

    static final MerchantClient HOOK_A = new MerchantClient(TestChannels.HOOK_A, TestChannels.HOOK_A_SECRET);

    /** Long enough for a transaction of another test run on the same server to end. */
    static final long VISIBLE_WITHIN_MS = 20_000;

    record Page(List<String> ids, String next, byte[] raw, JsonPath json) {}

    static Page pull(MerchantClient client, String query) {
        MerchantClient.Answer a = client.request("GET", "/api/v1/events" + (query.isEmpty() ? "" : "?" + query))
                .send();
        assertEquals(200, a.status(), a::toString);
        assertEquals("application/json", a.header("Content-Type").orElse(""));
        assertFalse(a.header("Idempotent-Replayed").isPresent(), "a GET carries no idempotency headers");
        JsonPath json = a.json();
        String next = json.getString("next");
        assertNotNull(next, "next is never null");
        return new Page(json.getList("items.id", String.class), next, a.body(), json);
    }

    static String after(String cursor) {
        return "after=" + cursor;
    }

    /** The internal id a cursor continues after. */
    static long cursorId(String cursor) {
        String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        assertTrue(text.startsWith("v1:events:"), text);
        return Long.parseLong(text.substring("v1:events:".length()));
    }

    /**
     * The cursor at the end of the list, once every event committed so far on these channels is behind it (an event
     * committed while another transaction was running shows only after that one ended).
     */
    static String endCursor(MerchantClient client, String... channels) {
        long newest = ((Number) Db.row("SELECT coalesce(max(id), 0) AS m FROM events WHERE channel = ANY (?)", (Object)
                                channels)
                        .get("m"))
                .longValue();
        String[] cursor = {null};
        visible("events up to " + newest).until(() -> {
            Page p;
            do {
                p = pull(client, "limit=500" + (cursor[0] == null ? "" : "&" + after(cursor[0])));
                cursor[0] = p.next();
            } while (!p.ids().isEmpty());
            return cursorId(cursor[0]) >= newest;
        });
        return cursor[0];
    }

    static String endCursor(MerchantClient client) {
        return endCursor(client, TestChannels.WX_HOOK);
    }

    /**
     * Walks on from {@code cursor} with pages of {@code limit}, until every expected event has been seen (polling
     * while they are not yet visible) and a page came back empty; the events seen, in order.
     */
    static Walk walkUntil(MerchantClient client, String cursor, int limit, List<String> expected) {
        var seen = new ArrayList<String>();
        var pages = new ArrayList<Page>();
        String[] at = {cursor};
        visible(expected.toString()).until(() -> {
            Page p;
            do {
                p = pull(client, "limit=" + limit + "&" + after(at[0]));
                pages.add(p);
                assertTrue(p.ids().size() <= limit, "at most limit items");
                seen.addAll(p.ids());
                if (p.ids().isEmpty()) {
                    assertEquals(at[0], p.next(), "at the end, next is the cursor to poll with later");
                }
                at[0] = p.next();
            } while (!p.ids().isEmpty());
            return seen.containsAll(expected);
        });
        return new Walk(seen, at[0], pages);
    }

    /** Polls until what is awaited shows in the pull list (its visibility follows transactions we do not control). */
    static ConditionFactory visible(String what) {
        return await(what + " visible in the pull list")
                .atMost(Duration.ofMillis(VISIBLE_WITHIN_MS))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100));
    }

    record Walk(List<String> ids, String end, List<Page> pages) {}

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void walksOldestFirstAndTheCursorAtTheEndWaitsForNewEvents() {
        String start = endCursor(HOOK_A);
        var created = new ArrayList<String>();
        for (int i = 0; i < 5; i++) {
            created.add(HookEvents.paidOnHookChannel());
        }
        Walk w = walkUntil(HOOK_A, start, 2, created);
        assertEquals(created, w.ids(), "exactly the new events, oldest first, each once");
        long previous = 0;
        for (String id : w.ids()) {
            long row = HookEvents.rowId(id);
            assertTrue(row > previous, "ascending internal ids");
            previous = row;
        }

        // the items are the stored event JSON, byte for byte
        Page first = w.pages().get(0);
        byte[] stored = (byte[]) Db.row("SELECT body FROM events WHERE event_id = ?", created.get(0))
                .get("body");
        assertTrue(indexOf(first.raw(), stored) > 0, "the stored bytes, verbatim");
        assertEquals(
                new JsonPath(new String(stored, StandardCharsets.UTF_8)).getMap("$"),
                first.json().getMap("items[0]"));
        assertEquals(
                List.of("id", "type", "createdAt", "data"),
                List.copyOf(first.json().getMap("items[0]").keySet()));

        // at the end: empty items and the same cursor, until a new event exists
        Page again = pull(HOOK_A, after(w.end()));
        assertEquals(List.of(), again.ids());
        assertEquals(w.end(), again.next());
        String later = HookEvents.paidOnHookChannel();
        Walk more = walkUntil(HOOK_A, w.end(), 50, List.of(later));
        assertEquals(List.of(later), more.ids());
    }

    @Test
    void withoutAfterTheListStartsFromTheBeginning() {
        HookEvents.paidOnHookChannel();
        String oldest = (String)
                Db.row("SELECT event_id FROM events WHERE channel = ? ORDER BY id LIMIT 1", TestChannels.WX_HOOK)
                        .get("event_id");
        visible("the first event").until(() -> !pull(HOOK_A, "").ids().isEmpty());
        Page p = pull(HOOK_A, "");
        assertEquals(oldest, p.ids().get(0), "oldest first, from the very first event");
        assertTrue(p.ids().size() <= 50, "default limit 50");
        String beginning = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("v1:events:0".getBytes(StandardCharsets.US_ASCII));
        assertEquals(oldest, pull(HOOK_A, after(beginning)).ids().get(0));
        assertEquals(List.of(oldest), pull(HOOK_A, "limit=1").ids());
    }

    @Test
    void aClientSeesTheEventsOfItsOwnChannelsOnly() {
        MerchantClient merchantA = MerchantClient.a();
        String hookStart = endCursor(HOOK_A);
        String merchantStart = endCursor(merchantA, TestChannels.WX, TestChannels.ALI, TestChannels.WX3);
        String onHook = HookEvents.paidOnHookChannel();
        String onWx = HookEvents.paidOnWxChannel();
        String lastOnHook = HookEvents.paidOnHookChannel();

        Walk hook = walkUntil(HOOK_A, hookStart, 500, List.of(onHook, lastOnHook));
        assertEquals(List.of(onHook, lastOnHook), hook.ids());
        Walk merchant = walkUntil(merchantA, merchantStart, 500, List.of(onWx));
        assertEquals(List.of(onWx), merchant.ids());
        for (Page p : merchant.pages()) {
            List<String> channels = p.json().getList("items.data.order.channel", String.class);
            channels.forEach(c -> assertTrue(
                    List.of(TestChannels.WX, TestChannels.ALI, TestChannels.WX3).contains(c)));
        }
    }

    @Test
    void badParametersAre400NamingTheParameter() {
        String foreignCursor = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("v1:orders:5".getBytes(StandardCharsets.US_ASCII));
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("limit=0", "limit");
        bad.put("limit=501", "limit");
        bad.put("limit=abc", "limit");
        bad.put("limit=-1", "limit");
        bad.put("limit=", "limit");
        bad.put("limit", "limit");
        bad.put("limit=5&limit=6", "limit");
        bad.put("after=garbage!", "after");
        bad.put("after=" + foreignCursor, "after");
        bad.put("after=", "after");
        bad.put("limit=5&cursor=x", "query");
        bad.put("limit=5&", "query");
        bad.forEach((query, field) -> {
            MerchantClient.Answer a =
                    HOOK_A.request("GET", "/api/v1/events?" + query).send();
            assertEquals(400, a.status(), query + ": " + a);
            assertEquals("application/problem+json", a.header("Content-Type").orElse(""), query);
            assertEquals(field, a.json().getString("field"), query);
        });
        pull(HOOK_A, "limit=500"); // the bound itself is fine
        pull(HOOK_A, "limit=1");

        MerchantClient.Answer withBody =
                HOOK_A.request("GET", "/api/v1/events").body("{}").send();
        assertEquals(400, withBody.status());
        assertEquals("body", withBody.json().getString("field"));

        MerchantClient.Answer post = HOOK_A.request("POST", "/api/v1/events")
                .key("k-" + UUID.randomUUID())
                .send();
        assertEquals(405, post.status());
        assertEquals("GET", post.header("Allow").orElse(""));
        assertEquals(404, HOOK_A.request("GET", "/api/v1/events/x").send().status());

        // the signature covers the query: signing the path alone is 401
        MerchantClient.Answer unsignedQuery = HOOK_A.request("GET", "/api/v1/events?limit=5")
                .signedTarget("/api/v1/events")
                .send();
        assertEquals(401, unsignedQuery.status());
    }

    @Test
    void anEventIsListedOnlyOnceNoEarlierTransactionCanStillInsertOne() throws Exception {
        String start = endCursor(HOOK_A);
        OrderBuilder.Order order = anOrder().channel(TestChannels.WX_HOOK).insert();
        String early = "evt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 26);
        byte[] body = ("{\"id\":\"" + early + "\",\"type\":\"order.paid\",\"createdAt\":\"2026-01-02T03:04:05.123Z\","
                        + "\"data\":{\"order\":{\"channel\":\"" + TestChannels.WX_HOOK + "\",\"outTradeNo\":\""
                        + order.outTradeNo() + "\"}}}")
                .getBytes(StandardCharsets.UTF_8);
        try (Connection tx = Db.connect()) {
            tx.setAutoCommit(false);
            long earlyRow;
            try (PreparedStatement ps = tx.prepareStatement("INSERT INTO events (event_id, type, channel, out_trade_no,"
                    + " order_id, body, created_at) VALUES (?, 'order.paid', ?, ?, ?, ?, ?) RETURNING id")) {
                ps.setString(1, early);
                ps.setString(2, TestChannels.WX_HOOK);
                ps.setString(3, order.outTradeNo());
                ps.setLong(4, order.id());
                ps.setBytes(5, body);
                ps.setTimestamp(6, Timestamp.from(Instant.now()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    earlyRow = rs.getLong(1);
                }
            }
            // a later event commits through the service while the first transaction is still open
            String later = HookEvents.paidOnHookChannel();
            assertTrue(HookEvents.rowId(later) > earlyRow, "the later event has the higher id");
            // for a second, every poll of the list shows neither event and keeps the cursor where it was
            await().during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        Page p = pull(HOOK_A, "limit=500&" + after(start));
                        assertFalse(p.ids().contains(later), "not listed while an earlier insert is still open");
                        assertEquals(List.of(), p.ids());
                        assertEquals(start, p.next(), "the cursor does not move past the open transaction");
                    });
            tx.commit();

            Walk w = walkUntil(HOOK_A, start, 500, List.of(early, later));
            assertEquals(List.of(early, later), w.ids(), "both, in id order: nothing was skipped");
            assertArrayEquals(body, (byte[])
                    Db.row("SELECT body FROM events WHERE event_id = ?", early).get("body"));
        }
    }
}
