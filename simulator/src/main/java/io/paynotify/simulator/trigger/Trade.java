package io.paynotify.simulator.trigger;

import java.security.SecureRandom;

/**
 * The trade a notice reports: the merchant's order number and amount, and the ids the provider gave the payment and
 * its refund. Amounts are in fen.
 *
 * @param outTradeNo the merchant's order number
 * @param amountFen the order total
 * @param transactionId WeChat {@code transaction_id} or Alipay {@code trade_no}
 * @param refundFen the amount refunded by the refund notice (the whole amount for a full refund)
 * @param outRefundNo the merchant's refund number (Alipay {@code out_biz_no})
 * @param refundId WeChat {@code refund_id} (Alipay has none)
 * @param subMerchant on a partner or ISV channel, the sub-merchant whose trade it is (WeChat {@code sub_mch_id} /
 *     {@code sub_mchid}, Alipay {@code auth_app_id}); null on a direct channel
 * @param subAppId WeChat partner {@code sub_appid}, or null
 */
public record Trade(
        String outTradeNo,
        long amountFen,
        String transactionId,
        long refundFen,
        String outRefundNo,
        String refundId,
        String subMerchant,
        String subAppId) {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A trade as the provider would number it: fresh transaction and refund ids, a full refund. */
    public static Trade fresh(Provider provider, String outTradeNo, long amountFen) {
        String transactionId = provider == Provider.ALIPAY
                ? "2026" + digits(24) // Alipay trade_no: 28 digits, date first
                : "4200" + digits(24); // WeChat transaction_id: 28 digits
        return new Trade(
                outTradeNo, amountFen, transactionId, amountFen, "SIMR" + digits(16), "5030" + digits(25), null, null);
    }

    public Trade withTransactionId(String id) {
        return new Trade(outTradeNo, amountFen, id, refundFen, outRefundNo, refundId, subMerchant, subAppId);
    }

    public Trade withRefund(long fen) {
        return new Trade(outTradeNo, amountFen, transactionId, fen, outRefundNo, refundId, subMerchant, subAppId);
    }

    /** The same trade of another sub-merchant (and sub-app id). */
    public Trade withSubMerchant(String subMerchant, String subAppId) {
        return new Trade(outTradeNo, amountFen, transactionId, refundFen, outRefundNo, refundId, subMerchant, subAppId);
    }

    /**
     * The trade as another sub-merchant of the same provider account paid it: same order number and amount, that
     * sub-merchant's own transaction and refund ids (a genuine notice of another tenant, CONTRACT §10).
     */
    public Trade ofAnotherSubMerchant(Provider provider, String other) {
        Trade theirs = fresh(provider, outTradeNo, amountFen).withRefund(refundFen);
        return theirs.withSubMerchant(other, null);
    }

    /** {@code n} random decimal digits. */
    public static String digits(int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('0' + RANDOM.nextInt(10)));
        }
        return sb.toString();
    }

    /** {@code n} random characters of [0-9a-zA-Z], as the providers' nonces are. */
    public static String nonce(int n) {
        String alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** A new order number, at most 32 characters: {@code prefix} + time in base 36 + 4 random characters. */
    public static String newOrderNumber(String prefix) {
        return prefix + Long.toString(System.currentTimeMillis(), 36).toUpperCase() + nonce(4).toUpperCase();
    }
}
