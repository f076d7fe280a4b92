package io.paynotify.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.paynotify.config.Channel;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillSource.Fetch;
import io.paynotify.provider.alipay.AlipayBills;
import io.paynotify.provider.alipay.AlipayQuery;
import io.paynotify.provider.wechatv2.WechatV2Bills;
import io.paynotify.provider.wechatv2.WechatV2Query;
import io.paynotify.provider.wechatv3.WechatV3Bills;
import io.paynotify.provider.wechatv3.WechatV3Query;
import io.paynotify.simulator.gateway.Api;
import io.paynotify.simulator.gateway.BillScript;
import io.paynotify.simulator.gateway.Gateway;
import io.paynotify.simulator.gateway.GatewayConfig;
import io.paynotify.simulator.gateway.ScriptedTrade;
import io.paynotify.simulator.gateway.TradeState;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.TestKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three bill sources against the simulator's gateway (no Quarkus): the service's own query makes a paid trade
 * known to the gateway, the gateway's bill of that day holds it with the scripted extras (an order the service lacks,
 * a wrong amount, a refund), and the service fetches and reads each provider's file through its real download path —
 * signatures both ways, v3's authorised download and SHA-1, Alipay's GBK zip — and sees {@code NOT_READY},
 * {@code NO_BILL} and a hash mismatch as the gateway scripts them.
 */
@Tag("unit")
class BillsSimulatorTest {

    static final LocalDate DAY = LocalDate.of(2026, 3, 1);
    static final Instant PAID_AT = Instant.parse("2026-03-01T02:03:04Z");

    static Gateway gateway;
    static Channel v2;
    static Channel v3;
    static Channel ali;

    final Clock clock = Clock.systemUTC();
    final QueryHttp api = new QueryHttp();
    final BillHttp http = new BillHttp();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        gateway = Gateway.start(GatewayConfig.builder()
                .port(0)
                .wechatV2(QueryChannels.V2_MCH, QueryChannels.V2_APPID, QueryChannels.V2_KEY)
                .wechatV3(
                        QueryChannels.V3_MCH,
                        QueryChannels.V3_APPID,
                        QueryChannels.V3_MERCHANT_SERIAL,
                        TestKeys.pair(TestKeys.WECHAT_V3_MERCHANT).getPublic(),
                        Map.of(
                                QueryChannels.V3_PUBKEY_ID,
                                        TestKeys.pair(TestKeys.WECHAT_V3_PUBKEY).getPrivate(),
                                QueryChannels.V3_CERT_SERIAL,
                                        TestKeys.pair(TestKeys.WECHAT_V3_CERT).getPrivate()),
                        QueryChannels.V3_PUBKEY_ID)
                .alipay(
                        QueryChannels.ALI_APPID,
                        TestKeys.pair(TestKeys.ALIPAY_APP).getPublic(),
                        TestKeys.pair(TestKeys.ALIPAY).getPrivate())
                .build());
        v2 = QueryChannels.channel(QueryChannels.v2(gateway.baseUrl(), "MD5,HMAC-SHA256"), QueryChannels.V2);
        v3 = QueryChannels.channel(QueryChannels.v3(gateway.baseUrl()), QueryChannels.V3);
        ali = QueryChannels.channel(QueryChannels.alipay(gateway.baseUrl() + "/gateway.do"), QueryChannels.ALI);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void reset() {
        gateway.reset();
    }

    static BillScript extras() {
        return BillScript.ready()
                .withExtraPayment("LACKS-0001", 990)
                .withAmount("KNOWN-0002", 1)
                .withRefund("KNOWN-0001", "RF-0001", 300);
    }

    static void paid(String outTradeNo, long fen) {
        gateway.script(
                outTradeNo,
                ScriptedTrade.of(TradeState.PAID, fen)
                        .withTransactionId("4200000001202603010000000" + outTradeNo.substring(outTradeNo.length() - 3))
                        .withPaidAt(PAID_AT));
    }

    List<BillLine> fetchAndRead(BillSource source, Channel channel, String account) throws BillProblem {
        Path file = dir.resolve("bill-" + channel.name());
        Fetch f = source.fetch(channel, DAY, file, Duration.ofSeconds(10));
        var d = assertInstanceOf(Fetch.Downloaded.class, f, f.toString());
        var lines = new ArrayList<BillLine>();
        source.read(channel, file, new BillRequest(DAY, account), d.expectedSha1(), lines::add);
        return lines;
    }

