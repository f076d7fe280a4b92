package io.paynotify.testing;

import io.paynotify.simulator.sign.AlipaySigner;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds signed Alipay notification bodies the way Alipay's servers would: the parameters are this class's, the sign
 * content, signature and form encoding the simulator's {@link AlipaySigner} (proved against alipay-sdk-java in the
 * simulator's tests, and independent of the service's verifier).
 */
public final class AlipayFixtures {

    private AlipayFixtures() {}

    /** A TRADE_SUCCESS notice on {@link TestChannels#ALI}, in UTF-8. */
    public static Map<String, String> paid(String outTradeNo, String tradeNo, String totalAmount) {
        var p = new LinkedHashMap<String, String>();
        p.put("gmt_create", "2026-01-02 11:00:00");
        p.put("charset", "utf-8");
        p.put("gmt_payment", "2026-01-02 11:04:05");
        p.put("notify_time", "2026-01-02 11:04:06");
        p.put("subject", "测试商品 test+item & more=1 %");
        p.put("buyer_id", "2088102116773037");
        p.put("invoice_amount", totalAmount);
        p.put("version", "1.0");
        p.put("notify_id", "2026010200222110405001301463" + Math.abs(outTradeNo.hashCode()));
        p.put("fund_bill_list", "[{\"amount\":\"" + totalAmount + "\",\"fundChannel\":\"ALIPAYACCOUNT\"}]");
        p.put("notify_type", "trade_status_sync");
        p.put("out_trade_no", outTradeNo);
        p.put("total_amount", totalAmount);
        p.put("trade_status", "TRADE_SUCCESS");
        p.put("trade_no", tradeNo);
        p.put("auth_app_id", TestChannels.ALI_APPID);
        p.put("receipt_amount", totalAmount);
        p.put("point_amount", "0.00");
        p.put("app_id", TestChannels.ALI_APPID);
        p.put("buyer_pay_amount", totalAmount);
        p.put("seller_id", "2088102119685838");
        return p;
    }

    /** Adds sign_type and sign (over the V1 content in the params' charset) with the named test key. */
    public static Map<String, String> signed(Map<String, String> params, String keyName, String signType) {
        return AlipaySigner.signed(params, TestKeys.pair(keyName).getPrivate(), signType);
    }

    /** Base64 of the RSA2 (SHA256withRSA) or RSA (SHA1withRSA) signature of the content in that charset. */
    public static String sign(String content, Charset charset, PrivateKey key, String signType) {
        return AlipaySigner.sign(content, charset, key, signType);
    }

    /** The charset the params' {@code charset} names: UTF-8 for {@code utf-8}, else (also when absent) GBK. */
    public static Charset charsetOf(Map<String, String> p) {
        return AlipaySigner.charsetOf(p);
    }

    /** The form body, percent-encoded in the params' own charset ({@code +} for space). */
    public static byte[] body(Map<String, String> params) {
        return AlipaySigner.formBody(params);
    }

    /** {@link #paid} with another trade_status (TRADE_CLOSED, WAIT_BUYER_PAY, TRADE_FINISHED, ...). */
    public static Map<String, String> notice(String outTradeNo, String tradeNo, String totalAmount, String status) {
        var p = paid(outTradeNo, tradeNo, totalAmount);
        p.put("trade_status", status);
        return p;
    }

    /** Moves a notice to {@link TestChannels#ALI_RSA}: its app id, and the seller id that channel requires. */
    public static Map<String, String> onRsaChannel(Map<String, String> params) {
        var p = new LinkedHashMap<>(params);
        p.put("app_id", TestChannels.ALI_RSA_APPID);
        p.put("auth_app_id", TestChannels.ALI_RSA_APPID);
        p.put("seller_id", TestChannels.ALI_RSA_SELLER);
        return p;
    }

    /** The body of params signed RSA2 with {@link TestKeys#ALIPAY}. */
    public static byte[] signedBody(Map<String, String> params) {
        return body(signed(params, TestKeys.ALIPAY, "RSA2"));
    }

    /** The order number of {@link #aNotice()} unless the test names another. */
    public static final String ORDER_NO = "ORDER-0001";

