package io.paynotify.core.notify;

/**
 * The merchant a notification of a service-provider or ISV channel says it is for (docs/api.md "Account modes"):
 * WeChat's sub-merchant ({@code sub_mch_id} / {@code sub_mchid}, with {@code sub_appid} where sent), or the merchant
 * that authorised an Alipay ISV application ({@code auth_app_id}). One provider key verifies the notices of every
 * such merchant, so a valid signature does not say whose order a notice may touch: this does, checked against the
 * order once it is found (step b of {@code ACCOUNT_MISMATCH}).
 *
 * @param id the sub-merchant's id, or null when the notice names none (an Alipay ISV notice without
 *     {@code auth_app_id}: a mismatch with every order)
 * @param appId the sub-merchant's app id the notice names ({@code sub_appid}), or null
 */
public record SubMerchant(String id, String appId) {

    /**
     * True when this is the order's merchant: the same id, and, where both the notice and the order name an app id,
     * the same app id.
     *
     * @param orderSubMerchantId the order's {@code subMerchantId} (null on a direct channel)
     * @param orderSubAppId the order's {@code subAppId}, or null
     */
    public boolean matches(String orderSubMerchantId, String orderSubAppId) {
        if (id == null || !id.equals(orderSubMerchantId)) {
            return false;
        }
        return appId == null || orderSubAppId == null || appId.equals(orderSubAppId);
    }
}
