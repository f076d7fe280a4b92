package io.paynotify.provider.wechatv2;

import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_400;
import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_401;
import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_404;
import static io.paynotify.provider.wechatv2.WechatV2Http.FAIL_413;
import static io.paynotify.provider.wechatv2.WechatV2Http.allNotifications;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertAck;
import static io.paynotify.provider.wechatv2.WechatV2Http.assertOk;
import static io.paynotify.provider.wechatv2.WechatV2Http.insertOrder;
import static io.paynotify.provider.wechatv2.WechatV2Http.lastNotification;
import static io.paynotify.provider.wechatv2.WechatV2Http.newOrderNo;
import static io.paynotify.provider.wechatv2.WechatV2Http.newTxn;
import static io.paynotify.provider.wechatv2.WechatV2Http.notifications;
import static io.paynotify.provider.wechatv2.WechatV2Http.order;
import static io.paynotify.provider.wechatv2.WechatV2Http.post;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV2Fixtures.Notice;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What only the v2 notify route decides, over real HTTP: the channel (404), the size limit with a Content-Length
 * or chunked (413), that the content type plays no part, and that the adapter's rejections become the fixed failure
 * acks and store nothing. Every verification case itself is in {@code WechatV2AdapterTest}.
 */
@QuarkusTest
class WechatV2TransportTest {

    @TestHTTPResource("/")
    URL base;

    /** Posts, expects that answer, and checks that nothing at all was stored. */
    static void assertRefused(Supplier<Response> send, int status, String body) {
        long before = allNotifications();
        assertAck(send.get(), status, body);
        assertEquals(before, allNotifications(), "a refused delivery must not be stored");
    }

    static Notice payment(String no, String txn) {
        return WechatV2Fixtures.payment(no, txn, 100);
    }

    static void assertApplied(String no, String txn) {
        assertEquals("APPLIED", lastNotification(no).get("outcome"));
        assertEquals("SUCCESS", order(no).get("state"));
        assertEquals(txn, order(no).get("transaction_id"));
    }

    @Test
    void unknownChannelOrAnotherProvidersChannelIs404WithTheV2FailureAck() {
        byte[] body = payment(newOrderNo(), newTxn()).md5();
        for (String channel :
                List.of("nope", TestChannels.ALI, TestChannels.ALI_RSA, TestChannels.WX3, "WX-TEST", "wx-test-")) {
            assertRefused(() -> post(channel, body), 404, FAIL_404);
        }
    }

    @Test
    void bodyOver64KibIs413WithTheFailureAckWithContentLengthOrChunked() throws Exception {
        byte[] big = new byte[64 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) 'a');
        for (boolean chunked : new boolean[] {false, true}) {
            long before = allNotifications();
            RawHttp.Answer a = RawHttp.post(base.getPort(), "/notify/wechatpay/" + TestChannels.WX, big, chunked);
            assertEquals(413, a.status(), a.headers());
            assertEquals(FAIL_413, a.body());
            assertTrue(a.headers().toLowerCase().contains("content-type: application/xml"), a.headers());
            assertEquals(before, allNotifications());
        }
        // a much larger declared body is refused on its headers alone
        RawHttp.Answer huge =
                RawHttp.post(base.getPort(), "/notify/wechatpay/" + TestChannels.WX, new byte[10 * 1024 * 1024], false);
        assertEquals(413, huge.status());
        assertEquals(FAIL_413, huge.body());
    }

    @Test
    void aSignedBodyOfExactly64KibIsAcceptedWithContentLengthOrChunked() throws Exception {
        for (boolean chunked : new boolean[] {false, true}) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            // an empty value is not signed, so the sign keeps its length: each added ASCII character adds one byte
            int overhead = payment(no, txn).with("attach", "").md5().length;
            byte[] body = payment(no, txn)
                    .with("attach", "x".repeat(64 * 1024 - overhead))
                    .md5();
            assertEquals(64 * 1024, body.length);
            RawHttp.Answer a = RawHttp.post(base.getPort(), "/notify/wechatpay/" + TestChannels.WX, body, chunked);
            assertEquals(200, a.status(), a.body());
            assertEquals(WechatV2Http.OK, a.body());
            assertApplied(no, txn);
        }
    }

    @Test
    void contentTypeIsNeitherRequiredNorTrusted() {
        for (String type : List.of("application/json", "text/plain", "application/octet-stream", "text/xml")) {
            String no = newOrderNo();
            String txn = newTxn();
            insertOrder(no, 100);
            assertOk(given().contentType(type)
                    .body(payment(no, txn).md5())
                    .post("/notify/wechatpay/" + TestChannels.WX));
            assertApplied(no, txn);
        }
    }

    @Test
    void anUnauthenticatedDeliveryIs401WithTheFixedAckAndIsNotStored() {
        String no = newOrderNo();
        insertOrder(no, 100);
        var tampered = payment(no, newTxn()).signedFields(TestChannels.WX_KEY, "MD5");
        tampered.put("total_fee", "1");
        assertRefused(() -> post(WechatV2Fixtures.body(tampered)), 401, FAIL_401);
        // a refund notice that does not decrypt: another cause, the same answer
        assertRefused(
                () -> post(WechatV2Fixtures.body(WechatV2Fixtures.refundNotice("AAAAAAAAAAAAAAAAAAAAAA=="))),
                401,
                FAIL_401);
        assertEquals("PENDING", order(no).get("state"));
        assertEquals(0, notifications(no).size());
    }

    @Test
    void aBadRequestIs400WithTheFixedAckAndIsNotStored() {
        String no = newOrderNo();
        insertOrder(no, 100);
        assertRefused(() -> post(payment(no, newTxn()).without("total_fee").md5()), 400, FAIL_400);
        assertRefused(
                () -> post("<xml><return_code>SUCCESS".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
                400,
                FAIL_400);
        assertEquals("PENDING", order(no).get("state"));
        assertEquals(0, notifications(no).size());
    }
}
