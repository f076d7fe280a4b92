package io.paynotify.provider.wechatv3;

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
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillHttp;
import io.paynotify.provider.BillSource.Fetch;
import io.paynotify.provider.QueryHttp;
import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestKeys;
import io.paynotify.testing.WechatV3Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WeChat Pay v3 bill download (docs/bills.md "WeChat Pay v3") against a local gateway: the signed tradebill
 * request and its answer verified with platform keys generated here, the download of {@code download_url} authorised
 * over its own path and query, the URL rule, the SHA-1 over the gunzipped bill, and every error code a v3 fetch and
 * read can end with.
 */
@Tag("unit")
class WechatV3BillsTest {

    static final long NOW = WechatV3QueryTest.NOW;
    static final LocalDate DAY = LocalDate.of(2026, 3, 1);
    static final String DOWNLOAD_PATH = "/v3/billdownload/file?token=6XIv5TUPto7pByrTQKhd6kwvyKLG2uY2wMMR8cNXqaA";

    static FakeGateway gateway;
    static Channel channel;
    static WechatV3Bills bills;

    final List<FakeGateway.Request> requests = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        channel = QueryChannels.channel(QueryChannels.v3(gateway.url() + "/api"), QueryChannels.V3);
        bills = new WechatV3Bills(
                Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC),
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

    static BillFixtures.Wechat bill() {
        return new BillFixtures.Wechat(DAY, QueryChannels.V3_APPID, QueryChannels.V3_MCH)
                .payment("B3ORDER0001", "4200000002202603010000000002", "12.50");
    }

