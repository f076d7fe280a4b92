package io.paynotify.provider.wechatv2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.paynotify.config.Channel;
import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillFiles;
import io.paynotify.provider.BillHttp;
import io.paynotify.provider.BillSource.Fetch;
import io.paynotify.provider.SafeXml;
import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.WechatV2Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WeChat Pay v2 bill download (docs/bills.md "WeChat Pay v2") against a local gateway: the signed request, the
 * bill as gzip or text streamed to the file, each XML error answer, and every error code a v2 fetch can end with
 * (HTTP, TIMEOUT, TOO_LARGE, PROVIDER).
 */
@Tag("unit")
class WechatV2BillsTest {

    static final LocalDate DAY = LocalDate.of(2026, 3, 1);
    static final String TXN = "4200000001202603010000000001";

    static FakeGateway gateway;
    static Channel channel;
    static Channel partner;
    static WechatV2Bills bills;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        channel = QueryChannels.channel(QueryChannels.v2(gateway.url() + "/wx", "MD5,HMAC-SHA256"), QueryChannels.V2);
        Map<String, String> c = QueryChannels.v2(gateway.url() + "/wx", "MD5");
        QueryChannels.put(c, QueryChannels.V2, "mode", "partner");
        partner = QueryChannels.channel(c, QueryChannels.V2);
        bills = new WechatV2Bills(new BillHttp(Duration.ofMillis(800), 64 * 1024));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    static BillFixtures.Wechat bill() {
        return new BillFixtures.Wechat(DAY, QueryChannels.V2_APPID, QueryChannels.V2_MCH)
                .payment("B2ORDER0001", TXN, "12.50")
                .refund("B2ORDER0000", "4200000001202602280000000009", "RF0001", "3.00", "SUCCESS");
    }

    Fetch fetch(Channel on, Reply reply, Duration downloadTimeout) {
        gateway.answer(r -> reply);
        return bills.fetch(on, DAY, dir.resolve("bill"), downloadTimeout);
    }

    Fetch fetch(Reply reply) {
        return fetch(channel, reply, Duration.ofSeconds(5));
    }

    static String error(String msg, String code) {
        var f = new LinkedHashMap<String, String>();
        f.put("return_code", "FAIL");
        f.put("return_msg", msg);
        if (code != null) {
            f.put("error_code", code);
        }
        return WechatV2Fixtures.xml(f);
    }

    static StatementError failed(Fetch f) {
        return assertInstanceOf(Fetch.Failed.class, f, f.toString()).error();
    }

    List<BillLine> read(Channel on) throws BillProblem {
        var lines = new ArrayList<BillLine>();
        bills.read(on, dir.resolve("bill"), new BillRequest(DAY, QueryChannels.V2_MCH), null, lines::add);
        return lines;
    }

    // ------------------------------------------------------------------ the request

    @Test
    void theRequestIsSignedWithTheStrongestTypeAndNamesTheDayAsWechatWantsIt() throws Exception {
        fetch(Reply.of(200, "text/plain", bill().text()));
        FakeGateway.Request r = gateway.last();
        assertEquals("POST", r.method());
        assertEquals("/wx/pay/downloadbill", r.target());
        Map<String, String> f = SafeXml.readFlat(r.body(), "xml");
        assertEquals(QueryChannels.V2_APPID, f.get("appid"), "the channel's first app id");
        assertEquals(QueryChannels.V2_MCH, f.get("mch_id"));
        assertEquals("20260301", f.get("bill_date"));
        assertEquals("ALL", f.get("bill_type"));
        assertEquals("GZIP", f.get("tar_type"));
        assertEquals("HMAC-SHA256", f.get("sign_type"));
        assertEquals(32, f.get("nonce_str").length());
        assertEquals(WechatV2Fixtures.sign(f, QueryChannels.V2_KEY, "HMAC-SHA256"), f.get("sign"));
        assertFalse(f.containsKey("sub_mch_id"));
    }

    @Test
    void aPartnerChannelAsksForTheWholeBillOfEverySubMerchant() throws Exception {
        fetch(partner, Reply.of(200, "text/plain", bill().text()), Duration.ofSeconds(5));
        Map<String, String> f = SafeXml.readFlat(gateway.last().body(), "xml");
        assertFalse(f.containsKey("sub_mch_id"), "without sub_mch_id the bill covers every sub-merchant");
        assertFalse(f.containsKey("sub_appid"));
        assertEquals(WechatV2Fixtures.sign(f, QueryChannels.V2_KEY, "MD5"), f.get("sign"));
    }

    // ------------------------------------------------------------------ the bill

