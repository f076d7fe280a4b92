package io.paynotify.merchant;

import static io.paynotify.testing.MerchantClient.order;
import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.Db;
import io.paynotify.testing.MerchantClient;
import io.paynotify.testing.MerchantClient.Answer;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The merchant API (docs/api.md "Merchant API") over real signed HTTP requests against the real PostgreSQL: every status code and header. */
@QuarkusTest
class MerchantApiTest {

    static final Pattern JSON_TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    static final Pattern IMF_FIXDATE =
            Pattern.compile("(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
    static final String UNAUTHORIZED = "{\"type\":\"https://paynotify.io/problems/unauthenticated\",\"title\":"
            + "\"Unauthorized\",\"status\":401,\"detail\":\"The request is not correctly signed.\"}";

    final MerchantClient a = MerchantClient.a();
    final MerchantClient b = MerchantClient.b();

    static String no() {
        return "M" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    static String key() {
        return "key-" + UUID.randomUUID();
    }

    static void assertProblem(Answer r, int status, String field) {
        assertEquals(status, r.status(), r::toString);
        assertEquals(
                "application/problem+json", r.header("Content-Type").orElse(null), () -> r.headers() + " " + r.text());
        assertEquals(status, r.json().getInt("status"));
        assertEquals(field, r.json().getString("field"), r::toString);
        assertFalse(r.text().contains("Exception") || r.text().contains("at io."), r::toString);
    }

    static void assertFreshPostHeaders(Answer r, String key) {
        assertEquals(key, r.header("X-Idempotency-Key").orElse(null), r::toString);
        assertEquals("false", r.header("Idempotent-Replayed").orElse(null), r::toString);
        assertTrue(IMF_FIXDATE.matcher(r.header("X-Original-Date").orElse("")).matches(), r::toString);
    }

    @Test
    void createAnswers201WithTheOrderAndIdempotencyHeaders() {
        String no = no();
        String key = key();
        Answer r = a.request("POST", "/api/v1/orders")
                .key(key)
                .body("{\"channel\":\"wx-test\",\"outTradeNo\":\"" + no + "\",\"amount\":101,\"currency\":\"CNY\","
                        + "\"description\":\"测试 order\"}")
                .send();
        assertEquals(201, r.status(), r::toString);
        assertEquals("application/json", r.header("Content-Type").orElse(null));
        assertFreshPostHeaders(r, key);
        var j = r.json();
        assertEquals("wx-test", j.getString("channel"));
        assertEquals(no, j.getString("outTradeNo"));
        assertEquals("WECHATPAY_V2", j.getString("provider"));
        assertEquals(101L, j.getLong("amount"));
        assertEquals("CNY", j.getString("currency"));
        assertEquals("测试 order", j.getString("description"));
        assertEquals("PENDING", j.getString("state"));
        assertNull(j.get("transactionId"));
        assertNull(j.get("paidAt"));
        assertTrue(JSON_TIME.matcher(j.getString("createdAt")).matches(), r::toString);
        assertEquals(j.getString("createdAt"), j.getString("updatedAt"));
        assertEquals(List.of(), j.getList("attention"));
        // the members in the contract's order, nothing else
        assertTrue(
                r.text()
                        .matches("\\{\"channel\":.*,\"outTradeNo\":.*,\"provider\":.*,\"amount\":.*,\"currency\":.*,"
                                + "\"description\":.*,\"state\":.*,\"transactionId\":.*,\"paidAt\":.*,\"refundedAmount\":0,"
                                + "\"createdAt\":.*,"
                                + "\"updatedAt\":.*,\"attention\":\\[.*],\"subMerchantId\":null,\"subAppId\":null}"),
                r::toString);

        var row = Db.row(
                "SELECT provider, amount_minor, currency, state FROM orders WHERE channel = ? AND"
                        + " out_trade_no = ?",
                "wx-test",
                no);
        assertEquals(
                Map.of("provider", "WECHATPAY_V2", "amount_minor", 101L, "currency", "CNY", "state", "PENDING"), row);
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM idempotency_keys WHERE client_id = ? AND idempotency_key = ?"
                                + " AND status_code = 201",
                        TestChannels.CLIENT_A,
                        key));

        Answer read = a.get("wx-test", no);
        assertEquals(200, read.status());
        // the single-order answer adds the order's refunds (none yet)
        assertEquals(r.text().replaceFirst("}$", ",\"refunds\":[]}"), read.text());
        assertTrue(read.header("Idempotent-Replayed").isEmpty(), "GET carries no idempotency headers");
    }