    static String sha1(byte[] text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text));
    }

    static Reply tradebill(String hash, String url) {
        return WechatV3QueryTest.signed(
                WechatV3Fixtures.json(Map.of("hash_type", "SHA1", "hash_value", hash, "download_url", url)));
    }

    /** The tradebill answer names the download on this gateway; the download answers the bill, unsigned. */
    Fetch fetch(Reply answer, Reply download, Duration downloadTimeout) {
        gateway.answer(r -> {
            requests.add(r);
            return r.target().startsWith("/api/v3/bill/tradebill") ? answer : download;
        });
        return bills.fetch(channel, DAY, dir.resolve("bill"), downloadTimeout);
    }

    Fetch fetch(Reply answer, Reply download) {
        return fetch(answer, download, Duration.ofSeconds(5));
    }

    Fetch fetchBill(byte[] text, String hash) {
        return fetch(
                tradebill(hash, gateway.url() + DOWNLOAD_PATH),
                Reply.of(200, "application/octet-stream", BillFixtures.gzip(text)));
    }

    static StatementError failed(Fetch f) {
        return assertInstanceOf(Fetch.Failed.class, f, f.toString()).error();
    }

    List<BillLine> read(String expectedSha1) throws BillProblem {
        var lines = new ArrayList<BillLine>();
        bills.read(channel, dir.resolve("bill"), new BillRequest(DAY, QueryChannels.V3_MCH), expectedSha1, lines::add);
        return lines;
    }

    static Reply error(int status, String code) {
        return Reply.of(status, "application/json", "{\"code\":\"" + code + "\",\"message\":\"…\"}");
    }

    // ------------------------------------------------------------------ requests

    @Test
    void theTradebillRequestAndTheDownloadAreEachSignedOverTheirOwnTarget() throws Exception {
        byte[] text = bill().bytes();
        assertInstanceOf(Fetch.Downloaded.class, fetchBill(text, sha1(text)));
        assertEquals(2, requests.size());
        FakeGateway.Request api = requests.get(0);
        assertEquals("GET", api.method());
        assertEquals("/api/v3/bill/tradebill?bill_date=2026-03-01&bill_type=ALL&tar_type=GZIP", api.target());
        assertEquals("application/json", api.header("Accept"));
        assertEquals(QueryChannels.V3_PUBKEY_ID, api.header("Wechatpay-Serial"));
        WechatV3QueryTest.assertSignedRequest(api);
        FakeGateway.Request download = requests.get(1);
        assertEquals("GET", download.method());
        assertEquals(DOWNLOAD_PATH, download.target());
        WechatV3QueryTest.assertSignedRequest(download);
        assertTrue(download.header("User-Agent").startsWith("paynotify/"));
    }

    @Test
    void aPartnerChannelAsksForTheProviderWideBill() throws Exception {
        Map<String, String> c = QueryChannels.v3(gateway.url() + "/api");
        QueryChannels.put(c, QueryChannels.V3, "mode", "partner");
        Channel partner = QueryChannels.channel(c, QueryChannels.V3);
        byte[] text = bill().bytes();
        gateway.answer(r -> {
            requests.add(r);
            return r.target().startsWith("/api/v3/bill/tradebill")
                    ? tradebill(sha1Unchecked(text), gateway.url() + DOWNLOAD_PATH)
                    : Reply.of(200, "application/octet-stream", BillFixtures.gzip(text));
        });
        assertInstanceOf(Fetch.Downloaded.class, bills.fetch(partner, DAY, dir.resolve("bill"), Duration.ofSeconds(5)));
        assertEquals(
                "/api/v3/bill/tradebill?bill_date=2026-03-01&bill_type=ALL&tar_type=GZIP",
                requests.get(0).target(),
                "no sub_mchid: the bill of every sub-merchant");
    }

    static String sha1Unchecked(byte[] text) {
        try {
            return sha1(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ the bill and its hash

    @Test
    void theBillIsStoredAsTransferredAndItsHashMatchesInAnyCase() throws Exception {
        byte[] text = bill().bytes();
        String hash = sha1(text).toUpperCase(Locale.ROOT);
        var d = assertInstanceOf(Fetch.Downloaded.class, fetchBill(text, hash));
        assertEquals(hash, d.expectedSha1());
        assertArrayEquals(BillFixtures.gzip(text), Files.readAllBytes(dir.resolve("bill")));
        assertEquals(1, read(d.expectedSha1()).size());
    }

    @Test
    void aHashOverTheGzipBytesOrAnotherFileIsHash() throws Exception {
        byte[] text = bill().bytes();
        // the SDK pitfall: the hash of the compressed bytes is not the bill's
        var d = assertInstanceOf(Fetch.Downloaded.class, fetchBill(text, sha1(BillFixtures.gzip(text))));
        assertEquals(
                StatementError.HASH,
                assertThrows(BillProblem.class, () -> read(d.expectedSha1())).error());
    }

    @Test
    void aWrongHashWinsOverAnyOtherProblemOfTheFile() throws Exception {
        // a bill cut after its detail lines: TRUNCATED with the right hash, HASH with a wrong one
        byte[] cut = bill().noSummary().bytes();
        Files.write(dir.resolve("bill"), BillFixtures.gzip(cut));
        assertEquals(
                StatementError.TRUNCATED,
                assertThrows(BillProblem.class, () -> read(sha1(cut))).error());
        assertEquals(
                StatementError.HASH,
                assertThrows(BillProblem.class, () -> read(sha1(bill().bytes())))
                        .error());
    }

    @Test
    void linesGoToTheSinkBeforeTheHashIsKnownSoTheCallerStagesThem() throws Exception {
        byte[] text = bill().bytes();
        Files.write(dir.resolve("bill"), BillFixtures.gzip(text));
        var staged = new ArrayList<BillLine>();
        assertThrows(
                BillProblem.class,
                () -> bills.read(
                        channel,
                        dir.resolve("bill"),
                        new BillRequest(DAY, QueryChannels.V3_MCH),
                        "0000000000000000000000000000000000000000",
                        staged::add));
        assertEquals(1, staged.size(), "handed on while hashing: the caller discards them on the BillProblem");
    }

    @Test
    void anUploadHasNoHashToCheck() throws Exception {
        Files.write(dir.resolve("bill"), bill().bytes());
        assertEquals(1, read(null).size());
    }

    // ------------------------------------------------------------------ the tradebill answer

    @Test
    void noStatementExistIsNoBillAndStatementCreatingNotReady() {
        assertInstanceOf(Fetch.NoBill.class, fetch(error(400, "NO_STATEMENT_EXIST"), null));
        assertInstanceOf(Fetch.NotReady.class, fetch(error(400, "STATEMENT_CREATING"), null));
        assertInstanceOf(Fetch.NotReady.class, fetch(error(404, "STATEMENT_CREATING"), null));
        assertEquals(3, requests.size());
        assertTrue(
                requests.stream().allMatch(r -> r.target().startsWith("/api/v3/bill/tradebill")), "nothing downloaded");
    }

    @Test
    void anotherErrorCodeIsProviderAndAServerErrorHttp() {
        assertEquals(StatementError.PROVIDER, failed(fetch(error(400, "PARAM_ERROR"), null)));
        assertEquals(StatementError.HTTP, failed(fetch(Reply.of(500, "text/html", "<html>oops</html>"), null)));
    }

    @Test
    void anAnswerNotSignedByAPlatformKeyIsSignature() throws Exception {
        byte[] text = bill().bytes();
        String json = WechatV3Fixtures.json(
                Map.of("hash_type", "SHA1", "hash_value", sha1(text), "download_url", gateway.url() + DOWNLOAD_PATH));
        Reply forged = WechatV3QueryTest.signed(json, TestKeys.WECHAT_V3_MERCHANT, QueryChannels.V3_PUBKEY_ID, NOW);
        assertEquals(StatementError.SIGNATURE, failed(fetch(forged, null)));
        Reply unsigned = Reply.of(200, "application/json", json);
        assertEquals(StatementError.SIGNATURE, failed(fetch(unsigned, null)));
        Reply stale = WechatV3QueryTest.signed(json, TestKeys.WECHAT_V3_PUBKEY, QueryChannels.V3_PUBKEY_ID, NOW - 301);
        assertEquals(StatementError.SIGNATURE, failed(fetch(stale, null)));
        assertEquals(3, requests.size(), "no download after an unverified answer");
    }

    @Test
    void aHashTypeOtherThanSha1OrAMissingFieldIsProvider() {
        String url = gateway.url() + DOWNLOAD_PATH;
        String hash = "a".repeat(40);
        assertEquals(
                StatementError.PROVIDER,
                failed(fetch(
                        WechatV3QueryTest.signed(WechatV3Fixtures.json(
                                Map.of("hash_type", "SM3", "hash_value", hash, "download_url", url))),
                        null)));
        assertEquals(
                StatementError.PROVIDER,
                failed(fetch(
                        WechatV3QueryTest.signed(
                                WechatV3Fixtures.json(Map.of("hash_type", "SHA1", "download_url", url))),
                        null)));
        assertEquals(
                StatementError.PROVIDER,
                failed(fetch(
                        WechatV3QueryTest.signed(
                                WechatV3Fixtures.json(Map.of("hash_type", "SHA1", "hash_value", hash))),
                        null)));
    }

    @Test
    void aDownloadUrlOffTheApisSchemeHostOrPortIsRefusedAndNotFetched() {
        int port = Integer.parseInt(gateway.url().substring(gateway.url().lastIndexOf(':') + 1));
        Function<String, StatementError> with = url -> failed(fetch(tradebill("a".repeat(40), url), null));
        assertEquals(StatementError.URL_REFUSED, with.apply("http://localhost:" + port + DOWNLOAD_PATH));
        assertEquals(StatementError.URL_REFUSED, with.apply("https://127.0.0.1:" + port + DOWNLOAD_PATH));
        assertEquals(StatementError.URL_REFUSED, with.apply("http://127.0.0.1:" + (port + 1) + DOWNLOAD_PATH));
        assertEquals(StatementError.URL_REFUSED, with.apply("http://user@127.0.0.1:" + port + DOWNLOAD_PATH));
        assertEquals(StatementError.URL_REFUSED, with.apply("/v3/billdownload/file?token=x"));
        assertEquals(StatementError.URL_REFUSED, with.apply("http://127.0.0.1:" + port + "/a b"));
        assertEquals(6, requests.size(), "only the tradebill calls: nothing was downloaded");
    }

    @Test
    void theDefaultPortOfTheSchemeMatchesAnUnwrittenOne() {
        assertNotNull(WechatV3Bills.allowed(
                "https://api.mch.weixin.qq.com", "https://API.mch.weixin.qq.com:443/v3/billdownload/file?token=x"));
        assertNull(WechatV3Bills.allowed(
                "https://api.mch.weixin.qq.com", "https://api.mch.weixin.qq.com:8443/v3/billdownload/file"));
        assertNull(WechatV3Bills.allowed(
                "https://api.mch.weixin.qq.com", "http://api.mch.weixin.qq.com/v3/billdownload/file"));
    }

    // ------------------------------------------------------------------ the download

    @Test
    void aDownloadThatFailsIsHttpTimeoutOrTooLarge() throws Exception {
        Reply answer = tradebill("a".repeat(40), gateway.url() + DOWNLOAD_PATH);
        assertEquals(
                StatementError.HTTP,
                failed(fetch(answer, Reply.of(400, "application/json", "{\"code\":\"SIGN_ERROR\"}"))));
        assertEquals(
                StatementError.TIMEOUT,
                failed(fetch(
                        answer,
                        Reply.of(200, "application/octet-stream", new byte[2000])
                                .dripping(20),
                        Duration.ofMillis(300))));
        assertEquals(
                StatementError.TOO_LARGE,
                failed(fetch(answer, Reply.of(200, "application/octet-stream", new byte[64 * 1024 + 1]))));
    }

    @Test
    void aTradebillCallWithoutAnswerIsTimeout() {
        gateway.hang();
        assertEquals(
                StatementError.TIMEOUT, failed(bills.fetch(channel, DAY, dir.resolve("bill"), Duration.ofSeconds(5))));
    }

    @Test
    void aChannelWithoutAMerchantKeyCannotAskAndSaysSo() {
        Map<String, String> c = QueryChannels.v3(gateway.url());
        QueryChannels.remove(c, QueryChannels.V3, "query-enabled");
        QueryChannels.remove(c, QueryChannels.V3, "merchant-private-key");
        QueryChannels.remove(c, QueryChannels.V3, "merchant-serial");
        Channel bare = QueryChannels.channel(c, QueryChannels.V3);
        Fetch f = bills.fetch(bare, DAY, dir.resolve("bill"), Duration.ofSeconds(5));
        assertEquals(StatementError.PROVIDER, failed(f));
        assertTrue(((Fetch.Failed) f).detail().contains("merchant-private-key"));
    }
}
