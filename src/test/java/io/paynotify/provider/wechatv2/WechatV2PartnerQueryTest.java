package io.paynotify.provider.wechatv2;

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
import io.paynotify.provider.SafeXml;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.FakeGateway.Reply;
import io.paynotify.testing.QueryChannels;
import io.paynotify.testing.WechatV2Fixtures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The v2 order query of a service provider's channel (docs/api.md "Account modes"): {@code sub_mch_id} (and
 * {@code sub_appid} where the order has one) added to the signed request; the answer's {@code appid}/{@code mch_id}
 * are the provider's (step a), its {@code sub_mch_id} goes to the state machine for step b.
 */
@Tag("unit")
class WechatV2PartnerQueryTest {

    static final String SUB_A = "1900000901";
    static final String SUB_B = "1900000902";
    static final String KEY = QueryChannels.V2_KEY;

    static FakeGateway gateway;
    static Channel channel;
    static WechatV2Query query;

    @BeforeAll
    static void start() {
        gateway = new FakeGateway();
        Map<String, String> c = QueryChannels.v2(gateway.url() + "/wx/", "MD5,HMAC-SHA256");
        QueryChannels.put(c, QueryChannels.V2, "mode", "partner");
        channel = QueryChannels.channel(c, QueryChannels.V2);
        query = new WechatV2Query(
                Clock.fixed(Instant.parse("2026-03-01T02:03:04Z"), ZoneOffset.UTC),
                new QueryHttp(Duration.ofSeconds(1), 4096));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    static WechatV2Fixtures.Notice answer(String state, String subMchId) {
        var f = WechatV2QueryTest.found(state);
        if (subMchId != null) {
            f.put("sub_mch_id", subMchId);
        }
        return WechatV2Fixtures.notice(f);
    }

    static QueryAnswer ask(QueryTarget target, WechatV2Fixtures.Notice answer) {
        gateway.answer(r -> Reply.of(200, "text/xml", answer.signedWith(KEY, "HMAC-SHA256")));
        return query.query(channel, target);
    }

    @Test
    void theRequestNamesTheOrdersSubMerchantInsideTheSignature() throws Exception {
        ask(new QueryTarget(WechatV2QueryTest.NO, SUB_A, null), answer("NOTPAY", SUB_A));
        Map<String, String> f = SafeXml.readFlat(gateway.last().body(), "xml");
        assertEquals(
                List.of("appid", "mch_id", "sub_mch_id", "out_trade_no", "nonce_str", "sign_type", "sign"),
                List.copyOf(f.keySet()));
        assertEquals(QueryChannels.V2_APPID, f.get("appid"), "the provider's app id");
        assertEquals(QueryChannels.V2_MCH, f.get("mch_id"), "the provider's merchant id");
        assertEquals(SUB_A, f.get("sub_mch_id"));
        assertEquals(WechatV2Fixtures.sign(f, KEY, "HMAC-SHA256"), f.get("sign"));

        ask(new QueryTarget(WechatV2QueryTest.NO, SUB_A, "wxsubapp00000001"), answer("NOTPAY", SUB_A));
        f = SafeXml.readFlat(gateway.last().body(), "xml");
        assertEquals("wxsubapp00000001", f.get("sub_appid"));
        assertEquals(WechatV2Fixtures.sign(f, KEY, "HMAC-SHA256"), f.get("sign"));
    }

    @Test
    void aPaidAnswerNamesItsSubMerchantForStepB() {
        QueryAnswer a = ask(new QueryTarget(WechatV2QueryTest.NO, SUB_A, null), answer("SUCCESS", SUB_A));
        assertEquals(QueryResult.PAID, a.result());
        assertFalse(a.notification().accountMismatch(), "sub_mch_id is not an id of the channel");
        assertEquals(new SubMerchant(SUB_A, null), a.notification().subMerchant());

        QueryAnswer other = ask(new QueryTarget(WechatV2QueryTest.NO, SUB_A, null), answer("SUCCESS", SUB_B));
        assertEquals(new SubMerchant(SUB_B, null), other.notification().subMerchant());
        assertFalse(
                other.notification().subMerchant().matches(SUB_A, null), "another sub-merchant's: step b refuses it");

        QueryAnswer none = ask(new QueryTarget(WechatV2QueryTest.NO, SUB_A, null), answer("SUCCESS", null));
        assertFalse(none.notification().subMerchant().matches(SUB_A, null), "an answer naming none matches no order");
    }

    @Test
    void theProvidersIdsOfTheAnswerAreStepA() {
        var target = new QueryTarget(WechatV2QueryTest.NO, SUB_A, null);
        assertTrue(ask(target, answer("SUCCESS", SUB_A).with("mch_id", SUB_A))
                .notification()
                .accountMismatch());
        assertTrue(ask(target, answer("CLOSED", SUB_A).with("appid", "wxffffffffffffffff"))
                .notification()
                .accountMismatch());
        assertFalse(ask(target, answer("CLOSED", SUB_A).with("appid", QueryChannels.V2_APPID_2))
                .notification()
                .accountMismatch());
    }

    @Test
    void anOrderWithoutASubMerchantIsNotAsked() {
        ask(new QueryTarget(WechatV2QueryTest.NO, SUB_A, null), answer("NOTPAY", SUB_A));
        FakeGateway.Request before = gateway.last();
        assertError(QueryError.MALFORMED, query.query(channel, WechatV2QueryTest.NO));
        assertSame(before, gateway.last(), "nothing was sent");
    }
}
