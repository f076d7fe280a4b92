package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayHttp.GMT_PAYMENT;
import static io.paynotify.provider.alipay.AlipayHttp.allNotifications;
import static io.paynotify.provider.alipay.AlipayHttp.assertFail;
import static io.paynotify.provider.alipay.AlipayHttp.assertOk;
import static io.paynotify.provider.alipay.AlipayHttp.assertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.insertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.newOrderNo;
import static io.paynotify.provider.alipay.AlipayHttp.newTradeNo;
import static io.paynotify.provider.alipay.AlipayHttp.notifications;
import static io.paynotify.provider.alipay.AlipayHttp.post;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestChannels;
import io.paynotify.testing.TestKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The Alipay notify route on the wire: a refused delivery is answered {@code fail} with its status and never
 * stored, an unknown channel is 404, a large body 413, and the content type is not read. Which deliveries the
 * adapter refuses is {@link AlipayAdapterTest}.
 */
@QuarkusTest
class AlipayTransportTest {

    @TestHTTPResource("/")
    URL base;

    static void assertRefused(Supplier<Response> send, int status) {
        long before = allNotifications();
        assertFail(send.get(), status);
        assertEquals(before, allNotifications(), "a refused delivery must not be stored");
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aRefusedDeliveryIsAnsweredFailWithItsStatusAndNotStored() {
        String no = newOrderNo();
        insertOrder(no, 100);
        String t = newTradeNo();
        // 401: a key the channel does not know
        byte[] forged = aNotice()
                .orderNo(no)
                .tradeNo(t)
                .signedWith(TestKeys.STRANGER, "RSA2")
                .body();
        assertRefused(() -> post(forged), 401);
        // 400: a parameter given twice
        String twice = aNotice().orderNo(no).tradeNo(t).bodyText() + "&notify_id=x";
        assertRefused(() -> post(ascii(twice)), 400);
        // 400: a payment without its amount
        byte[] noAmount =
                aNotice().orderNo(no).tradeNo(t).without("total_amount").body();
        assertRefused(() -> post(noAmount), 400);
        assertEquals(0, notifications(no).size());
        assertOrder(no, "PENDING", null, null, List.of());
    }

    @Test
    void unknownChannelOrAnotherProvidersChannelIs404WithFail() {
        byte[] body = aNotice().orderNo(newOrderNo()).tradeNo(newTradeNo()).body();
        for (String channel : List.of("nope", TestChannels.WX, TestChannels.WX_HMAC, TestChannels.WX3, "ALI-TEST")) {
            assertRefused(() -> post(channel, body), 404);
        }
    }

    @Test
    void contentTypeIsNeitherRequiredNorTrusted() {
        for (String type : List.of(
                "application/json",
                "text/plain",
                "application/xml",
                "application/x-www-form-urlencoded; charset=iso-8859-1")) {
            String no = newOrderNo();
            String t = newTradeNo();
            insertOrder(no, 100);
            assertOk(given().config(AlipayHttp.RAW_FORM)
                    .contentType(type)
                    .body(aNotice().orderNo(no).tradeNo(t).body())
                    .post("/notify/alipay/" + TestChannels.ALI));
            assertEquals("APPLIED", AlipayHttp.lastNotification(no).get("outcome"));
            assertOrder(no, "SUCCESS", t, GMT_PAYMENT, List.of());
        }
    }

    @Test
    void bodyOver64KibIs413WithFail() throws Exception {
        byte[] big = ("a=" + "b".repeat(64 * 1024)).getBytes(StandardCharsets.US_ASCII);
        for (boolean chunked : new boolean[] {false, true}) {
            long before = allNotifications();
            String[] answer = raw(base.getPort(), "/notify/alipay/" + TestChannels.ALI, big, chunked);
            assertTrue(answer[0].startsWith("HTTP/1.1 413"), answer[0]);
            assertTrue(answer[0].toLowerCase().contains("content-type: text/plain"), answer[0]);
            assertEquals("fail", answer[1]);
            assertEquals(before, allNotifications());
        }
    }

    /** A raw exchange: headers and body of the answer. The writer ignores a reset (the server stops reading). */
    static String[] raw(int port, String path, byte[] body, boolean chunked) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            Thread writer = new Thread(() -> {
                try {
                    out.write(ascii("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                            + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n")
                            + "\r\n"));
                    for (int off = 0; off < body.length; off += 4096) {
                        int n = Math.min(4096, body.length - off);
                        if (chunked) {
                            out.write(ascii(Integer.toHexString(n) + "\r\n"));
                        }
                        out.write(body, off, n);
                        if (chunked) {
                            out.write(ascii("\r\n"));
                        }
                    }
                    if (chunked) {
                        out.write(ascii("0\r\n\r\n"));
                    }
                    out.flush();
                } catch (java.io.IOException e) {
                    // refused: the server closed the connection
                }
            });
            writer.setDaemon(true);
            writer.start();
            var in = s.getInputStream();
            var buf = new java.io.ByteArrayOutputStream();
            byte[] b = new byte[4096];
            while (true) {
                int n;
                try {
                    n = in.read(b);
                } catch (java.io.IOException e) {
                    break;
                }
                if (n < 0) {
                    break;
                }
                buf.write(b, 0, n);
                String text = buf.toString(StandardCharsets.US_ASCII);
                int end = text.indexOf("\r\n\r\n");
                if (end >= 0 && text.toLowerCase().contains("content-length: 4") && text.length() >= end + 8) {
                    break;
                }
            }
            String text = buf.toString(StandardCharsets.US_ASCII);
            int end = text.indexOf("\r\n\r\n");
            return new String[] {text.substring(0, end), text.substring(end + 4)};
        }
    }
}