    @Test
    void aFinishedKeyIsReplayedByteForByteWithItsOriginalDate() {
        String no = no();
        String key = key();
        String body = order("ali-test", no, 5000);
        Answer first = a.create(key, body);
        assertEquals(201, first.status(), first::toString);
        // prove the date comes from the stored row, not from the clock of the replay
        Db.update(
                "UPDATE idempotency_keys SET first_response_at = '2026-01-02T03:04:05.123Z' WHERE client_id = ?"
                        + " AND idempotency_key = ?",
                TestChannels.CLIENT_A,
                key);

        Answer replay = a.create(key, body);
        assertEquals(201, replay.status());
        assertArrayEquals(first.body(), replay.body());
        assertEquals("application/json", replay.header("Content-Type").orElse(null));
        assertEquals("true", replay.header("Idempotent-Replayed").orElse(null));
        assertEquals(key, replay.header("X-Idempotency-Key").orElse(null));
        assertEquals(
                "Fri, 02 Jan 2026 03:04:05 GMT",
                replay.header("X-Original-Date").orElse(null));
        assertEquals(1, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));

        // the same key on another path is another scope
        Answer closeWithSameKey = a.close("ali-test", no, key);
        assertEquals(200, closeWithSameKey.status(), closeWithSameKey::toString);
        assertEquals("false", closeWithSameKey.header("Idempotent-Replayed").orElse(null));
    }

    @Test
    void theSameKeyWithAnotherBodyIs422AndNotStored() {
        String no = no();
        String key = key();
        Answer first = a.create(key, order("wx-test", no, 100));
        assertEquals(201, first.status());
        Answer other = a.create(key, order("wx-test", no, 101));
        assertProblem(other, 422, "Idempotency-Key");
        assertFreshPostHeaders(other, key);
        // one byte of whitespace is another body too
        assertProblem(a.create(key, order("wx-test", no, 100) + " "), 422, "Idempotency-Key");
        Answer replay = a.create(key, order("wx-test", no, 100));
        assertEquals("true", replay.header("Idempotent-Replayed").orElse(null));
        assertArrayEquals(first.body(), replay.body());
        assertEquals(1, Db.count("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", key));
        assertEquals(
                100L,
                Db.row("SELECT amount_minor FROM orders WHERE out_trade_no = ?", no)
                        .get("amount_minor"));
    }

    @Test
    void aMissingOrMalformedKeyIs400AndNothingIsStored() {
        String no = no();
        Answer missing = a.request("POST", "/api/v1/orders")
                .body(order("wx-test", no, 1))
                .send();
        assertProblem(missing, 400, "Idempotency-Key");
        assertTrue(missing.header("X-Idempotency-Key").isEmpty());
        assertEquals("false", missing.header("Idempotent-Replayed").orElse(null));
        assertTrue(missing.header("X-Original-Date").isPresent());
        for (String bad : new String[] {"a b", "x".repeat(256), "schl\u00fcssel", "tab\there"}) {
            Answer r = a.request("POST", "/api/v1/orders")
                    .key(bad)
                    .body(order("wx-test", no, 1))
                    .sendRaw();
            assertProblem(r, 400, "Idempotency-Key");
            assertTrue(r.header("X-Idempotency-Key").isEmpty(), "a malformed key is not echoed");
        }
        // a control character is refused by the HTTP layer before anything else (Netty's header validation)
        assertEquals(
                400,
                a.request("POST", "/api/v1/orders")
                        .key("del\u007f")
                        .body(order("wx-test", no, 1))
                        .sendRaw()
                        .status());
        Answer closeWithoutKey = a.request("POST", MerchantClient.orderPath("wx-test", no) + "/close")
                .send();
        assertProblem(closeWithoutKey, 400, "Idempotency-Key");
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));
        // the longest key is fine
        String longest = "~".repeat(255);
        Answer ok = a.request("POST", "/api/v1/orders")
                .key(longest)
                .body(order("wx-test", no, 1))
                .send();
        assertEquals(201, ok.status(), ok::toString);
        assertEquals(longest, ok.header("X-Idempotency-Key").orElse(null));
    }

    @Test
    void anExistingOrderUnderAnotherKeyIs409AndThat409IsReplayed() {
        String no = no();
        assertEquals(201, a.create(key(), order("wx-test", no, 100)).status());
        String key = key();
        Answer conflict = a.create(key, order("wx-test", no, 100));
        assertProblem(conflict, 409, "outTradeNo");
        assertFreshPostHeaders(conflict, key);
        Answer replay = a.create(key, order("wx-test", no, 100));
        assertEquals(409, replay.status());
        assertEquals("true", replay.header("Idempotent-Replayed").orElse(null));
        assertArrayEquals(conflict.body(), replay.body());
        assertEquals(1, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));
    }

    @Test
    void invalidBodiesAre400NamingTheFieldAndAreStoredAfterTheClaim() {
        String no = no();
        Map<String, String> cases = Map.of(
                "outTradeNo",
                order("wx-test", "bad no", 1),
                "amount",
                "{\"channel\":\"wx-test\",\"outTradeNo\":\"" + no + "\",\"amount\":1.5}",
                "currency",
                "{\"channel\":\"wx-test\",\"outTradeNo\":\"" + no + "\",\"amount\":1,\"currency\":\"USD\"}",
                "channel",
                order("nowhere", no, 1),
                "body",
                "{\"channel\":\"wx-test\"");
        cases.forEach((field, body) -> {
            String key = key();
            Answer r = a.create(key, body);
            assertProblem(r, 400, field);
            assertFreshPostHeaders(r, key);
            Answer replay = a.create(key, body);
            assertEquals(400, replay.status());
            assertEquals("true", replay.header("Idempotent-Replayed").orElse(null), field);
            assertArrayEquals(r.body(), replay.body());
        });
        // 33 characters on a WeChat channel, 64 allowed on Alipay, 65 nowhere
        assertProblem(a.create(key(), order("wx-test", "A".repeat(33), 1)), 400, "outTradeNo");
        assertEquals(
                201,
                a.create(key(), order("ali-test", "A" + no + "x".repeat(42), 1)).status());
        assertProblem(a.create(key(), order("ali-test", "A".repeat(65), 1)), 400, "outTradeNo");
        assertProblem(a.create(key(), order("wx-test", no, 10_000_000_001L)), 400, "amount");
        assertProblem(a.create(key(), order("wx-test", no, 0)), 400, "amount");
        assertEquals(201, a.create(key(), order("wx-test", no, 10_000_000_000L)).status());
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = 'bad no'"));
    }

    @Test
    void aClientMayUseOnlyItsOwnChannels() {
        String no = no();
        String key = key();
        Answer r = b.create(key, order("wx-test", no, 1));
        assertProblem(r, 403, "channel");
        assertFreshPostHeaders(r, key);
        assertEquals(
                "true",
                b.create(key, order("wx-test", no, 1))
                        .header("Idempotent-Replayed")
                        .orElse(null));
        assertEquals(0, Db.count("SELECT count(*) FROM orders WHERE out_trade_no = ?", no));

        assertEquals(201, a.create(key(), order("wx-test", no, 1)).status());
        assertProblem(b.get("wx-test", no), 403, "channel");
        assertProblem(b.close("wx-test", no, key()), 403, "channel");
        assertEquals(
                "PENDING",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));
        // an unknown channel is 400, before the 403
        assertProblem(b.get("nowhere", no), 400, "channel");
    }

    @Test
    void readAnswers200Or404AndDecodesThePath() {
        String no = "P|" + no().substring(0, 10) + "*_-";
        assertEquals(201, a.create(key(), order("wx-test", no, 7)).status());
        Answer r = a.get("wx-test", no);
        assertEquals(200, r.status(), r::toString);
        assertEquals(no, r.json().getString("outTradeNo"));
        // lower-case percent-encoding decodes the same way
        Answer lower = a.request("GET", "/api/v1/orders/wx-test/" + no.replace("|", "%7c"))
                .send();
        assertEquals(200, lower.status(), lower::toString);

        assertProblem(a.get("wx-test", no()), 404, null);
        assertProblem(a.get("wx-test", "bad%20no"), 400, "outTradeNo");
        // a malformed escape is refused by the HTTP layer itself (Vert.x cannot route it): a bare 400
        assertEquals(
                400, a.request("GET", "/api/v1/orders/wx-test/%ZZ").sendRaw().status());
        assertProblem(a.request("GET", "/api/v1/orders/wx-test/%C0%AF").sendRaw(), 400, "outTradeNo");
        // an encoded slash is refused before routing, whatever the route (docs/operations.md "Ports")
        assertProblem(a.request("GET", "/api/v1/orders/wx-test/A%2FB").sendRaw(), 400, "path");
        assertProblem(a.get("nowhere", no), 400, "channel");
        // exact match: no case folding
        assertProblem(a.get("wx-test", no.toLowerCase()), 404, null);
    }

    @Test
    void closeAnswers200ThenAgain200AndIs409OnAPaidOrderAnd404WithoutOrder() {
        String no = no();
        assertEquals(201, a.create(key(), order("wx-test", no, 1)).status());
        String key = key();
        Answer closed = a.close("wx-test", no, key);
        assertEquals(200, closed.status(), closed::toString);
        assertFreshPostHeaders(closed, key);
        assertEquals("CLOSED", closed.json().getString("state"));
        Answer again = a.close("wx-test", no, key());
        assertEquals(200, again.status());
        assertEquals("CLOSED", again.json().getString("state"));
        assertEquals("false", again.header("Idempotent-Replayed").orElse(null));
        Answer replay = a.close("wx-test", no, key);
        assertEquals("true", replay.header("Idempotent-Replayed").orElse(null));
        assertArrayEquals(closed.body(), replay.body());

        String paid = no();
        anOrder()
                .channel("wx-test")
                .outTradeNo(paid)
                .amount(1)
                .paid("42" + paid)
                .insert();
        String paidKey = key();
        Answer conflict = a.close("wx-test", paid, paidKey);
        assertProblem(conflict, 409, null);
        assertEquals(
                "SUCCESS",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", paid).get("state"));
        assertEquals(
                "true",
                a.close("wx-test", paid, paidKey).header("Idempotent-Replayed").orElse(null));

        String missingKey = key();
        Answer missing = a.close("wx-test", no(), missingKey);
        assertProblem(missing, 404, null);
        assertFreshPostHeaders(missing, missingKey);

        Answer withBody = a.request("POST", MerchantClient.orderPath("wx-test", no) + "/close")
                .key(key())
                .body("{\"reason\":\"x\"}")
                .send();
        assertProblem(withBody, 400, "body");
        Answer emptyObject = a.request("POST", MerchantClient.orderPath("wx-test", no) + "/close")
                .key(key())
                .body("{}")
                .send();
        assertEquals(200, emptyObject.status(), emptyObject::toString);
    }

    @Test
    void everyAuthenticationFailureIsTheSame401Body() {
        String body = order("wx-test", no(), 1);
        List<Answer> failures = new ArrayList<>();
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .skew(-301)
                .send());
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .skew(301)
                .send());
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .secret("wrong-secret-0123456789abcdefghijkl")
                .send());
        failures.add(new MerchantClient("nobody", TestChannels.CLIENT_A_SECRET).create(key(), body));
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .omit("X-Signature")
                .send());
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .omit("X-Timestamp")
                .send());
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .omit("X-Client-Id")
                .send());
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .header("X-Client-Id", TestChannels.CLIENT_A)
                .send());
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .timestamp("+1767323045")
                .send());
        var upper = a.request("POST", "/api/v1/orders").key(key()).body(body);
        failures.add(upper.signature(upper.computedSignature().toUpperCase()).send());
        // merchant-b's secret for merchant-a's id
        failures.add(a.request("POST", "/api/v1/orders")
                .key(key())
                .body(body)
                .secret(TestChannels.CLIENT_B_SECRET)
                .send());
        failures.add(a.request("GET", "/api/v1/orders/wx-test/x").skew(-301).send());
        failures.add(a.request("GET", "/api/v1/nothing-here")
                .secret("wrong-secret-0123456789abcdefghijkl")
                .send());

        for (Answer f : failures) {
            assertEquals(401, f.status(), f::toString);
            assertArrayEquals(UNAUTHORIZED.getBytes(StandardCharsets.UTF_8), f.body(), f::toString);
            assertEquals("application/problem+json", f.header("Content-Type").orElse(null));
        }
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM orders WHERE out_trade_no = ?",
                        new io.restassured.path.json.JsonPath(body).getString("outTradeNo")));
        // and the same request, signed correctly, passes
        assertEquals(201, a.create(key(), body).status());
    }

    @Test
    void oneChangedByteInMethodPathQueryBodyOrKeyBreaksTheSignature() {
        String no = no();
        assertEquals(201, a.create(key(), order("wx-test", no, 1)).status());
        String path = MerchantClient.orderPath("wx-test", no);
        String body = order("wx-test", no(), 2);

        assertEquals(200, a.request("GET", path + "?x=1").send().status());
        assertEquals(
                401,
                a.request("GET", path + "?x=1")
                        .signedTarget(path + "?x=2")
                        .send()
                        .status());
        assertEquals(
                401, a.request("GET", path + "?x=1").signedTarget(path).send().status());
        assertEquals(
                401,
                a.request("GET", path)
                        .signedTarget(path.substring(0, path.length() - 1) + "X")
                        .send()
                        .status());
        // the raw target is signed, not its decoded form
        assertEquals(
                401,
                a.request("GET", "/api/v1/orders/wx-test/A%7CB")
                        .signedTarget("/api/v1/orders/wx-test/A|B")
                        .send()
                        .status());
        assertEquals(
                401,
                a.request("GET", "/api/v1/orders/wx-test/A%7CB")
                        .signedTarget("/api/v1/orders/wx-test/A%7cB")
                        .send()
                        .status());
        assertEquals(
                401,
                a.request("POST", "/api/v1/orders")
                        .key(key())
                        .body(body)
                        .signedMethod("PUT")
                        .send()
                        .status());
        assertEquals(
                401,
                a.request("PUT", "/api/v1/orders")
                        .key(key())
                        .body(body)
                        .signedMethod("POST")
                        .send()
                        .status());
        assertEquals(
                401,
                a.request("POST", "/api/v1/orders")
                        .key(key())
                        .body(body)
                        .signedBody(body.replace("\"amount\":2", "\"amount\":3"))
                        .send()
                        .status());
        assertEquals(
                401,
                a.request("POST", "/api/v1/orders")
                        .key("k-1")
                        .signedKey("k-2")
                        .body(body)
                        .send()
                        .status());
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM orders WHERE out_trade_no = ?",
                        new io.restassured.path.json.JsonPath(body).getString("outTradeNo")));
    }

    @Test
    void metricsNeverLabelRequestsWithOrderNumbersOrUnknownPaths() {
        String no = no();
        assertEquals(201, a.create(key(), order("wx-test", no, 1)).status());
        assertEquals(200, a.get("wx-test", no).status());
        assertEquals(200, a.close("wx-test", no, key()).status());
        assertEquals(
                401,
                a.request("GET", "/api/probe-" + no).omit("X-Signature").send().status());
        assertEquals(404, a.request("GET", "/api/v1/probe-" + no).send().status());
        String metrics = io.restassured.RestAssured.get(io.paynotify.testing.Management.url("/q/metrics"))
                .asString();
        assertTrue(metrics.contains("uri=\"/api/v1/orders/{channel}/{outTradeNo}/close\""), "templated uri label");
        assertFalse(metrics.contains(no), "an order number or probed path in the metrics");
    }

    @Test
    void bodiesOverTheLimitAre400NamingTheBody() {
        String key = key();
        byte[] big = new byte[MerchantSignatureFilter.MAX_BODY_BYTES + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        // the server answers from the declared length and closes without reading the body (a client library still
        // writing it may see a reset instead of the answer): send the head only
        Answer r = a.request("POST", "/api/v1/orders").key(key).body(big).sendHeadOnly();
        assertProblem(r, 400, "body");
        assertEquals(key, r.header("X-Idempotency-Key").orElse(null));
        assertEquals(0, Db.count("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = ?", key));
    }

    @Test
    void unknownPathsAre404AndWrongMethods405AfterTheSignature() {
        assertProblem(a.request("GET", "/api/v1/elsewhere").send(), 404, null);
        assertProblem(a.request("GET", "/api/v1/orders/wx-test/a/b/c").send(), 404, null);
        Answer list = a.request("GET", "/api/v1/orders").send();
        assertProblem(list, 405, null);
        assertEquals("POST", list.header("Allow").orElse(null));
        Answer delete = a.request("DELETE", "/api/v1/orders/wx-test/A1").send();
        assertProblem(delete, 405, null);
        assertEquals("GET", delete.header("Allow").orElse(null));
        assertEquals(
                401,
                a.request("GET", "/api/v1/elsewhere").omit("X-Signature").send().status());
    }
}