    @Test
    void aGzipBillIsStoredAsTransferredAndReadGunzipped() throws Exception {
        byte[] gz = bill().gzip();
        Fetch f = fetch(Reply.of(200, "application/x-gzip", gz));
        var d = assertInstanceOf(Fetch.Downloaded.class, f);
        assertEquals(gz.length, d.bytes());
        assertEquals(null, d.expectedSha1(), "v2 bills carry no hash");
        assertArrayEquals(gz, Files.readAllBytes(dir.resolve("bill")), "exactly as transferred");
        List<BillLine> lines = read(channel);
        assertEquals(2, lines.size());
        assertEquals(LineType.PAYMENT, lines.get(0).type());
        assertEquals(1250, lines.get(0).amount());
        assertEquals(LineType.REFUND, lines.get(1).type());
    }

    @Test
    void aPlainTextBillIsReadAsIs() throws Exception {
        Fetch f = fetch(Reply.of(200, "text/plain;charset=utf-8", bill().text()).chunked());
        assertInstanceOf(Fetch.Downloaded.class, f);
        assertEquals(2, read(channel).size());
    }

    @Test
    void aCutGzipIsTruncatedAndABrokenOneUnparseable() throws Exception {
        byte[] gz = bill().gzip();
        Files.write(dir.resolve("bill"), java.util.Arrays.copyOf(gz, gz.length - 12));
        assertEquals(
                StatementError.TRUNCATED,
                assertThrows(BillProblem.class, () -> read(channel)).error());
        byte[] broken = gz.clone();
        for (int i = 10; i < broken.length - 8; i++) {
            broken[i] = (byte) 0xFF;
        }
        Files.write(dir.resolve("bill"), broken);
        assertEquals(
                StatementError.UNPARSEABLE,
                assertThrows(BillProblem.class, () -> read(channel)).error());
    }

    @Test
    void aSinksCheckedExceptionLeavesUncheckedWithItsCause() throws Exception {
        Files.write(dir.resolve("bill"), bill().gzip());
        var e = assertThrows(
                BillFiles.SinkFailed.class,
                () -> bills.read(channel, dir.resolve("bill"), new BillRequest(DAY, QueryChannels.V2_MCH), null, l -> {
                    throw new IOException("staging failed");
                }));
        assertEquals("staging failed", e.getCause().getMessage());
    }

    // ------------------------------------------------------------------ the XML answers

    @Test
    void noBillExistInAnyCaseOrErrorCode20002IsNoBill() {
        assertInstanceOf(Fetch.NoBill.class, fetch(Reply.of(200, "text/xml", error("No Bill Exist", null))));
        assertInstanceOf(Fetch.NoBill.class, fetch(Reply.of(200, "text/xml", error("NO Bill Exist", null))));
        assertInstanceOf(Fetch.NoBill.class, fetch(Reply.of(200, "text/xml", error("something else", "20002"))));
    }

    @Test
    void billCreatingIsNotReady() {
        assertInstanceOf(Fetch.NotReady.class, fetch(Reply.of(200, "text/xml", error("Bill Creating", null))));
    }

    @Test
    void anyOtherXmlAnswerIsAProviderError() {
        assertEquals(StatementError.PROVIDER, failed(fetch(Reply.of(200, "text/xml", error("签名错误", null)))));
        assertEquals(
                StatementError.PROVIDER,
                failed(fetch(Reply.of(200, "text/xml", "\n<xml><return_code>FAIL</return_code><a><b/></a></xml>"))));
    }

    // ------------------------------------------------------------------ transport

    @Test
    void aStatusOtherThan200IsHttp() {
        assertEquals(StatementError.HTTP, failed(fetch(Reply.of(502, "text/plain", "bad gateway"))));
    }

    @Test
    void noFirstByteWithinTheApiLimitIsTimeout() {
        gateway.hang();
        Fetch f = bills.fetch(channel, DAY, dir.resolve("bill"), Duration.ofSeconds(30));
        assertEquals(StatementError.TIMEOUT, failed(f));
    }

    @Test
    void aDownloadSlowerThanDownloadTimeoutIsTimeout() {
        // the first byte comes at once, the whole bill would take seconds
        Fetch f = fetch(channel, Reply.of(200, "text/plain", bill().text()).dripping(20), Duration.ofMillis(300));
        assertEquals(StatementError.TIMEOUT, failed(f));
    }

    @Test
    void aBillOverTheLimitIsTooLargeDeclaredOrNot() {
        byte[] big = new byte[64 * 1024 + 1];
        assertEquals(StatementError.TOO_LARGE, failed(fetch(Reply.of(200, "application/x-gzip", big))));
        assertEquals(
                StatementError.TOO_LARGE,
                failed(fetch(Reply.of(200, "application/x-gzip", big).chunked())));
    }

    @Test
    void aRefusedConnectionIsHttp() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Channel closed = QueryChannels.channel(QueryChannels.v2("http://127.0.0.1:" + port, "MD5"), QueryChannels.V2);
        assertEquals(StatementError.HTTP, failed(bills.fetch(closed, DAY, dir.resolve("bill"), Duration.ofSeconds(5))));
    }
}
