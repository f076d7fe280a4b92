package io.paynotify.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A captured v2 notice (it carries no timestamp) replayed without end must not starve the service: replays beyond a
 * handful per order are refused at once, notification work has its own threads, and past the per-order cap of 500
 * recorded deliveries a replay is answered from a read while a notice that changes the order is still applied.
 */
@QuarkusTest
class ReplayFloodTest {

    static final int REPLAYS = 300;
    static final int OTHERS = 20;
    static final long ANSWER_WITHIN_MS = 3_000;

    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Test
    void threeHundredReplaysStarveNothingAndApplyOnce() throws Exception {
        String flooded = newOrder(100);
        byte[] replay = paidNotice(flooded, "4200" + flooded, 100);
        assertEquals(200, post(replay).statusCode(), "the genuine notice is applied first");

        var others = new ArrayList<String>();
        for (int i = 0; i < OTHERS; i++) {
            others.add(newOrder(200));
        }
        String readable = others.get(0);

        // its own client, as an operator's would be: the flood's client is busy with 320 connections
        HttpClient operator = HttpClient.newHttpClient();
        HttpRequest adminGet = HttpRequest.newBuilder(URI.create(
                        "http://localhost:" + RestAssured.port + "/admin/orders/" + TestChannels.WX + "/" + readable))
                .header("Authorization", "Bearer " + TestChannels.ADMIN_TOKEN)
                .timeout(Duration.ofSeconds(30))
                .build();
        HttpRequest merchantGet = MerchantClient.a()
                .request("GET", MerchantClient.orderPath(TestChannels.WX, readable))
                .build();
        // warm both paths once, so that the burst measures starvation and not a first request's class loading
        assertEquals(
                200,
                operator.send(adminGet, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(
                200,
                operator.send(merchantGet, HttpResponse.BodyHandlers.ofString()).statusCode());

        var calls = new ArrayList<Named>();
        for (int i = 0; i < REPLAYS; i++) {
            calls.add(new Named("replay", () -> postAsync(replay)));
        }
        for (String no : others) {
            byte[] body = paidNotice(no, "4200" + no, 200);
            calls.add(new Named("other " + no, () -> postAsync(body)));
        }
        HttpRequest merchantGetNow = MerchantClient.a()
                .request("GET", MerchantClient.orderPath(TestChannels.WX, readable))
                .build();
        calls.add(new Named(
                "merchant GET",
                () -> operator.sendAsync(merchantGetNow, HttpResponse.BodyHandlers.ofString())
                        .thenApply(HttpResponse::statusCode)));
        calls.add(new Named(
                "admin GET",
                () -> operator.sendAsync(adminGet, HttpResponse.BodyHandlers.ofString())
                        .thenApply(HttpResponse::statusCode)));

        Answers a = runAllAtOnce(calls);

        for (String no : others) {
            assertEquals(200, a.status().get("other " + no), "another order's notification is applied");
            assertTrue(a.latency().get("other " + no) < ANSWER_WITHIN_MS, "answered in " + a.latency());
        }
        for (String get : List.of("merchant GET", "admin GET")) {
            assertEquals(200, a.status().get(get), get);
            assertTrue(a.latency().get(get) < ANSWER_WITHIN_MS, get + " answered in " + a.latency());
        }
        assertTrue(
                a.replayStatuses().keySet().stream().allMatch(s -> s == 200 || s == 503),
                "replays are answered with the success ack or 503: " + a.replayStatuses());
        assertTrue(a.replayStatuses().getOrDefault(503, 0) > 0, "replays beyond a handful are refused at once");

        assertEquals(1, applied(flooded), "the flooded order has exactly one APPLIED");
        for (String no : others) {
            assertEquals(
                    "SUCCESS",
                    Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no)
                            .get("state"));
        }
        System.out.println("[measure] " + REPLAYS + " replays of one notice with " + OTHERS
                + " other notifications: slowest other answer "
                + others.stream()
                        .mapToLong(o -> a.latency().get("other " + o))
                        .max()
                        .orElseThrow()
                + " ms, merchant GET " + a.latency().get("merchant GET") + " ms, admin GET "
                + a.latency().get("admin GET") + " ms, slowest replay "
                + a.latency().get("replay")
                + " ms, replay answers " + a.replayStatuses());
    }

    @Test
    void pastTheCapADuplicateIsOnlyCountedAndAChangeIsStillApplied() throws Exception {
        String no = newOrder(300);
        fillToTheCap(no);

        // a genuine payment after 500 replays of something else: applied, not recorded
        byte[] paid = paidNotice(no, "4200" + no, 300);
        assertEquals(200, post(paid).statusCode());
        Map<String, Object> order =
                Db.row("SELECT state, transaction_id, updated_at FROM orders WHERE out_trade_no = ?", no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals("4200" + no, order.get("transaction_id"));
        assertEquals(500, recorded(no));

        // its replays: the same answer, nothing written
        for (int i = 0; i < 3; i++) {
            assertEquals(200, post(paid).statusCode());
        }
        assertEquals(500, recorded(no));
        assertEquals(
                order.get("updated_at"),
                Db.row("SELECT updated_at FROM orders WHERE out_trade_no = ?", no)
                        .get("updated_at"));

        // a payment with another transaction id changes the order (attention): still applied past the cap
        assertEquals(200, post(paidNotice(no, "4299" + no, 300)).statusCode());
        assertEquals(
                List.of("DUPLICATE_PAYMENT"),
                Db.row("SELECT attention FROM orders WHERE out_trade_no = ?", no)
                        .get("attention"));
        assertEquals(500, recorded(no));
    }

    // ---- helpers ----

    static String newOrder(long amount) {
        String no = "RF" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        Db.insertOrder(TestChannels.WX, "WECHATPAY_V2", no, amount);
        return no;
    }

    static byte[] paidNotice(String no, String txn, long fee) {
        return WechatV2Fixtures.body(
                WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, txn, fee), TestChannels.WX_KEY, "MD5"));
    }

