package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.Channel;
import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillHttp;
import io.paynotify.provider.BillSource.Fetch;
import io.paynotify.provider.QueryHttp;
import io.paynotify.simulator.sign.AlipayPki;
import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alipay's bill download (docs/bills.md "Alipay") against a local gateway: the signed
 * {@code alipay.data.dataservice.bill.downloadurl.query} (certificate mode's SNs included), its answer verified over
 * its exact text, {@code isp.bill_not_exist}, the URL rule, the zip fetched at once and read as GBK, and every
 * error code an Alipay fetch can end with.
 */
@Tag("unit")
class AlipayBillsTest {

    static final Instant NOW = Instant.parse("2026-03-02T02:03:04Z");
    static final LocalDate DAY = LocalDate.of(2026, 3, 1);
    static final String ACCOUNT = "2088000000000777";
    static final String FILE_PATH = "/downloadBillFile.resource?bizType=trade&userId=20880000000007770156"
            + "&fileType=csv.zip&bizDates=20260301&downloadFileName=20880000000007770156_20260301.csv.zip&fileId=x";
    static final AlipayPki PKI = AlipayPki.issue(
            QueryChannels.ALI_APPID,
            TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
            TestKeys.pair(TestKeys.ALIPAY).getPublic(),
            Instant.now(),
            5);

    static FakeGateway gateway;
    static Channel channel;
    static Channel certChannel;
    static AlipayBills bills;

    final List<FakeGateway.Request> requests = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        channel = QueryChannels.channel(QueryChannels.alipay(gateway.url() + "/gateway.do"), QueryChannels.ALI);
        Map<String, String> c = QueryChannels.alipay(gateway.url() + "/gateway.do");
        QueryChannels.put(c, QueryChannels.ALI, "alipay-public-key", PKI.alipayPem());
        QueryChannels.put(c, QueryChannels.ALI, "alipay-root-cert", PKI.rootPem());
        QueryChannels.put(c, QueryChannels.ALI, "app-cert", PKI.appPem());
        certChannel = QueryChannels.channel(c, QueryChannels.ALI);
        bills = new AlipayBills(
                Clock.fixed(NOW, ZoneOffset.UTC),
                new QueryHttp(Duration.ofSeconds(1), 8192),
                new BillHttp(Duration.ofMillis(800), 64 * 1024));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void clear() {
        requests.clear();
    }

    static BillFixtures.Alipay bill() {
        return new BillFixtures.Alipay(DAY, ACCOUNT)
                .payment("BAORDER0001", "2026030122001400000000000001", "12.50")
                .refund("BAORDER0000", "2026022822001400000000000009", "RF0001", "3.00");
    }

    static String response(String url) {
        return "{\"code\":\"10000\",\"msg\":\"Success\",\"bill_download_url\":\"" + url.replace("/", "\\/") + "\"}";
    }

    static String signed(String response) {
        return AlipayQueryTest.body(response, AlipayQueryTest.sign(response, TestKeys.ALIPAY, StandardCharsets.UTF_8))
                .replace(AlipayQuery.RESPONSE, AlipayGateway.responseName(AlipayBills.METHOD));
    }

    static Reply answer(String body) {
        return Reply.of(200, "text/html;charset=utf-8", body);
    }

    Fetch fetch(Channel on, Reply answer, Reply download) {
        gateway.answer(r -> {
            requests.add(r);
            return r.target().startsWith("/gateway.do") ? answer : download;
        });
        return bills.fetch(on, DAY, dir.resolve("bill.zip"), Duration.ofSeconds(5));
    }

    Fetch fetch(Reply answer, Reply download) {
        return fetch(channel, answer, download);
    }

    static StatementError failed(Fetch f) {
        return assertInstanceOf(Fetch.Failed.class, f, f.toString()).error();
    }

    List<BillLine> read() throws BillProblem {
        var lines = new ArrayList<BillLine>();
        bills.read(channel, dir.resolve("bill.zip"), new BillRequest(DAY, null), null, lines::add);
        return lines;
    }

    /** RSA2 by the app key over every parameter but {@code sign}, sorted by name, {@code k=v} joined by {@code &}. */
    static boolean verifiesWithAppKey(Map<String, String> p) throws Exception {
        String content = new java.util.TreeMap<>(p)
                .entrySet().stream()
                        .filter(e -> !e.getKey().equals("sign"))
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(java.util.stream.Collectors.joining("&"));
        var s = java.security.Signature.getInstance("SHA256withRSA");
        s.initVerify(TestKeys.pair(TestKeys.ALIPAY_APP).getPublic());
        s.update(content.getBytes(StandardCharsets.UTF_8));
        return s.verify(java.util.Base64.getDecoder().decode(p.get("sign")));
    }

    // ------------------------------------------------------------------ the request and the bill

    @Test
    void theQueryIsSignedAndTheZipFetchedAtOnceAsTransferred() throws Exception {
        byte[] zip = bill().zip();
        Fetch f = fetch(
                answer(signed(response(gateway.url() + FILE_PATH))), Reply.of(200, "application/oct-stream", zip));
        var d = assertInstanceOf(Fetch.Downloaded.class, f);
        assertEquals(zip.length, d.bytes());
        assertNull(d.expectedSha1());
        assertArrayEquals(zip, Files.readAllBytes(dir.resolve("bill.zip")));
        assertEquals(2, requests.size());
        Map<String, String> p = AlipayQueryTest.form(requests.get(0).bodyText());
        assertEquals(AlipayBills.METHOD, p.get("method"));
        assertEquals("{\"bill_type\":\"trade\",\"bill_date\":\"2026-03-01\"}", p.get("biz_content"));
        assertEquals(QueryChannels.ALI_APPID, p.get("app_id"));
        assertEquals("RSA2", p.get("sign_type"));
        assertTrue(verifiesWithAppKey(p), "signed with the app private key over every other parameter");
        assertNull(p.get("app_cert_sn"));
        FakeGateway.Request download = requests.get(1);
        assertEquals("GET", download.method());
        assertEquals(FILE_PATH, download.target(), "the URL as answered, \\/ read as /");
        List<BillLine> lines = read();
        assertEquals(2, lines.size());
        assertEquals(LineType.PAYMENT, lines.get(0).type());
        assertEquals(1250, lines.get(0).amount());
        assertEquals(LineType.REFUND, lines.get(1).type());
    }

    @Test
    void inCertificateModeTheRequestCarriesBothSnsAndTheAnswerIsVerifiedByItsCertSn() {
        String response = response(gateway.url() + FILE_PATH);
        String body =
                "{\"" + AlipayGateway.responseName(AlipayBills.METHOD) + "\":" + response + ",\"alipay_cert_sn\":\""
                        + AlipayPki.sn(PKI.alipay()) + "\",\"sign\":\""
                        + AlipayQueryTest.sign(response, TestKeys.ALIPAY, StandardCharsets.UTF_8) + "\"}";
        Fetch f = fetch(certChannel, answer(body), Reply.of(200, "application/oct-stream", bill().zip()));
        assertInstanceOf(Fetch.Downloaded.class, f);
        Map<String, String> p = AlipayQueryTest.form(requests.get(0).bodyText());
        assertEquals(AlipayPki.sn(PKI.app()), p.get("app_cert_sn"));
        assertEquals(PKI.rootSn(), p.get("alipay_root_cert_sn"));
        // without alipay_cert_sn a certificate-mode answer is not trusted
        assertEquals(StatementError.SIGNATURE, failed(fetch(certChannel, answer(signed(response)), null)));
    }

    @Test
    void aBrokenOrCutZipIsUnparseableOrTruncated() throws Exception {
        Files.write(dir.resolve("bill.zip"), "<html>not a zip</html>".getBytes(StandardCharsets.UTF_8));
        assertEquals(
                StatementError.UNPARSEABLE,
                assertThrows(BillProblem.class, this::read).error());
        Files.write(dir.resolve("bill.zip"), bill().noEnd().zip());
        assertEquals(
                StatementError.TRUNCATED,
                assertThrows(BillProblem.class, this::read).error());
    }

    // ------------------------------------------------------------------ the answer

    @Test
    void aVerifiedBillNotExistIsNoBill() {
        String r = "{\"code\":\"40004\",\"msg\":\"Business Failed\",\"sub_code\":\"isp.bill_not_exist\","
                + "\"sub_msg\":\"账单不存在\"}";
        assertInstanceOf(Fetch.NoBill.class, fetch(answer(signed(r)), null));
        // unsigned, it proves nothing: a provider error, retried
        String unsigned = "{\"" + AlipayGateway.responseName(AlipayBills.METHOD) + "\":" + r + "}";
        assertEquals(StatementError.PROVIDER, failed(fetch(answer(unsigned), null)));
        assertEquals(2, requests.size(), "nothing downloaded");
    }

    @Test
    void anotherCodeOrNoUrlOrAnErrorResponseIsProvider() {
        String other = "{\"code\":\"40004\",\"msg\":\"Business Failed\",\"sub_code\":\"isp.unknow-error\"}";
        assertEquals(StatementError.PROVIDER, failed(fetch(answer(signed(other)), null)));
        assertEquals(
                StatementError.PROVIDER,
                failed(fetch(answer(signed("{\"code\":\"10000\",\"msg\":\"Success\"}")), null)));
        assertEquals(
                StatementError.PROVIDER,
                failed(fetch(answer("{\"error_response\":{\"code\":\"40002\",\"msg\":\"Invalid Arguments\"}}"), null)));
    }

    @Test
    void anAnswerSignedByAnotherKeyIsSignature() {
        String r = response(gateway.url() + FILE_PATH);
        String forged = AlipayQueryTest.body(r, AlipayQueryTest.sign(r, TestKeys.ALIPAY_APP, StandardCharsets.UTF_8))
                .replace(AlipayQuery.RESPONSE, AlipayGateway.responseName(AlipayBills.METHOD));
        assertEquals(StatementError.SIGNATURE, failed(fetch(answer(forged), null)));
        String unsigned = "{\"" + AlipayGateway.responseName(AlipayBills.METHOD) + "\":" + r + "}";
        assertEquals(StatementError.SIGNATURE, failed(fetch(answer(unsigned), null)));
        assertEquals(2, requests.size(), "nothing downloaded");
    }

    @Test
    void aGatewayThatFailsIsHttpOrTimeout() {
        assertEquals(StatementError.HTTP, failed(fetch(Reply.of(502, "text/html", "bad gateway"), null)));
        gateway.hang();
        assertEquals(
                StatementError.TIMEOUT,
                failed(bills.fetch(channel, DAY, dir.resolve("bill.zip"), Duration.ofSeconds(5))));
    }

    // ------------------------------------------------------------------ the URL

    @Test
    void aUrlOffTheGatewaysHostAndAlipayComIsRefusedAndNotFetched() {
        int port = Integer.parseInt(gateway.url().substring(gateway.url().lastIndexOf(':') + 1));
        for (String url : List.of(
                "http://localhost:" + port + FILE_PATH,
                "ftp://127.0.0.1:" + port + FILE_PATH,
                "http://user@127.0.0.1:" + port + FILE_PATH,
                "http://dwbillcenter.alipay.com.evil.example/x",
                "http://evilalipay.com/x",
                "/downloadBillFile.resource")) {
            assertEquals(StatementError.URL_REFUSED, failed(fetch(answer(signed(response(url))), null)), url);
        }
        assertTrue(requests.stream().allMatch(r -> r.target().startsWith("/gateway.do")), "nothing downloaded");
    }

    @Test
    void alipaysOwnHostsAreAllowedOnHttpAndHttpsAndTheGatewaysOnAnyPort() {
        String gw = "https://openapi.alipay.com/gateway.do";
        assertNotNull(AlipayBills.allowed(gw, "http://dwbillcenter.alipay.com/downloadBillFile.resource?x=1"));
        assertNotNull(AlipayBills.allowed(gw, "https://DWBILLCENTER.ALIPAY.COM/downloadBillFile.resource"));
        assertNotNull(AlipayBills.allowed("http://127.0.0.1:9/gateway.do", "http://127.0.0.1:10/bill.zip"));
        assertNull(AlipayBills.allowed(gw, "https://alipay.com.cn/x"));
    }

    // ------------------------------------------------------------------ the download

    @Test
    void aDownloadThatFailsIsHttpTimeoutOrTooLarge() {
        Reply answer = answer(signed(response(gateway.url() + FILE_PATH)));
        assertEquals(StatementError.HTTP, failed(fetch(answer, Reply.of(404, "text/html", "expired"))));
        gateway.answer(r -> r.target().startsWith("/gateway.do")
                ? answer
                : Reply.of(200, "application/oct-stream", new byte[2000]).dripping(20));
        assertEquals(
                StatementError.TIMEOUT,
                failed(bills.fetch(channel, DAY, dir.resolve("bill.zip"), Duration.ofMillis(300))));
        assertEquals(
                StatementError.TOO_LARGE,
                failed(fetch(
                        answer,
                        Reply.of(200, "application/oct-stream", new byte[64 * 1024 + 1])
                                .chunked())));
    }

    @Test
    void anIsvChannelIsNotFetched() {
        Map<String, String> c = QueryChannels.alipay(gateway.url() + "/gateway.do");
        QueryChannels.put(c, QueryChannels.ALI, "mode", "isv");
        QueryChannels.remove(c, QueryChannels.ALI, "query-enabled");
        Channel isv = QueryChannels.channel(c, QueryChannels.ALI);
        assertEquals(StatementError.PROVIDER, failed(fetch(isv, null, null)));
        assertEquals(0, requests.size());
    }
}
