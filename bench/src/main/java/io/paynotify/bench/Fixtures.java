package io.paynotify.bench;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import io.paynotify.provider.alipay.AlipayKeys;
import io.paynotify.provider.wechatv2.WechatV2Keys;
import io.paynotify.provider.wechatv3.WechatV3Keys;
import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.simulator.sign.WechatV2Signer;
import io.paynotify.simulator.sign.WechatV3Signer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds correctly signed notifications the way the providers' servers do, for the benchmarks and the load driver.
 * The signing is the simulator's ({@link WechatV2Signer}, {@link WechatV3Signer}, {@link AlipaySigner}), written
 * independently of paynotify's verifiers and proved against the official SDKs in the simulator's tests, so a
 * benchmark never measures a verifier against its own mirror image; every fixture is also checked by the official
 * SDKs before a measurement starts ({@link VerifyBenchmark}'s set-ups).
 */
public final class Fixtures {

    public static final String WX_CHANNEL = "wx-bench";
    public static final String WX_APPID = "wxbench000000001";
    public static final String WX_MCH = "1900009999";
    public static final String WX_KEY = "benchbenchbenchbenchbenchbench32";

    public static final String ALI_CHANNEL = "ali-bench";
    public static final String ALI_APPID = "2021000000009999";

    public static final String WX3_CHANNEL = "wx3-bench";
    public static final String WX3_APPID = "wxv3bench0000001";
    public static final String WX3_MCH = "1900008888";
    public static final String WX3_API_V3_KEY = "benchV3benchV3benchV3benchV3ab32";
    public static final String WX3_SERIAL = "PUB_KEY_ID_0000000000000024101100397200009999";

    private Fixtures() {}

    public static KeyPair rsaPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ channels (as ChannelRegistry builds them)

    public static Channel wechatV2Channel() {
        return new Channel(WX_CHANNEL, Provider.WECHATPAY_V2, new WechatV2Keys.Parser().maxOutTradeNo(),
                new WechatV2Keys(Set.of(WX_APPID), WX_MCH, List.of(WX_KEY.getBytes(StandardCharsets.UTF_8)),
                        Set.of("MD5", "HMAC-SHA256"), false, null));
    }

    public static Channel alipayChannel(PublicKey alipayPublic) {
        return new Channel(ALI_CHANNEL, Provider.ALIPAY, new AlipayKeys.Parser().maxOutTradeNo(),
                new AlipayKeys(ALI_APPID, List.of(alipayPublic), Set.of("RSA2"), null, false, null, null));
    }

    public static Channel wechatV3Channel(PublicKey platformPublic) {
        return new Channel(WX3_CHANNEL, Provider.WECHATPAY_V3, new WechatV3Keys.Parser().maxOutTradeNo(),
                new WechatV3Keys(Set.of(WX3_APPID), WX3_MCH, WX3_API_V3_KEY.getBytes(StandardCharsets.UTF_8),
                        Map.of(WX3_SERIAL, platformPublic), false, null, null, null, null));
    }

    // ------------------------------------------------------------------ WeChat Pay v2

    /** A signed v2 payment notice (XML, CDATA values); {@code signType} MD5 (no sign_type field) or HMAC-SHA256. */
    public static byte[] wechatV2Paid(String outTradeNo, String transactionId, long totalFee, String signType) {
        return wechatV2Xml(wechatV2PaidFields(outTradeNo, transactionId, totalFee, signType));
    }

    /** The fields of a signed v2 payment notice, {@code sign} last. */
    public static Map<String, String> wechatV2PaidFields(String outTradeNo, String transactionId, long totalFee,
            String signType) {
        var f = new LinkedHashMap<String, String>();
        f.put("appid", WX_APPID);
        f.put("bank_type", "CFT");
        f.put("cash_fee", Long.toString(totalFee));
        f.put("fee_type", "CNY");
        f.put("is_subscribe", "Y");
        f.put("mch_id", WX_MCH);
        f.put("nonce_str", "5d2b6c2a8db53831f7eda20af46e531c");
        f.put("openid", "oUpF8uMEb4qRXf22hE3X68TekukE");
        f.put("out_trade_no", outTradeNo);
        f.put("result_code", "SUCCESS");
        f.put("return_code", "SUCCESS");
        if (!"MD5".equals(signType)) {
            f.put("sign_type", signType);
        }
        f.put("time_end", "20260102110405");
        f.put("total_fee", Long.toString(totalFee));
        f.put("trade_type", "JSAPI");
        f.put("transaction_id", transactionId);
        f.put("sign", WechatV2Signer.sign(f, signType, WX_KEY));
        return f;
    }

    /** Renders the fields as WeChat does: CDATA for every value. */
    public static byte[] wechatV2Xml(Map<String, String> f) {
        return WechatV2Signer.xml(f).getBytes(StandardCharsets.UTF_8);
    }

    /** The exact bytes a v2 signature is computed over: sorted non-empty fields but sign, then {@code &key=}. */
    public static byte[] wechatV2SignedBytes(Map<String, String> fields) {
        return WechatV2Signer.signedBytes(fields, WX_KEY);
    }

    // ------------------------------------------------------------------ Alipay

    /** The parameters of an Alipay TRADE_SUCCESS notice in UTF-8, unsigned. */
    public static Map<String, String> alipayPaidParams(String outTradeNo, String tradeNo, String totalAmount) {
        var p = new LinkedHashMap<String, String>();
        p.put("gmt_create", "2026-01-02 11:00:00");
        p.put("charset", "utf-8");
        p.put("gmt_payment", "2026-01-02 11:04:05");
        p.put("notify_time", "2026-01-02 11:04:06");
        p.put("subject", "测试商品 bench item");
        p.put("buyer_id", "2088102116773037");
        p.put("invoice_amount", totalAmount);
        p.put("version", "1.0");
        p.put("notify_id", "2026010200222110405001301463" + Integer.toUnsignedString(outTradeNo.hashCode()));
        p.put("fund_bill_list", "[{\"amount\":\"" + totalAmount + "\",\"fundChannel\":\"ALIPAYACCOUNT\"}]");
        p.put("notify_type", "trade_status_sync");
        p.put("out_trade_no", outTradeNo);
        p.put("total_amount", totalAmount);
        p.put("trade_status", "TRADE_SUCCESS");
        p.put("trade_no", tradeNo);
        p.put("auth_app_id", ALI_APPID);
        p.put("receipt_amount", totalAmount);
        p.put("point_amount", "0.00");
        p.put("app_id", ALI_APPID);
        p.put("buyer_pay_amount", totalAmount);
        p.put("seller_id", "2088102119685838");
        return p;
    }

    /** The V1 content Alipay signs: sorted non-empty params but sign and sign_type, {@code k=v&...}, UTF-8. */
    public static byte[] alipaySignedBytes(Map<String, String> params) {
        return AlipaySigner.content(params).getBytes(StandardCharsets.UTF_8);
    }

    /** A signed (RSA2) Alipay payment notice as a form body, percent-encoded in UTF-8. */
    public static byte[] alipayPaid(String outTradeNo, String tradeNo, String totalAmount, PrivateKey alipayPrivate) {
        Map<String, String> p = alipayPaidParams(outTradeNo, tradeNo, totalAmount);
        return AlipaySigner.formBody(AlipaySigner.signed(p, alipayPrivate, AlipaySigner.RSA2));
    }

    // ------------------------------------------------------------------ WeChat Pay v3

    /** A v3 delivery: the JSON envelope and its four Wechatpay-* headers. */
    public record V3Notice(byte[] body, String timestamp, String nonce, String signature, String serial,
            byte[] ciphertextWithTag, String resourceNonce, String associatedData) {

        /** Header values by lower-case name, as the service sees them. */
        public Map<String, List<String>> headers() {
            var h = new LinkedHashMap<String, List<String>>();
            h.put("content-type", List.of("application/json"));
            h.put("wechatpay-timestamp", List.of(timestamp));
            h.put("wechatpay-nonce", List.of(nonce));
            h.put("wechatpay-signature", List.of(signature));
            h.put("wechatpay-serial", List.of(serial));
            h.put("wechatpay-signature-type", List.of(WechatV3Signer.SCHEMA));
            return h;
        }

        /** The bytes the platform signs: {@code timestamp\nnonce\nbody\n}. */
        public byte[] signedBytes() {
            return WechatV3Signer.message(timestamp, nonce, body);
        }
    }

    public static V3Notice wechatV3Paid(String outTradeNo, String transactionId, long total, long epochSecond,
            PrivateKey platformPrivate) {
        String resource = "{\"mchid\":\"" + WX3_MCH + "\",\"appid\":\"" + WX3_APPID + "\",\"out_trade_no\":\""
                + outTradeNo + "\",\"transaction_id\":\"" + transactionId + "\",\"trade_type\":\"JSAPI\","
                + "\"trade_state\":\"SUCCESS\",\"trade_state_desc\":\"支付成功\",\"bank_type\":\"CMC\",\"attach\":\"\","
                + "\"success_time\":\"2026-01-02T11:04:05+08:00\",\"payer\":{\"openid\":\"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o\"},"
                + "\"amount\":{\"total\":" + total + ",\"payer_total\":" + total
                + ",\"currency\":\"CNY\",\"payer_currency\":\"CNY\"}}";
        String resourceNonce = "fdasflkja484"; // 12 characters, used as the GCM IV bytes
        String aad = "transaction";
        String ciphertext =
                WechatV3Signer.encrypt(WX3_API_V3_KEY, resourceNonce, aad, resource.getBytes(StandardCharsets.UTF_8));
        String envelope = "{\"id\":\"EV-" + Integer.toUnsignedString(outTradeNo.hashCode())
                + "\",\"create_time\":\"2026-01-02T11:04:06+08:00\",\"resource_type\":\"encrypt-resource\","
                + "\"event_type\":\"TRANSACTION.SUCCESS\",\"summary\":\"支付成功\",\"resource\":{\"original_type\":"
                + "\"transaction\",\"algorithm\":\"" + WechatV3Signer.ALGORITHM + "\",\"ciphertext\":\"" + ciphertext
                + "\",\"associated_data\":\"" + aad + "\",\"nonce\":\"" + resourceNonce + "\"}}";
        byte[] body = envelope.getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(epochSecond);
        String nonce = "593BEC0C930BF1AFEB40B4A08C8FB242";
        String sig = WechatV3Signer.sign(platformPrivate, ts, nonce, body);
        return new V3Notice(body, ts, nonce, sig, WX3_SERIAL, Base64.getDecoder().decode(ciphertext), resourceNonce,
                aad);
    }
}
