package io.paynotify.simulator.trigger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.simulator.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code trigger} against a stub paynotify on 127.0.0.1 that records what arrived. */
class TriggerCommandTest {

    private StubPaynotify stub;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws IOException {
        stub = new StubPaynotify();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private int trigger(String... args) {
        List<String> argv = new ArrayList<>(List.of("trigger"));
        argv.addAll(List.of(args));
        argv.addAll(List.of("--service", stub.uri().toString()));
        return Cli.run(
                argv.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @CsvSource({
        "wx-dev,  /notify/wechatpay/wx-dev,     text/xml",
        "wx3-dev, /notify/wechatpay-v3/wx3-dev, application/json",
        "ali-dev, /notify/alipay/ali-dev,       application/x-www-form-urlencoded; charset=utf-8"
    })
    void payPostsToTheProvidersPath(String channel, String path, String contentType) {
        assertEquals(0, trigger("pay", "--channel", channel, "--out-trade-no", "T-PAY-1"), output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(1, sent.size());
        assertEquals("POST", sent.get(0).method());
        assertEquals(path, sent.get(0).path());
        assertEquals(contentType, sent.get(0).header("Content-Type"));
        assertEquals(!channel.equals("wx3-dev"), sent.get(0).text().contains("T-PAY-1"), "v3 encrypts it");
        assertTrue(stub.requests().stream().noneMatch(r -> r.path().startsWith("/api/")), "no registration");
        assertTrue(output().contains("expected: "), output());
    }

    @Test
    void v3NoticeCarriesTheWechatpayHeaders() {
        assertEquals(0, trigger("pay", "--channel", "wx3-dev", "--out-trade-no", "T-V3-1"), output());
        StubPaynotify.Request r = stub.notifications().get(0);
        assertEquals("PUB_KEY_ID_0000000000000000000000000000DEV1", r.header("Wechatpay-Serial"));
        assertEquals("WECHATPAY2-SHA256-RSA2048", r.header("Wechatpay-Signature-Type"));
        long ts = Long.parseLong(r.header("Wechatpay-Timestamp"));
        assertTrue(Math.abs(Instant.now().getEpochSecond() - ts) < 60);
        assertEquals(32, r.header("Wechatpay-Nonce").length());
        assertTrue(r.header("Wechatpay-Signature").length() > 300);
    }

    @Test
    void withoutAnOrderNumberItRegistersOneThroughTheSignedMerchantApi() {
        assertEquals(0, trigger("pay", "--channel", "ali-dev", "--amount", "4200"), output());
        List<StubPaynotify.Request> all = stub.requests();
        assertEquals(2, all.size());
        StubPaynotify.Request create = all.get(0);
        assertEquals("POST", create.method());
        assertEquals("/api/v1/orders", create.path());
        assertEquals("dev-shop", create.header("X-Client-Id"));
        String key = create.header("Idempotency-Key");
        assertFalse(key == null || key.isEmpty());
        String expected = MerchantApi.signature(
                DevProfile.CLIENT_SECRET, "POST", "/api/v1/orders", create.header("X-Timestamp"), key, create.body());
        assertEquals(expected, create.header("X-Signature"));
        Matcher number = Pattern.compile("\"outTradeNo\":\"([^\"]+)\"").matcher(create.text());
        assertTrue(number.find());
        assertTrue(create.text().contains("\"amount\":4200"));
        Map<String, String> form = TestKeys.form(all.get(1).body());
        assertEquals(number.group(1), form.get("out_trade_no"));
        assertEquals("42.00", form.get("total_amount"));
    }

    @Test
    void aFailedRegistrationStopsBeforeAnyNotice() {
        stub.answer((r, n) -> r.path().equals("/api/v1/orders")
                ? new StubPaynotify.Reply(403, "application/problem+json", "{}")
                : StubPaynotify.defaultReply(r));
        assertEquals(1, trigger("pay", "--channel", "wx-dev"));
        assertTrue(stub.notifications().isEmpty());
    }

    @Test
    void refundSendsThePaymentThenTheEncryptedRefundNotice() {
        assertEquals(0, trigger("refund", "--channel", "wx-dev", "--out-trade-no", "T-REF-1"), output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(2, sent.size());
        assertTrue(sent.get(0).text().contains("<sign>"));
        assertTrue(sent.get(1).text().contains("<req_info>"));
        assertFalse(sent.get(1).text().contains("<sign>"));
    }

    @Test
    void refundOfAKnownTransactionSendsOnlyTheRefund() {
        assertEquals(
                0,
                trigger(
                        "refund",
                        "--channel",
                        "ali-dev",
                        "--out-trade-no",
                        "T-REF-2",
                        "--transaction-id",
                        "2026000000000000000000000001",
                        "--amount",
                        "500",
                        "--refund",
                        "200"),
                output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(1, sent.size());
        Map<String, String> form = TestKeys.form(sent.get(0).body());
        assertEquals("2026000000000000000000000001", form.get("trade_no"));
        assertEquals("TRADE_SUCCESS", form.get("trade_status"));
        assertEquals("2.00", form.get("refund_fee"));
    }

    @Test
    void duplicateSendsTheSameBytesTwice() {
        assertEquals(0, trigger("duplicate", "--channel", "wx3-dev", "--out-trade-no", "T-DUP-1"), output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(2, sent.size());
        assertArrayEquals(sent.get(0).body(), sent.get(1).body());
        assertEquals(sent.get(0).header("Wechatpay-Signature"), sent.get(1).header("Wechatpay-Signature"));
    }

    @Test
    void closeOnWechatSaysThereIsNoSuchNoticeAndSendsNothing() {
        assertEquals(0, trigger("close", "--channel", "wx3-dev"), output());
        assertTrue(stub.requests().isEmpty(), "not even an order is registered");
        assertTrue(output().contains("sends no notification when a trade closes"), output());
    }

    @Test
    void closeOnAlipayIsTradeClosed() {
        assertEquals(0, trigger("close", "--channel", "ali-dev", "--out-trade-no", "T-CLOSE-2"), output());
        assertEquals(
                "TRADE_CLOSED",
                TestKeys.form(stub.notifications().get(0).body()).get("trade_status"));
    }

    @ParameterizedTest
    @CsvSource({
        "tampered,  wx-dev,  WECHATPAY_V2, 401",
        "tampered,  wx3-dev, WECHATPAY_V3, 401",
        "tampered,  ali-dev, ALIPAY,       401",
        "stale,     wx3-dev, WECHATPAY_V3, 401",
        "xxe,       wx-dev,  WECHATPAY_V2, 400",
        "wrong-app, wx-dev,  WECHATPAY_V2, 422",
        "wrong-app, wx3-dev, WECHATPAY_V3, 422",
        "wrong-app, ali-dev, ALIPAY,       422"
    })
    void evilKindsExpectTheRefusal(String kind, String channel, Provider provider, int status) {
        stub.answer((r, n) -> StubPaynotify.failure(provider, status));
        assertEquals(0, trigger(kind, "--channel", channel), output());
        assertEquals(1, stub.notifications().size());
        assertTrue(
                stub.requests().stream().noneMatch(r -> r.path().startsWith("/api/")), "evil kinds register nothing");
    }

    @Test
    void anAcceptedEvilNoticeIsAFailure() {
        assertEquals(1, trigger("tampered", "--channel", "ali-dev"), output());
        assertTrue(output().contains("UNEXPECTED"), output());
    }

    @Test
    void aRefusalWithTheWrongStatusIsAFailure() {
        stub.answer((r, n) -> StubPaynotify.failure(Provider.WECHATPAY_V3, 400));
        assertEquals(1, trigger("stale", "--channel", "wx3-dev"), output());
    }

    @Test
    void xxeBodyDeclaresAnExternalEntity() {
        stub.answer((r, n) -> StubPaynotify.failure(Provider.WECHATPAY_V2, 400));
        assertEquals(0, trigger("xxe", "--channel", "wx-dev"), output());
        String body = stub.notifications().get(0).text();
        assertTrue(body.contains("<!DOCTYPE xml [<!ENTITY xxe SYSTEM \"http://127.0.0.1:"), body);
        assertTrue(body.contains("&xxe;"));
        assertTrue(output().contains("the external entity was not fetched"), output());
    }

    /** A receiver that resolves the entity (as a vulnerable parser would) is caught even when it answers 400. */
    @Test
    void xxeNoticesAnEntityThatWasFetched() {
        HttpClient http = HttpClient.newHttpClient();
        stub.answer((r, n) -> {
            Matcher url = Pattern.compile("SYSTEM \"([^\"]+)\"").matcher(r.text());
            if (url.find()) {
                try {
                    http.send(
                            HttpRequest.newBuilder(URI.create(url.group(1))).build(),
                            HttpResponse.BodyHandlers.discarding());
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            return StubPaynotify.failure(Provider.WECHATPAY_V2, 400);
        });
        assertEquals(1, trigger("xxe", "--channel", "wx-dev"), output());
        assertTrue(output().contains("external entity was fetched"), output());
    }

    @Test
    void evilKindsThatNeedAnotherProtocolAreUsageErrors() {
        assertEquals(2, trigger("stale", "--channel", "ali-dev"));
        assertEquals(2, trigger("xxe", "--channel", "wx3-dev"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("stale needs a WeChat Pay v3 channel"));
        assertTrue(stub.requests().isEmpty());
        assertEquals("", output(), "a usage error prints nothing on stdout");
    }

    @Test
    void aSuccessAckThatIsNotTheContractsIsUnexpected() {
        stub.answer((r, n) -> new StubPaynotify.Reply(200, "text/plain", "OK"));
        assertEquals(1, trigger("pay", "--channel", "wx-dev", "--out-trade-no", "T-BAD-ACK"), output());
    }

    @Test
    void v2SignTypeCanBeChosen() {
        assertEquals(0, trigger("pay", "--channel", "wx-dev", "--out-trade-no", "T-MD5", "--sign-type", "MD5"));
        assertTrue(stub.notifications().get(0).text().contains("<sign_type><![CDATA[MD5]]></sign_type>"));
        Matcher sign = Pattern.compile("<sign><!\\[CDATA\\[([0-9A-F]+)]]></sign>")
                .matcher(stub.notifications().get(0).text());
        assertTrue(sign.find());
        assertEquals(32, sign.group(1).length());
        assertEquals(2, trigger("pay", "--channel", "wx3-dev", "--sign-type", "MD5"));
    }

    /** Fails the first three deliveries: the 4th arrives, after waits of the WeChat schedule divided by --speed. */
    @Test
    void retriesFollowTheWechatScheduleUntilAcknowledged() {
        stub.answer((r, n) -> n <= 3 ? StubPaynotify.failure(Provider.WECHATPAY_V2, 422) : StubPaynotify.V2_OK);
        assertEquals(
                0,
                trigger("retries", "--channel", "wx-dev", "--out-trade-no", "T-RETRY-1", "--speed", "100"),
                output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(4, sent.size(), "stops after the first success ack");
        List<Duration> schedule = Provider.WECHATPAY_V2.retrySchedule();
        for (int i = 1; i < sent.size(); i++) {
            assertArrayEquals(sent.get(0).body(), sent.get(i).body(), "the same notice each time");
            Duration gap = StubPaynotify.gap(sent.get(i - 1), sent.get(i));
            Duration wanted = schedule.get(i - 1).dividedBy(100);
            assertTrue(gap.compareTo(wanted) >= 0, "gap " + i + ": " + gap + " < " + wanted);
        }
        assertTrue(
                output().contains("delivers it again in 15 s (delivery 2 of 16; waiting 150 ms at --speed 100)"),
                output());
    }

    @Test
    void v3RetriesResignTheSameBody() {
        stub.answer((r, n) -> n == 1 ? StubPaynotify.failure(Provider.WECHATPAY_V3, 503) : StubPaynotify.V3_OK);
        assertEquals(
                0,
                trigger("retries", "--channel", "wx3-dev", "--out-trade-no", "T-RETRY-2", "--speed", "1000"),
                output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(2, sent.size());
        assertArrayEquals(sent.get(0).body(), sent.get(1).body());
        assertNotEquals(sent.get(0).header("Wechatpay-Nonce"), sent.get(1).header("Wechatpay-Nonce"));
    }

    @Test
    void retriesFollowTheAlipaySchedule() {
        stub.answer((r, n) -> n <= 2 ? StubPaynotify.failure(Provider.ALIPAY, 422) : StubPaynotify.ALIPAY_OK);
        assertEquals(
                0,
                trigger("retries", "--channel", "ali-dev", "--out-trade-no", "T-RETRY-3", "--speed", "2000"),
                output());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(3, sent.size());
        assertTrue(StubPaynotify.gap(sent.get(0), sent.get(1)).compareTo(Duration.ofMillis(120)) >= 0); // 4 min / 2000
        assertTrue(StubPaynotify.gap(sent.get(1), sent.get(2)).compareTo(Duration.ofMillis(300)) >= 0); // 10 min / 2000
    }

    @Test
    void retriesGiveUpAfterTheWholeSchedule() {
        stub.answer((r, n) -> StubPaynotify.failure(Provider.WECHATPAY_V2, 422));
        assertEquals(
                1,
                trigger("retries", "--channel", "wx-dev", "--out-trade-no", "T-RETRY-4", "--speed", "1000000000"),
                output());
        assertEquals(16, stub.notifications().size());
        assertTrue(output().contains("delivery 16 of 16"), output());
    }

    @Test
    void anUnreachableServiceIsAFailureThatSaysSo() {
        String[] argv = {
            "trigger", "pay", "--channel", "wx-dev", "--out-trade-no", "T-DOWN", "--service", "http://127.0.0.1:1"
        };
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(1, Cli.run(argv, o, o));
        assertTrue(output().contains("connection refused"), output());
    }

    @Test
    void aChannelsFileDefinesChannelsAndProviderKeys(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("platform.pem"), DevKeys.pem(DevKeys.WECHATPAY_V3_PLATFORM));
        Files.writeString(
                dir.resolve("channels.properties"),
                String.join(
                        "\n",
                        "paynotify.channels.\"v3-shop\".provider=WECHATPAY_V3",
                        "paynotify.channels.\"v3-shop\".app-id=wxshop000000001,wxshop000000002",
                        "paynotify.channels.\"v3-shop\".mch-id=1900000099",
                        "paynotify.channels.\"v3-shop\".api-v3-key=0123456789abcdef0123456789abcdef",
                        "paynotify.channels.\"v3-shop\".platform-keys.\"OTHER\"=" + Base64Keys.other(),
                        "paynotify.channels.\"v3-shop\".platform-keys.\"PUB_KEY_ID_SHOP\"="
                                + TestKeys.bare(DevKeys.pem("wechatpay-v3-dev-platform-public.pem")),
                        "paynotify.channels.\"v3-shop\".platform-private-key=file:platform.pem",
                        "%dev.paynotify.channels.wx-shop.provider=WECHATPAY_V2",
                        "%dev.paynotify.channels.wx-shop.app-id=wxshop000000003",
                        "%dev.paynotify.channels.wx-shop.mch-id=1900000098",
                        "%dev.paynotify.channels.wx-shop.api-key=shopshopshopshopshopshopshopsh32",
                        "%dev.paynotify.channels.wx-shop.sign-types=MD5",
                        "%test.paynotify.channels.ignored.provider=ALIPAY",
                        "paynotify.clients.\"shop\".secret=shop-secret-0123456789abcdefghijkl",
                        "paynotify.clients.\"shop\".channels=v3-shop,wx-shop",
                        ""));
        String file = dir.resolve("channels.properties").toString();
        assertEquals(0, trigger("pay", "--channel", "v3-shop", "--channels-file", file), output());
        StubPaynotify.Request notice = stub.notifications().get(0);
        assertEquals("/notify/wechatpay-v3/v3-shop", notice.path());
        assertEquals("PUB_KEY_ID_SHOP", notice.header("Wechatpay-Serial"), "the serial whose key matches");
        assertEquals("shop", stub.requests().get(0).header("X-Client-Id"));

        assertEquals(0, trigger("pay", "--channel", "wx-shop", "--channels-file", file, "--out-trade-no", "T-F"));
        assertTrue(stub.notifications().get(1).text().contains("<sign_type><![CDATA[MD5]]></sign_type>"));
        assertEquals(2, trigger("pay", "--channel", "ignored", "--channels-file", file));
        assertEquals(
                2, trigger("pay", "--channel", "wx-dev", "--channels-file", file), "the file replaces the dev table");
    }

    @Test
    void outputNeverShowsAKey() {
        assertEquals(0, trigger("refund", "--channel", "wx-dev", "--out-trade-no", "T-KEYS"));
        assertEquals(0, trigger("pay", "--channel", "wx3-dev", "--out-trade-no", "T-KEYS"));
        assertEquals(0, trigger("pay", "--channel", "ali-dev"));
        String text = output();
        assertFalse(text.contains(TestKeys.WX.apiKey()));
        assertFalse(text.contains(TestKeys.WX3.apiV3Key()));
        assertFalse(text.contains(DevProfile.CLIENT_SECRET));
        assertFalse(text.contains("PRIVATE KEY"));
    }

    /** An RSA public key that belongs to no private key of the test, as bare base64. */
    private static final class Base64Keys {
        static String other() {
            return java.util.Base64.getEncoder()
                    .encodeToString(TestKeys.otherPublicKey().getEncoded());
        }
    }
}
