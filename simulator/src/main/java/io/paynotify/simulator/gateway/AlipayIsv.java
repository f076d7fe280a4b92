package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Alipay's ISV side (第三方应用, PROTOCOLS §11.4): the {@code app_auth_token} common parameter selects the authorising
 * merchant ({@code auth_app_id}) of a call, and {@code alipay.open.auth.token.app.query} ({@code biz_content
 * {"app_auth_token":"…"}}) tells an ISV what a token is: {@code status} {@code valid}, {@code auth_app_id},
 * {@code user_id}, {@code expires_in}, {@code auth_methods}, {@code auth_start}, {@code auth_end}.
 */
final class AlipayIsv {

    static final String TOKEN_QUERY_METHOD = "alipay.open.auth.token.app.query";

    /** One year, as {@code alipay.open.auth.token.app} grants a token (fzlee/alipay#38). */
    static final long EXPIRES_IN = 31_536_000;

    private final AccountModes modes;
    private final ObjectMapper json;

    AlipayIsv(AccountModes modes, ObjectMapper json) {
        this.modes = modes;
        this.json = json;
    }

    /** Alipay's answer to a call whose {@code app_auth_token} no merchant granted the app. */
    static Map<String, Object> invalidToken() {
        return AlipayCerts.error("20001", "Insufficient Token Permissions", "aop.invalid-app-auth-token", "无效的应用授权令牌");
    }

    /** The merchant that granted {@code token} to {@code appId}. */
    Optional<String> merchantOf(String appId, String token) {
        return modes.authAppIdOf(appId, token);
    }

    /** {@code alipay.open.auth.token.app.query}'s response object. */
    Map<String, Object> tokenQuery(String appId, String bizContent) {
        String token = null;
        try {
            JsonNode node = json.readTree(bizContent == null ? "" : bizContent);
            token = node == null ? null : node.path("app_auth_token").asText(null);
        } catch (IOException e) {
            token = null;
        }
        if (token == null || token.isBlank()) {
            return AlipayCerts.error("40004", "Business Failed", "isv.invalid-parameter", "参数无效：app_auth_token");
        }
        Optional<String> authAppId = merchantOf(appId, token);
        if (authAppId.isEmpty()) {
            return AlipayCerts.error("40004", "Business Failed", "isv.invalid-app-auth-token", "无效的应用授权令牌");
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("code", "10000");
        r.put("msg", "Success");
        r.put("user_id", sellerId(authAppId.get()));
        r.put("auth_app_id", authAppId.get());
        r.put("expires_in", EXPIRES_IN);
        r.put("auth_methods", List.of("alipay.trade.query", "alipay.trade.refund", "alipay.data.dataservice.bill.downloadurl.query"));
        r.put("auth_start", "2026-01-01 00:00:00");
        r.put("auth_end", "2027-01-01 00:00:00");
        r.put("status", "valid");
        return r;
    }

    /** The merchant's PID ({@code 2088…}) the trigger side names as {@code seller_id} for that auth_app_id. */
    static String sellerId(String authAppId) {
        return "2088" + authAppId.substring(Math.min(4, authAppId.length()));
    }
}