    static void assertExtras(List<BillLine> lines) {
        assertEquals(4, lines.size(), lines.toString());
        BillLine known = lines.get(0);
        assertEquals(LineType.PAYMENT, known.type());
        assertEquals("KNOWN-0001", known.outTradeNo());
        assertEquals(1250, known.amount());
        assertEquals("4200000001202603010000000001", known.transactionId());
        assertEquals(1, lines.get(1).amount(), "the scripted wrong amount of KNOWN-0002");
        assertEquals("LACKS-0001", lines.get(2).outTradeNo());
        assertEquals(990, lines.get(2).amount());
        BillLine refund = lines.get(3);
        assertEquals(LineType.REFUND, refund.type());
        assertEquals("KNOWN-0001", refund.outTradeNo());
        assertEquals("RF-0001", refund.outRefundNo());
        assertEquals(300, refund.amount());
        assertNotNull(known.fee());
    }

    @Test
    void wechatV2() throws Exception {
        var query = new WechatV2Query(clock, api);
        paid("KNOWN-0001", 1250);
        paid("KNOWN-0002", 500);
        assertEquals(QueryResult.PAID, query.query(v2, "KNOWN-0001").result());
        assertEquals(QueryResult.PAID, query.query(v2, "KNOWN-0002").result());
        gateway.scriptBill(Api.WECHATPAY_V2, DAY, extras());
        var bills = new WechatV2Bills(http);
        List<BillLine> lines = fetchAndRead(bills, v2, QueryChannels.V2_MCH);
        assertExtras(lines);
        assertEquals(QueryChannels.V2_APPID, lines.get(0).appId());
        assertNull(lines.get(0).subMerchantId());

        gateway.scriptBill(Api.WECHATPAY_V2, DAY, extras().withStatus(BillScript.Status.NOT_READY));
        assertInstanceOf(Fetch.NotReady.class, bills.fetch(v2, DAY, dir.resolve("b"), Duration.ofSeconds(10)));
        assertInstanceOf(
                Fetch.NoBill.class, bills.fetch(v2, DAY.plusDays(1), dir.resolve("b"), Duration.ofSeconds(10)));
    }

    @Test
    void wechatV3() throws Exception {
        var query = new WechatV3Query(clock, api);
        paid("KNOWN-0001", 1250);
        paid("KNOWN-0002", 500);
        assertEquals(QueryResult.PAID, query.query(v3, "KNOWN-0001").result());
        assertEquals(QueryResult.PAID, query.query(v3, "KNOWN-0002").result());
        gateway.scriptBill(Api.WECHATPAY_V3, DAY, extras());
        var bills = new WechatV3Bills(clock, api, http);
        assertExtras(fetchAndRead(bills, v3, QueryChannels.V3_MCH));

        gateway.scriptBill(Api.WECHATPAY_V3, DAY, extras().withHashMismatch());
        BillProblem p = assertThrows(BillProblem.class, () -> fetchAndRead(bills, v3, QueryChannels.V3_MCH));
        assertEquals(StatementError.HASH, p.error());

        gateway.scriptBill(Api.WECHATPAY_V3, DAY, extras().withStatus(BillScript.Status.NOT_READY));
        assertInstanceOf(Fetch.NotReady.class, bills.fetch(v3, DAY, dir.resolve("b"), Duration.ofSeconds(10)));
        assertInstanceOf(
                Fetch.NoBill.class, bills.fetch(v3, DAY.plusDays(1), dir.resolve("b"), Duration.ofSeconds(10)));
    }

    @Test
    void alipay() throws Exception {
        var query = new AlipayQuery(clock, api);
        paid("KNOWN-0001", 1250);
        paid("KNOWN-0002", 500);
        assertEquals(QueryResult.PAID, query.query(ali, "KNOWN-0001").result());
        assertEquals(QueryResult.PAID, query.query(ali, "KNOWN-0002").result());
        gateway.scriptBill(Api.ALIPAY, DAY, extras());
        var bills = new AlipayBills(clock, api, http);
        assertExtras(fetchAndRead(bills, ali, null));

        gateway.scriptBill(Api.ALIPAY, DAY, extras().withStatus(BillScript.Status.NO_BILL));
        assertInstanceOf(Fetch.NoBill.class, bills.fetch(ali, DAY, dir.resolve("b"), Duration.ofSeconds(10)));
    }
}
