package io.paynotify.testing;

import io.paynotify.simulator.sign.AlipaySigner;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An Alipay ISV's gateway for the Quarkus tests of {@link SimulatorProfile} (docs/api.md "Account modes"): a
 * {@link FakeGateway} on 127.0.0.1 that answers {@code alipay.open.auth.token.app.query} for four merchants — one
 * whose token is valid, one whose token is another merchant's, one whose token is invalid, one whose answer is
 * signed with a key that is not Alipay's — and {@code alipay.trade.query} with a paid trade for the order asked
 * about, every answer signed RSA2 over the response object's text. Every request is recorded with its parameters.
 */
public final class IsvGateway {

    public static final String CHANNEL = "ali-isv-q";
    public static final String APP_ID = "2021000000000510";

    public static final String GOOD = "2021000000000511";
    public static final String MISFILED = "2021000000000512";
    public static final String INVALID = "2021000000000513";
    public static final String UNVERIFIABLE = "2021000000000514";

    /** Key names in {@link TestKeys}: Alipay's answers and the ISV app's requests. */
    public static final String ALIPAY_KEY = "q-ali-isv-platform";

    public static final String APP_KEY = "q-ali-isv-app";

    public static final Map<String, String> TOKENS = Map.of(
            GOOD, "202603BBq0good00000000000000000511",
            MISFILED, "202603BBq0misfiled0000000000000512",
            INVALID, "202603BBq0invalid00000000000000513",
            UNVERIFIABLE, "202603BBq0unverifiable00000000514");

    static final String TOKEN_METHOD = "alipay.open.auth.token.app.query";
    static final String TRADE_METHOD = "alipay.trade.query";

    private static final ConcurrentLinkedQueue<Map<String, String>> SENT = new ConcurrentLinkedQueue<>();

    private IsvGateway() {}

    /** Every request received so far, its form parameters in order. */
    public static List<Map<String, String>> sent() {
        return List.copyOf(SENT);
    }

    /** The requests of that method. */
    public static List<Map<String, String>> sent(String method) {
        return SENT.stream().filter(p -> method.equals(p.get("method"))).toList();
    }

    public static List<Map<String, String>> tokenChecks() {
        return sent(TOKEN_METHOD);
    }

    public static List<Map<String, String>> tradeQueries() {
        return sent(TRADE_METHOD);
    }

    /** Starts the gateway; the caller closes it. */
    static FakeGateway start() {
        FakeGateway g = new FakeGateway();
        g.answer(r -> {
            Map<String, String> p = form(r.bodyText());
            SENT.add(p);
            String biz = p.getOrDefault("biz_content", "");
            if (TOKEN_METHOD.equals(p.get("method"))) {
                String token = biz.replaceAll(".*\"app_auth_token\":\"([^\"]*)\".*", "$1");
                return reply(TOKEN_METHOD, tokenAnswer(token), token.equals(TOKENS.get(UNVERIFIABLE)));
            }
            String no = biz.replaceAll(".*\"out_trade_no\":\"([^\"]*)\".*", "$1");
            String trade = "{\"code\":\"10000\",\"msg\":\"Success\",\"out_trade_no\":\"" + no + "\","
                    + "\"total_amount\":\"8.00\",\"trade_no\":\"2026030122001400000000000"
                    + Math.abs(no.hashCode() % 1000)
                    + "\",\"trade_status\":\"TRADE_SUCCESS\",\"send_pay_date\":\"2026-03-01 10:02:03\"}";
            return reply(TRADE_METHOD, trade, false);
        });
        return g;
    }

    private static String tokenAnswer(String token) {
        String authAppId;
        String status = "valid";
        if (token.equals(TOKENS.get(GOOD)) || token.equals(TOKENS.get(MISFILED))) {
            // the misfiled token is GOOD's: configured under MISFILED, Alipay names GOOD
            authAppId = GOOD;
        } else if (token.equals(TOKENS.get(INVALID))) {
            authAppId = INVALID;
            status = "invalid";
        } else if (token.equals(TOKENS.get(UNVERIFIABLE))) {
            authAppId = UNVERIFIABLE;
        } else {
            return "{\"code\":\"20001\",\"msg\":\"Insufficient Token Permissions\","
                    + "\"sub_code\":\"aop.invalid-app-auth-token\",\"sub_msg\":\"无效的应用授权令牌\"}";
        }
        return "{\"code\":\"10000\",\"msg\":\"Success\",\"user_id\":\"2088102150527498\",\"auth_app_id\":\""
                + authAppId + "\",\"expires_in\":31536000,\"auth_methods\":[\"alipay.trade.query\"],"
                + "\"auth_start\":\"2026-01-01 10:00:00\",\"auth_end\":\"2027-01-01 10:00:00\",\"status\":\"" + status
                + "\"}";
    }

    private static FakeGateway.Reply reply(String method, String response, boolean foreignKey) {
        String key = foreignKey ? TestKeys.STRANGER : ALIPAY_KEY;
        String body = "{\"" + method.replace('.', '_') + "_response\":" + response + ",\"sign\":\""
                + AlipaySigner.signAnswer(response, TestKeys.pair(key).getPrivate()) + "\"}";
        return FakeGateway.Reply.of(200, "text/html;charset=utf-8", body);
    }

    private static Map<String, String> form(String body) {
        var params = new LinkedHashMap<String, String>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }
}
