package io.paynotify.admin;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/** Keyset pagination over more rows than one page, with rows arriving between pages. */
@QuarkusTest
class AdminPaginationTest {

    record Walk(List<Long> ids, List<String> keys, int pages) {}

    /** Follows {@code next} until null, calling {@code between} after each page; fails on a repeated item. */
    static Walk walk(String firstUrl, String idField, IntConsumer between) {
        var ids = new ArrayList<Long>();
        var keys = new ArrayList<String>();
        String url = firstUrl;
        int pages = 0;
        while (url != null) {
            JsonPath page = given().header("Authorization", AdminData.AUTH)
                    .get(url)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            pages++;
            for (Object item : page.getList("items")) {
                var m = (java.util.Map<?, ?>) item;
                if (idField != null) {
                    ids.add(((Number) m.get(idField)).longValue());
                }
                keys.add((String) m.get("outTradeNo"));
            }
            String next = page.getString("next");
            between.accept(pages);
            url = next == null ? null : firstUrl + "&after=" + next;
            assertTrue(pages < 100, "the walk must end");
        }
        return new Walk(ids, keys, pages);
    }

    @Test
    void ordersNewestFirstWithoutRepeatsOrGapsWhileOrdersArrive() {
        String ch = AdminData.channel("pg");
        var inserted = new ArrayList<String>();
        for (int i = 0; i < 130; i++) {
            String no = "P" + i;
            anOrder().channel(ch).outTradeNo(no).insert();
            inserted.add(no);
        }
        var arrived = new ArrayList<String>();
        Walk w = walk("/admin/orders?channel=" + ch + "&limit=25", null, page -> {
            for (int j = 0; j < 3; j++) {
                String no = "NEW" + page + "_" + j;
                anOrder().channel(ch).outTradeNo(no).insert();
                arrived.add(no);
            }
        });
        assertEquals(6, w.pages());
        assertEquals(new LinkedHashSet<>(w.keys()).size(), w.keys().size(), "no order twice");
        var expected = new ArrayList<>(inserted);
        java.util.Collections.reverse(expected);
        assertEquals(expected, w.keys(), "exactly the orders that existed, newest first, no gaps");

        // a fresh walk sees the arrivals first
        Walk again = walk("/admin/orders?channel=" + ch + "&limit=500", null, p -> {});
        assertEquals(inserted.size() + arrived.size(), again.keys().size());
        assertEquals(arrived.get(arrived.size() - 1), again.keys().get(0));
    }

    @Test
    void notificationsNewestFirstWithoutRepeatsOrGapsWhileRowsArrive() {
        String ch = AdminData.channel("pn");
        var ids = new ArrayList<Long>();
        for (int i = 0; i < 75; i++) {
            ids.add(AdminData.notification(
                    ch, "N" + i, i % 3 == 0 ? "ANOMALY" : "APPLIED", i % 3 == 0 ? "UNKNOWN_ORDER" : null));
        }
        Walk w = walk(
                "/admin/notifications?channel=" + ch + "&limit=10",
                "id",
                page -> AdminData.notification(ch, "LATE" + page, "DUPLICATE", null));
        var expected = new ArrayList<>(ids);
        java.util.Collections.reverse(expected);
        assertEquals(expected, w.ids());
        assertEquals(8, w.pages());
    }

    @Test
    void oneOrdersHistoryOldestFirstIncludesRowsArrivingDuringTheWalk() {
        String ch = AdminData.channel("ph");
        anOrder().channel(ch).outTradeNo("H1").insert();
        var ids = new ArrayList<Long>();
        for (int i = 0; i < 12; i++) {
            ids.add(AdminData.notification(ch, "H1", "DUPLICATE", null));
        }
        var late = new ArrayList<Long>();
        Walk w = walk("/admin/orders/" + ch + "/H1/notifications?limit=5", "id", page -> {
            if (page <= 2) {
                late.add(AdminData.notification(ch, "H1", "DUPLICATE", null));
            }
        });
        var expected = new ArrayList<>(ids);
        expected.addAll(late);
        assertEquals(expected, w.ids(), "oldest first; rows that arrive later come at the end, none twice");
    }

    @Test
    void limitDefaultsTo50AndIsBounded() {
        String ch = AdminData.channel("pl");
        for (int i = 0; i < 51; i++) {
            anOrder().channel(ch).outTradeNo("L" + i).insert();
        }
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders?channel=" + ch)
                .then()
                .statusCode(200)
                .body("items", hasSize(50))
                .body("next", org.hamcrest.Matchers.notNullValue());
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders?channel=" + ch + "&limit=500")
                .then()
                .statusCode(200)
                .body("items", hasSize(51))
                .body("next", nullValue());
        for (String bad : List.of("501", "0", "-1", "abc", "1.5", "1e2", " 5", "100000000000")) {
            given().header("Authorization", AdminData.AUTH)
                    .get("/admin/orders?limit=" + bad)
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("field", equalTo("limit"));
            given().header("Authorization", AdminData.AUTH)
                    .get("/admin/notifications?limit=" + bad)
                    .then()
                    .statusCode(400);
        }
    }

    @Test
    void malformedOrForeignCursorsAre400() {
        String ch = AdminData.channel("pc");
        anOrder().channel(ch).outTradeNo("C1").insert();
        anOrder().channel(ch).outTradeNo("C2").insert();
        String next = given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders?channel=" + ch + "&limit=1")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("next");
        assertNotNull(next);
        var b64 = Base64.getUrlEncoder().withoutPadding();
        for (String bad : List.of(
                "x",
                "!!!",
                b64.encodeToString("v1:orders:abc".getBytes(StandardCharsets.US_ASCII)),
                b64.encodeToString("v2:orders:5".getBytes(StandardCharsets.US_ASCII)),
                b64.encodeToString("v1:orders:0".getBytes(StandardCharsets.US_ASCII)),
                b64.encodeToString("v1:orders:99999999999999999999".getBytes(StandardCharsets.US_ASCII)),
                "A".repeat(100))) {
            given().header("Authorization", AdminData.AUTH)
                    .get("/admin/orders?after=" + bad)
                    .then()
                    .statusCode(400)
                    .body("field", equalTo("after"));
        }
        // a cursor of the order list is no cursor of the notification list
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/notifications?after=" + next)
                .then()
                .statusCode(400);
        given().header("Authorization", AdminData.AUTH)
                .get("/admin/orders?channel=" + ch + "&limit=1&after=" + next)
                .then()
                .statusCode(200)
                .body("items[0].outTradeNo", equalTo("C1"))
                .body("next", nullValue());
        assertEquals(2, Db.count("SELECT count(*) FROM orders WHERE channel = ?", ch));
    }
}
