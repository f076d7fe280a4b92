package io.paynotify.core.query;

import java.util.Objects;

/**
 * The order an active query asks about (docs/api.md "Active query"): its number and, on a service-provider or ISV
 * channel, the sub-merchant the query must name (WeChat {@code sub_mch_id}/{@code sub_mchid} and
 * {@code sub_appid}; Alipay ISV, the merchant whose {@code app_auth_token} the query carries).
 *
 * @param outTradeNo the merchant's order number
 * @param subMerchantId the order's sub-merchant, or null on a direct channel
 * @param subAppId the order's sub-app id, or null
 */
public record QueryTarget(String outTradeNo, String subMerchantId, String subAppId) {

    public QueryTarget {
        Objects.requireNonNull(outTradeNo, "outTradeNo");
    }

    /** An order of a direct channel. */
    public static QueryTarget direct(String outTradeNo) {
        return new QueryTarget(outTradeNo, null, null);
    }
}
