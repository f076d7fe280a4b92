package io.paynotify.simulator.gateway;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which sub-merchant a trade belongs to, for the partner and ISV queries (CONTRACT §10): a trade is one
 * sub-merchant's, and asking for it under another is the provider's "not found". The owner is scripted
 * ({@code subMerchant} in {@code PUT /_sim/trades/{no}}, {@link Gateway#script(String, ScriptedTrade, String,
 * String)}) or, since the scripts are provider-neutral, learned: the first partner/ISV query of a scripted trade through
 * an API binds it, for that API, to the sub-merchant that asked. Thread-safe.
 */
final class TradeOwners {

    /**
     * @param subMerchant WeChat {@code sub_mch_id}/{@code sub_mchid} or Alipay {@code auth_app_id}; null = the
     *     provider account itself (a partner or ISV query that named no sub-merchant)
     * @param subAppId WeChat {@code sub_appid}, or null
     */
    record Owner(String subMerchant, String subAppId) {}

    private final Map<String, Owner> scripted = new ConcurrentHashMap<>();
    private final Map<String, Owner> learned = new ConcurrentHashMap<>();

    void script(String outTradeNo, String subMerchant, String subAppId) {
        Objects.requireNonNull(outTradeNo, "outTradeNo");
        if (subMerchant == null) {
            scripted.remove(outTradeNo);
        } else {
            scripted.put(outTradeNo, new Owner(subMerchant, subAppId));
        }
    }

    /** The scripted owner, or null. */
    Owner scripted(String outTradeNo) {
        return outTradeNo == null ? null : scripted.get(outTradeNo);
    }

    /**
     * The trade's owner as {@code api} sees it: the scripted one, else the one learned earlier, else (when
     * {@code known}, i.e. the trade is scripted) {@code asking}, which is remembered.
     */
    Owner claim(Api api, String outTradeNo, Owner asking, boolean known) {
        Owner owner = scripted.get(outTradeNo);
        if (owner != null) {
            return owner;
        }
        if (!known) {
            return asking;
        }
        return learned.computeIfAbsent(api + " " + outTradeNo, k -> asking);
    }

    /** True when a query under {@code asking} may see a trade of {@code owner}: the same sub-merchant. */
    static boolean sameMerchant(Owner owner, Owner asking) {
        return Objects.equals(owner.subMerchant(), asking.subMerchant());
    }

    void reset() {
        scripted.clear();
        learned.clear();
    }
}