    /** 500 recorded deliveries (IGNORED NOT_FINAL, as 500 replays of a FAIL notice would leave). */
    static void fillToTheCap(String no) {
        Db.update(
                "INSERT INTO notifications (channel, provider, out_trade_no, order_id, provider_status, currency,"
                        + " outcome, reason, raw_body, received_at)"
                        + " SELECT ?, 'WECHATPAY_V2', ?, o.id, 'FAIL', 'CNY', 'IGNORED', 'NOT_FINAL', '\\x00'::bytea,"
                        + " now() FROM orders o, generate_series(1, 500) WHERE o.out_trade_no = ?",
                TestChannels.WX,
                no,
                no);
        assertEquals(500, recorded(no));
    }

    static long recorded(String no) {
        return Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", no);
    }

    static long applied(String no) {
        return Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ? AND outcome = 'APPLIED'", no);
    }

    CompletableFuture<Integer> postAsync(byte[] body) {
        return http.sendAsync(notifyRequest(body), HttpResponse.BodyHandlers.ofString())
                .thenApply(HttpResponse::statusCode);
    }

    HttpRequest notifyRequest(byte[] body) {
        return HttpRequest.newBuilder(
                        URI.create("http://localhost:" + RestAssured.port + "/notify/wechatpay/" + TestChannels.WX))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    HttpResponse<String> post(byte[] body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://localhost:" + RestAssured.port + "/notify/wechatpay/" + TestChannels.WX))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** One request of the burst: its name ("replay" for all the replays), and how to start it. */
    record Named(String name, Supplier<CompletableFuture<Integer>> start) {}

    /** What each named request answered, and its latency in ms (the slowest, for "replay"). */
    record Answers(Map<String, Integer> status, Map<String, Long> latency, Map<Integer, Integer> replayStatuses) {}

    /**
     * Starts every request at the same moment (asynchronously: no thread per request competes with the service for
     * the two cores) and collects the answers.
     */
    static Answers runAllAtOnce(List<Named> calls) throws Exception {
        long started = System.nanoTime();
        var futures = new ArrayList<CompletableFuture<long[]>>();
        for (Named c : calls) {
            futures.add(c.start().get().thenApply(status ->
                    new long[] {status, (System.nanoTime() - started) / 1_000_000}));
        }
        var status = new HashMap<String, Integer>();
        var latency = new HashMap<String, Long>();
        var replays = new TreeMap<Integer, Integer>();
        for (int i = 0; i < calls.size(); i++) {
            long[] r = futures.get(i).get(60, TimeUnit.SECONDS);
            String name = calls.get(i).name();
            latency.merge(name, r[1], Math::max);
            if (name.equals("replay")) {
                replays.merge((int) r[0], 1, Integer::sum);
            } else {
                status.put(name, (int) r[0]);
            }
        }
        return new Answers(status, latency, replays);
    }
}
