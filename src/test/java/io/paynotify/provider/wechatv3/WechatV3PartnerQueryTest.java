package io.paynotify.provider.wechatv3;

import static io.paynotify.testing.QueryAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.SubMerchant;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;
import io.paynotify.provider.QueryHttp;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.WechatV3Fixtures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The v3 order query of a service provider's channel (docs/api.md "Account modes"): {@code GET
 * /v3/pay/partner/transactions/out-trade-no/{no}?sp_mchid=…&sub_mchid=…}, signed by the provider's merchant key; the
 * answer is the partner transaction, its {@code sp_mchid}/{@code sp_appid} checked against the channel (step a), its
 * {@code sub_mchid}/{@code sub_appid} handed to the state machine (step b).
 */
@Tag("unit")
class WechatV3PartnerQueryTest {

    static final String SUB_A = "1900000901";
    static final String SUB_B = "1900000902";
    static final String NO = WechatV3QueryTest.NO;

    static FakeGateway gateway;
    static Channel channel;
    static WechatV3Query query;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        Map<String, String> c = QueryChannels.v3(gateway.url() + "/api/");
        QueryChannels.put(c, QueryChannels.V3, "mode", "partner");
        channel = QueryChannels.channel(c, QueryChannels.V3);
        query = new WechatV3Query(
                Clock.fixed(Instant.ofEpochSecond(WechatV3QueryTest.NOW), ZoneOffset.UTC),
                new QueryHttp(Duration.ofSeconds(1), 8192));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** The partner transaction WeChat answers for this order in that state. */
    static Map<String, Object> transaction(String state, String subMchId) {
        Map<String, Object> t = WechatV3Fixtures.partnerTransaction(NO, WechatV3QueryTest.TXN, 1250, subMchId);
        t.put("sp_appid", QueryChannels.V3_APPID);
        t.put("sp_mchid", QueryChannels.V3_MCH);
        if (subMchId == null) {
            t.remove("sub_mchid");
        }
        t.put("trade_state", state);
        return t;
    }

    static QueryAnswer ask(QueryTarget target, Map<String, Object> transaction) {
        Reply reply = WechatV3QueryTest.signed(transaction);
        gateway.answer(r -> reply);
        return query.query(channel, target);
    }

    @Test
    void thePartnerFormIsAskedAndSignedByTheProvider() throws Exception {
        ask(new QueryTarget("Q3|SP*1", SUB_A, null), transaction("NOTPAY", SUB_A));
        FakeGateway.Request r = gateway.last();
        assertEquals("GET", r.method());
        assertEquals(
                "/api/v3/pay/partner/transactions/out-trade-no/Q3%7CSP*1?sp_mchid=" + QueryChannels.V3_MCH
                        + "&sub_mchid=" + SUB_A,
                r.target());
        // the provider's merchant id and key sign the request, over the target exactly as sent
        WechatV3QueryTest.assertSignedRequest(r);
    }

    @Test
    void aPaidAnswerNamesItsSubMerchantForStepB() {
        QueryAnswer a = ask(new QueryTarget(NO, SUB_A, null), transaction("SUCCESS", SUB_A));
        assertEquals(QueryResult.PAID, a.result());
        assertFalse(a.notification().accountMismatch());
        assertEquals(new SubMerchant(SUB_A, null), a.notification().subMerchant());

        Map<String, Object> withSubApp = transaction("SUCCESS", SUB_A);
        withSubApp.put("sub_appid", "wxsubapp00000001");
        assertEquals(
                new SubMerchant(SUB_A, "wxsubapp00000001"),
                ask(new QueryTarget(NO, SUB_A, null), withSubApp).notification().subMerchant());

        QueryAnswer other = ask(new QueryTarget(NO, SUB_A, null), transaction("SUCCESS", SUB_B));
        assertFalse(other.notification().subMerchant().matches(SUB_A, null), "another sub-merchant's: step b");
        QueryAnswer none = ask(new QueryTarget(NO, SUB_A, null), transaction("CLOSED", null));
        assertEquals(QueryResult.CLOSE, none.result());
        assertFalse(none.notification().subMerchant().matches(SUB_A, null), "an answer naming none matches no order");
    }

    @Test
    void theProvidersIdsOfTheAnswerAreStepA() {
        var target = new QueryTarget(NO, SUB_A, null);
        Map<String, Object> t = transaction("SUCCESS", SUB_A);
        t.put("sp_mchid", SUB_A);
        assertTrue(ask(target, t).notification().accountMismatch());
        t = transaction("SUCCESS", SUB_A);
        t.remove("sp_mchid");
        assertTrue(ask(target, t).notification().accountMismatch(), "an answer without sp_mchid");
        t = transaction("SUCCESS", SUB_A);
        t.put("sp_appid", "wxother000000001");
        assertTrue(ask(target, t).notification().accountMismatch());
        t = transaction("SUCCESS", SUB_A);
        t.remove("sp_appid");
        assertFalse(ask(target, t).notification().accountMismatch(), "the answer's app id is optional");
        t = transaction("SUCCESS", SUB_A);
        t.put("mchid", QueryChannels.V3_MCH);
        assertTrue(ask(target, t).notification().accountMismatch(), "a direct id in a partner answer");
    }

    @Test
    void anOrderWithoutASubMerchantIsNotAsked() {
        ask(new QueryTarget(NO, SUB_A, null), transaction("NOTPAY", SUB_A));
        FakeGateway.Request before = gateway.last();
        assertError(QueryError.MALFORMED, query.query(channel, NO));
        assertSame(before, gateway.last(), "nothing was sent");
    }
}
