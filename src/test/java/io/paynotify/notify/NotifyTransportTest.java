package io.paynotify.notify;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** HTTP details of the notify route that no provider test exercises on its own. */
@QuarkusTest
class NotifyTransportTest {

    @TestHTTPResource("/notify/wechatpay/" + TestChannels.WX)
    URI endpoint;

    @Test
    void expectContinueIsAnsweredSoTheBodyIsSent() throws Exception {
        String no = "CONT" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(300).insert();
        Map<String, String> f = WechatV2Fixtures.paid(no, "4200" + no, 300);
        f.put("attach", "x".repeat(4000)); // large enough that clients ask before sending
        byte[] body = WechatV2Fixtures.body(WechatV2Fixtures.signed(f, TestChannels.WX_KEY, "MD5"));

        HttpResponse<String> r = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(endpoint)
                                .expectContinue(true)
                                .timeout(Duration.ofSeconds(10))
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertEquals(200, r.statusCode());
        assertEquals(
                "SUCCESS",
                Db.row("SELECT state FROM orders WHERE out_trade_no = ?", no).get("state"));
    }

    @Test
    void contentTypeIsNeitherRequiredNorTrusted() throws Exception {
        String no = "CTYPE" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        anOrder().channel(TestChannels.WX).outTradeNo(no).amount(300).insert();
        byte[] body = WechatV2Fixtures.body(
                WechatV2Fixtures.signed(WechatV2Fixtures.paid(no, "4200" + no, 300), TestChannels.WX_KEY, "MD5"));

        HttpResponse<String> r = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(endpoint)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertEquals(200, r.statusCode());
    }
}
