package io.paynotify.simulator.gateway;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway's accounts beyond direct merchants (CONTRACT §10, PROTOCOLS §11–§12): WeChat service providers with
 * their sub-merchants, Alipay ISV applications with the app_auth_tokens their merchants granted, and Alipay apps in
 * public-key-certificate mode. Immutable.
 */
record AccountModes(
        Map<String, List<String>> v2SubMerchants,
        Map<String, List<String>> v3SubMerchants,
        Map<String, Map<String, String>> isvTokens,
        Map<String, AlipayCertMode> certModes) {

    AccountModes {
        v2SubMerchants = Map.copyOf(v2SubMerchants);
        v3SubMerchants = Map.copyOf(v3SubMerchants);
        isvTokens = Map.copyOf(isvTokens);
        certModes = Map.copyOf(certModes);
    }

    /** The sub_mch_ids of a v2 service provider; empty for a direct merchant. */
    List<String> v2SubMerchantsOf(String mchId) {
        return v2SubMerchants.getOrDefault(mchId, List.of());
    }

    /** The sub_mchids of a v3 service provider; empty for a direct merchant. */
    List<String> v3SubMerchantsOf(String spMchId) {
        return v3SubMerchants.getOrDefault(spMchId, List.of());
    }

    boolean isv(String appId) {
        return isvTokens.containsKey(appId);
    }

    /** The {@code auth_app_id} whose merchant granted {@code token} to the ISV app {@code appId}. */
    Optional<String> authAppIdOf(String appId, String token) {
        return isvTokens.getOrDefault(appId, Map.of()).entrySet().stream()
                .filter(e -> e.getValue().equals(token))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    Optional<AlipayCertMode> certMode(String appId) {
        return Optional.ofNullable(certModes.get(appId));
    }
}