    /** The trade number of {@link #aNotice()} unless the test names another. */
    public static final String TRADE_NO = "2026010222001400000000000001";

    /**
     * A notice to build in the words of the test: a TRADE_SUCCESS of 1.00 for {@link #ORDER_NO} on
     * {@link TestChannels#ALI}, in UTF-8, signed RSA2 with {@link TestKeys#ALIPAY} (the parameters of {@link #paid});
     * a test names only what it changes.
     *
     * <pre>{@code
     * byte[] body = aNotice().status("TRADE_CLOSED").set("refund_fee", "1.00").signedWith(TestKeys.ALIPAY_NEXT, "RSA2").body();
     * byte[] forged = aNotice().afterSigning("total_amount", "0.01").body();
     * }</pre>
     */
    public static Notice aNotice() {
        return new Notice();
    }

    /** The builder of {@link #aNotice()}; each call returns the same builder. */
    public static final class Notice {
        private String orderNo = ORDER_NO;
        private String tradeNo = TRADE_NO;
        private String amount = "1.00";
        private String status = "TRADE_SUCCESS";
        private boolean rsaChannel;
        private String keyName = TestKeys.ALIPAY;
        private String signType = "RSA2";
        /** Changes before signing, in order; a null value removes the parameter. */
        private final Map<String, String> changes = new LinkedHashMap<>();
        /** Changes after signing (sign and sign_type included), in order; a null value removes the parameter. */
        private final Map<String, String> afterSigning = new LinkedHashMap<>();

        private Notice() {}

        /** out_trade_no (and the notify_id derived from it). */
        public Notice orderNo(String value) {
            this.orderNo = value;
            return this;
        }

        /** trade_no. */
        public Notice tradeNo(String value) {
            this.tradeNo = value;
            return this;
        }

        /** total_amount, and the other amounts of the fixture with it. */
        public Notice amount(String value) {
            this.amount = value;
            return this;
        }

        /** trade_status. */
        public Notice status(String value) {
            this.status = value;
            return this;
        }

        /** The charset field; null leaves it out (Alipay then means GBK). The body is encoded in it. */
        public Notice charset(String value) {
            return set("charset", value);
        }

        /** Sets one signed parameter; null leaves it out. */
        public Notice set(String name, String value) {
            changes.remove(name);
            changes.put(name, value);
            return this;
        }

        /** Leaves one signed parameter out. */
        public Notice without(String name) {
            return set(name, null);
        }

        /** For {@link TestChannels#ALI_RSA}: its app id, auth_app_id and the seller id that channel requires. */
        public Notice onRsaChannel() {
            this.rsaChannel = true;
            return this;
        }

        /** Signs with another test key or sign_type ({@code RSA2} or {@code RSA}). */
        public Notice signedWith(String keyName, String signType) {
            this.keyName = keyName;
            this.signType = signType;
            return this;
        }

        /** Changes a parameter once signed, so the signature does not cover the change; null removes it. */
        public Notice afterSigning(String name, String value) {
            afterSigning.remove(name);
            afterSigning.put(name, value);
            return this;
        }

        /** The parameters before signing. */
        public Map<String, String> params() {
            Map<String, String> p = notice(orderNo, tradeNo, amount, status);
            if (rsaChannel) {
                p = AlipayFixtures.onRsaChannel(p);
            }
            return apply(p, changes);
        }

        /** The parameters with sign_type and sign, and the {@link #afterSigning} changes. */
        public Map<String, String> signedParams() {
            return apply(signed(params(), keyName, signType), afterSigning);
        }

        /** The form body, percent-encoded in its own charset. */
        public byte[] body() {
            return AlipayFixtures.body(signedParams());
        }

        /** The form body as text (it is ASCII), for tests that edit it by hand. */
        public String bodyText() {
            return new String(body(), StandardCharsets.US_ASCII);
        }

        private static Map<String, String> apply(Map<String, String> params, Map<String, String> changes) {
            var p = new LinkedHashMap<>(params);
            changes.forEach((k, v) -> {
                if (v == null) {
                    p.remove(k);
                } else {
                    p.put(k, v);
                }
            });
            return p;
        }
    }
}
