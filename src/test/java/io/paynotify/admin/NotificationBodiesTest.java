package io.paynotify.admin;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.paynotify.persistence.NotificationRow;
import io.paynotify.persistence.Notifications;
import io.paynotify.persistence.Transactions;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md "Lists, filters and pagination" and "Reading one order's history": a body byte-identical to one its
 * order already holds is stored once, and every row still shows it; a page of notifications carries at most
 * {@link AdminReads#PAGE_BYTES} of bodies and decoded texts, and the keyset walk still sees every row once.
 */
@QuarkusTest
class NotificationBodiesTest {

    @Inject
    Transactions transactions;

    @Test
    void aBodyTheOrderAlreadyHoldsIsStoredOnceAndShownOnEveryRow() {
        String no = "NB" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder()
                .channel(TestChannels.WX)
                .provider("WECHATPAY_V2")
                .outTradeNo(no)
                .amount(100)
                .insert();
        byte[] notice = WechatV2Fixtures.payment(no, "4200" + no, 100).md5();
        // the same notice padded with a comment, which its signature does not cover: other bytes
        String xml = new String(notice, StandardCharsets.UTF_8);
        byte[] padded = (xml.substring(0, xml.length() - "</xml>".length()) + "<!-- padding --></xml>")
                .getBytes(StandardCharsets.UTF_8);
        List<byte[]> sent = List.of(notice, notice, padded, notice, padded);
        for (byte[] body : sent) {
            given().body(body)
                    .post("/notify/wechatpay/" + TestChannels.WX)
                    .then()
                    .statusCode(200);
        }

        List<Map<String, Object>> rows = Db.rows(
                "SELECT id, outcome, raw_body, raw_body_sha256, body_id FROM notifications WHERE out_trade_no = ?"
                        + " ORDER BY id",
                no);
        assertEquals(5, rows.size(), "every delivery is recorded");
        assertEquals("APPLIED", rows.get(0).get("outcome"));
        long first = (Long) rows.get(0).get("id");
        long firstPadded = (Long) rows.get(2).get("id");
        List<Long> holders = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Map<String, Object> row = rows.get(i);
            assertArrayEquals(sha256(sent.get(i)), (byte[]) row.get("raw_body_sha256"));
            if (row.get("body_id") == null) {
                assertArrayEquals(sent.get(i), (byte[]) row.get("raw_body"));
                holders.add((Long) row.get("id"));
            } else {
                assertNull(row.get("raw_body"), "the bytes are not stored again");
                assertEquals(sent.get(i) == notice ? first : firstPadded, row.get("body_id"));
            }
        }
        assertEquals(List.of(first, firstPadded), holders, "each distinct body is stored by its first row only");

        JsonPath history = given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/" + TestChannels.WX + "/" + no + "/notifications?limit=500")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> shown = history.getList("items.rawBody");
        assertEquals(
                sent.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList(), shown);
        assertNull(history.get("next"));

        NotificationRow pointing = transactions.autoCommit(
                c -> Notifications.find(c, (Long) rows.get(4).get("id")));
        assertArrayEquals(padded, pointing.rawBody(), "one notification's read shows the bytes it points at");
    }

    @Test
    void rowsWrittenBeforeTheHashKeepTheirBodyAndAreNeverMatched() {
        String no = "NO" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        anOrder()
                .channel(TestChannels.WX)
                .provider("WECHATPAY_V2")
                .outTradeNo(no)
                .amount(100)
                .insert();
        byte[] notice = WechatV2Fixtures.payment(no, "4200" + no, 100).md5();
        // as the service wrote rows before V10: the bytes, no hash
        long old = AdminData.notification(TestChannels.WX, no, "DUPLICATE", null, notice, null);
        for (int i = 0; i < 2; i++) {
            given().body(notice)
                    .post("/notify/wechatpay/" + TestChannels.WX)
                    .then()
                    .statusCode(200);
        }

        List<Map<String, Object>> rows = Db.rows(
                "SELECT id, raw_body, raw_body_sha256, body_id FROM notifications WHERE out_trade_no = ? ORDER BY id",
                no);
        assertEquals(3, rows.size());
        assertEquals(old, rows.get(0).get("id"));
        assertNull(rows.get(0).get("raw_body_sha256"));
        assertArrayEquals(notice, (byte[]) rows.get(0).get("raw_body"), "the old row keeps its bytes");
        assertNull(rows.get(1).get("body_id"), "an old row without hash is never pointed at");
        assertArrayEquals(notice, (byte[]) rows.get(1).get("raw_body"));
        assertEquals(rows.get(1).get("id"), rows.get(2).get("body_id"), "the next one points at the new row");
        assertNull(rows.get(2).get("raw_body"));

        List<String> shown = given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders/" + TestChannels.WX + "/" + no + "/notifications")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.rawBody");
        String text = new String(notice, StandardCharsets.UTF_8);
        assertEquals(List.of(text, text, text), shown);
    }

    /** 60,000 bytes of body and 40,000 of decoded text: 100,000 bytes a row, so 20 rows fill 2 MiB. */
    static final int BODY = 60_000;

    static final int DECODED = 40_000;

    @Test
    void aPageStopsAtTheByteBoundAndTheWalkStillSeesEveryRowOnce() {
        assertEquals(2L * 1024 * 1024, AdminReads.PAGE_BYTES, "the sizes below are chosen for 2 MiB");
        String ch = AdminData.channel("nb");
        String no = "BIG1";
        // one row holds a body, 44 more point at it (the bytes they show count as much as stored ones)
        long holder = insert(ch, no, body(0), null);
        var bodies = new ArrayList<String>(List.of(body(0)));
        for (int i = 1; i < 45; i++) {
            if (i % 2 == 0) {
                insert(ch, no, body(i), null);
                bodies.add(body(i));
            } else {
                insert(ch, no, null, holder);
                bodies.add(body(0));
            }
        }

        AdminPaginationTest.Walk history = AdminPaginationTest.walk(
                "/admin/orders/" + ch + "/" + no + "/notifications?limit=500", "id", page -> {});
        AdminPaginationTest.Walk list =
                AdminPaginationTest.walk("/admin/notifications?channel=" + ch + "&limit=500", "id", page -> {});
        assertEquals(3, history.pages(), "20, 20 and 5 rows: 100,000 bytes each, at most 2 MiB a page");
        assertEquals(3, list.pages());
        assertEquals(45, history.ids().size());
        assertEquals(45, list.ids().size());
        var newestFirst = new ArrayList<>(history.ids());
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst, list.ids(), "the same rows, each once");

        JsonPath first = page("/admin/orders/" + ch + "/" + no + "/notifications?limit=500");
        assertEquals(20, first.getList("items").size());
        assertNotNull(first.get("next"), "fewer than limit, and more follow");
        assertEquals(bodies.subList(0, 20), first.getList("items.rawBody"), "each row with its own body");
        JsonPath limited = page("/admin/orders/" + ch + "/" + no + "/notifications?limit=7");
        assertEquals(7, limited.getList("items").size(), "under the bound, limit decides");
    }

    @Test
    void aBodyLargerThanTheBoundStillMakesAPageOfOne() {
        String ch = AdminData.channel("nb");
        String no = "HUGE1";
        byte[] larger = "a".repeat((int) AdminReads.PAGE_BYTES + 1).getBytes(StandardCharsets.US_ASCII);
        long huge = AdminData.notification(ch, no, "DUPLICATE", null, larger, null);
        long small = AdminData.notification(ch, no, "DUPLICATE", null);

        JsonPath first = page("/admin/orders/" + ch + "/" + no + "/notifications?limit=500");
        assertEquals(List.of(huge), ids(first));
        assertNotNull(first.get("next"));
        JsonPath second =
                page("/admin/orders/" + ch + "/" + no + "/notifications?limit=500&after=" + first.getString("next"));
        assertEquals(List.of(small), ids(second));
        assertNull(second.get("next"));
    }

    @Test
    void fiveHundredOrdinaryNotificationsStillFitOnePage() {
        String ch = AdminData.channel("nb");
        // 600 rows of 2,000 bytes of body and 1,000 of decoded text, larger than most real notifications
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, provider_status, outcome, raw_body,"
                        + " decoded, received_at) SELECT ?, 'ALIPAY', 'SMALL1', 'TRADE_SUCCESS', 'DUPLICATE',"
                        + " convert_to(lpad(g::text, 2000, 'x'), 'UTF8'),"
                        + " '{\"k\":\"' || repeat('d', 992) || '\"}', now() FROM generate_series(1, 600) g",
                ch);
        JsonPath first = page("/admin/notifications?channel=" + ch + "&limit=500");
        assertEquals(500, first.getList("items").size());
        assertNotNull(first.get("next"));
        JsonPath second = page("/admin/notifications?channel=" + ch + "&limit=500&after=" + first.getString("next"));
        assertEquals(100, second.getList("items").size());
        assertNull(second.get("next"));
    }

    // ---- helpers ----

    static JsonPath page(String url) {
        return given().header("Authorization", AdminData.AUTH)
                .get(url)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    static List<Long> ids(JsonPath page) {
        return page.getList("items.id", Number.class).stream()
                .map(Number::longValue)
                .toList();
    }

    /** {@link #BODY} bytes, distinct per i. */
    static String body(int i) {
        String head = "<xml><n>" + i + "</n><!-- ";
        return head + "p".repeat(BODY - head.length() - " --></xml>".length()) + " --></xml>";
    }

    /** A row with that body, or pointing at the row that holds its body; {@link #DECODED} bytes of decoded text. */
    static long insert(String ch, String no, String body, Long bodyId) {
        String decoded = "{\"k\":\"" + "d".repeat(DECODED - 8) + "\"}";
        return (Long) Db.rows(
                        "INSERT INTO notifications (channel, provider, out_trade_no, provider_status, outcome,"
                                + " raw_body, raw_body_sha256, body_id, decoded, received_at)"
                                + " VALUES (?, 'WECHATPAY_V2', ?, 'SUCCESS', 'DUPLICATE', ?, ?, ?, ?, now())"
                                + " RETURNING id",
                        ch,
                        no,
                        body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                        body == null ? null : sha256(body.getBytes(StandardCharsets.UTF_8)),
                        bodyId,
                        decoded)
                .get(0)
                .get("id");
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
