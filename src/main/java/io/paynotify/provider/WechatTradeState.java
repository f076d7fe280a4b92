package io.paynotify.provider;

import io.paynotify.core.query.QueryResult;
import java.util.Set;

/**
 * WeChat Pay's {@code trade_state}, the same vocabulary in the API v2 and v3 order queries (WxJava's
 * {@code WxPayConstants.TradeState}, wechatpay-java's {@code Transaction.TradeStateEnum}), read by the query table of docs/api.md "Active query",
 * table. Shared by {@code provider.wechatv2} and {@code provider.wechatv3}, which may not import each other.
 */
public final class WechatTradeState {

    /** Paid; REFUND is paid, then refunded (a query answer proves the payment happened). */
    static final Set<String> PAID = Set.of("SUCCESS", "REFUND");

    /** Closed unpaid, or a payment-code payment revoked. */
    static final Set<String> CLOSE = Set.of("CLOSED", "REVOKED");

    /** Not paid yet, paying, accepted or failed, and still payable. */
    static final Set<String> NOT_FINAL = Set.of("NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR");

    private WechatTradeState() {}

    /**
     * The class of a verified answer with that state.
     *
     * @param paymentIds whether the answer has a well-formed transaction id and amount
     * @return PAID, CLOSE, NOT_FINAL or UNKNOWN; ERROR for a SUCCESS answer without its payment ids, which is
     *     malformed (a REFUND answer without them is UNKNOWN: WeChat may then send only {@code out_trade_no})
     */
    public static QueryResult classify(String state, boolean paymentIds) {
        if (NOT_FINAL.contains(state)) {
            return QueryResult.NOT_FINAL;
        }
        if (PAID.contains(state)) {
            return paymentIds ? QueryResult.PAID : "SUCCESS".equals(state) ? QueryResult.ERROR : QueryResult.UNKNOWN;
        }
        return CLOSE.contains(state) ? QueryResult.CLOSE : QueryResult.UNKNOWN;
    }
}
