package io.paynotify.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.Channel;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;
import io.paynotify.provider.alipay.AlipayCertStore;
import io.paynotify.provider.alipay.AlipayQuery;
import io.paynotify.provider.alipay.AlipayTokens;
import io.paynotify.provider.wechatv2.WechatV2Query;
import io.paynotify.provider.wechatv3.WechatV3Query;
import io.paynotify.simulator.gateway.Gateway;
import io.paynotify.simulator.gateway.GatewayConfig;
import io.paynotify.simulator.gateway.RecordedRequest;
import io.paynotify.simulator.gateway.ScriptedTrade;
import io.paynotify.simulator.gateway.TradeState;
import io.paynotify.testing.QueryChannels;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What {@code mvn quarkus:dev} + the simulator's {@code serve} do for the account-mode dev channels, without either
 * process: the service's own query code, configured with the dev profile's channels exactly as
 * {@code application.properties} has them (only {@code api-base-url} moved to a free port), asks the simulator's dev
 * gateway ({@link GatewayConfig#dev()}, what {@code serve} runs). WeChat partner queries (v2, v3) find their
 * sub-merchant's trade and another sub-merchant's is not found; the ISV confirms its tokens with
 * {@code alipay.open.auth.token.app.query} before querying with them; the certificate-mode app's SNs are accepted and
 * its answers verified, and after the gateway rotates to the re-issued certificate the service downloads it.
 */
@Tag("unit")
class AccountModesServeTest {

    static final String V2_SUB_A = "1900000201";
    static final String V2_SUB_B = "1900000202";
    static final String V3_SUB_A = "1900000203";
    static final String V3_SUB_B = "1900000204";
    static final String ISV_A = "2021000000000021";
    static final String ISV_B = "2021000000000022";

    static Gateway gateway;
    static Map<String, Channel> channels = new HashMap<>();

    final Clock clock = Clock.systemUTC();
    final QueryHttp http = new QueryHttp();

    @BeforeAll
    static void start() throws IOException {
        gateway = Gateway.start(GatewayConfig.dev().withPort(0));
        Properties all = new Properties();
        try (InputStream in =
                AccountModesServeTest.class.getClassLoader().getResourceAsStream("application.properties")) {
            all.load(in);
        }
        List<String> names = List.of("wx-sp-dev", "wx3-sp-dev", "ali-isv-dev", "ali-cert-dev");
        Map<String, String> props = new HashMap<>();
        for (String key : all.stringPropertyNames()) {
            for (String name : names) {
                if (key.startsWith("%dev.paynotify.channels." + name + ".")) {
                    String rest = key.substring(("%dev.paynotify.channels." + name + ".").length());
                    props.put("paynotify.channels.\"" + name + "\"." + rest, all.getProperty(key));
                }
            }
        }
        for (String name : names) {
            String base = gateway.baseUrl() + (name.startsWith("ali") ? "/gateway.do" : "");
            QueryChannels.put(props, name, "api-base-url", base);
        }
        var registry = QueryChannels.registry(props);
        for (String name : names) {
            channels.put(name, registry.channel(name).orElseThrow());
        }
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void reset() {
        gateway.reset();
    }

    @Test
    void wechatV2PartnerQueriesSeeOnlyTheirSubMerchantsTrade() {
        gateway.script("SERVE-SP2-1", ScriptedTrade.of(TradeState.PAID, 100), V2_SUB_A, null);
        WechatV2Query q = new WechatV2Query(clock, http);

        QueryAnswer mine = q.query(channels.get("wx-sp-dev"), new QueryTarget("SERVE-SP2-1", V2_SUB_A, null));
        QueryAnswer other = q.query(channels.get("wx-sp-dev"), new QueryTarget("SERVE-SP2-1", V2_SUB_B, null));

        assertEquals(QueryResult.PAID, mine.result(), () -> String.valueOf(mine.error()));
        assertEquals(QueryResult.NOT_FOUND, other.result(), () -> String.valueOf(other.error()));
        RecordedRequest sent = gateway.requests().get(0);
        assertTrue(sent.accepted(), sent::toString);
        assertEquals(V2_SUB_A, sent.params().get("sub_mch_id"));
    }

    @Test
    void wechatV3PartnerQueriesSeeOnlyTheirSubMerchantsTrade() {
        gateway.script("SERVE-SP3-1", ScriptedTrade.of(TradeState.PAID, 100), V3_SUB_A, null);
        WechatV3Query q = new WechatV3Query(clock, http);

        QueryAnswer mine = q.query(channels.get("wx3-sp-dev"), new QueryTarget("SERVE-SP3-1", V3_SUB_A, null));
        QueryAnswer other = q.query(channels.get("wx3-sp-dev"), new QueryTarget("SERVE-SP3-1", V3_SUB_B, null));

        assertEquals(QueryResult.PAID, mine.result(), () -> String.valueOf(mine.error()));
        assertEquals(QueryResult.NOT_FOUND, other.result(), () -> String.valueOf(other.error()));
    }

    @Test
    void theIsvConfirmsItsDevTokensAndQueriesEachMerchantWithItsOwn() {
        gateway.script("SERVE-ISV-1", ScriptedTrade.of(TradeState.PAID, 100), ISV_A, null);
        AlipayCertStore store = new AlipayCertStore();
        AlipayQuery q = new AlipayQuery(clock, http, store, new AlipayTokens(clock, http, store));

        QueryAnswer mine = q.query(channels.get("ali-isv-dev"), new QueryTarget("SERVE-ISV-1", ISV_A, null));
        QueryAnswer other = q.query(channels.get("ali-isv-dev"), new QueryTarget("SERVE-ISV-1", ISV_B, null));

        assertEquals(QueryResult.PAID, mine.result(), () -> String.valueOf(mine.error()));
        assertEquals(QueryResult.NOT_FOUND, other.result(), () -> String.valueOf(other.error()));
        long checks = gateway.requests().stream()
                .filter(r ->
                        "alipay.open.auth.token.app.query".equals(r.params().get("method")) && r.accepted())
                .count();
        assertEquals(2, checks, "each merchant's token confirmed once before its first use");
    }

    @Test
    void theCertificateModeAppIsAnsweredAndDownloadsTheReissuedCertificateAfterARotation() {
        gateway.script("SERVE-CERT-1", ScriptedTrade.of(TradeState.PAID, 100));
        AlipayQuery q = new AlipayQuery(clock, http);

        QueryAnswer before = q.query(channels.get("ali-cert-dev"), new QueryTarget("SERVE-CERT-1", null, null));
        assertEquals(QueryResult.PAID, before.result(), () -> String.valueOf(before.error()));

        gateway.rotateAlipayCertificate(true);
        QueryAnswer after = q.query(channels.get("ali-cert-dev"), new QueryTarget("SERVE-CERT-1", null, null));
        assertEquals(QueryResult.PAID, after.result(), () -> String.valueOf(after.error()));
        assertTrue(
                gateway.requests().stream()
                        .anyMatch(r -> "alipay.open.app.alipaycert.download"
                                        .equals(r.params().get("method"))
                                && r.accepted()),
                () -> "no download: " + gateway.requests());
        assertTrue(gateway.requests().stream().allMatch(RecordedRequest::accepted), () -> "" + gateway.requests());
    }
}
