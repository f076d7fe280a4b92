package io.paynotify.testing;

import io.paynotify.simulator.sign.WechatV2Signer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Builds signed WeChat Pay v2 notification bodies, the way WeChat's servers would: the fields are this class's, the
 * signing, rendering and encryption the simulator's {@link WechatV2Signer} (proved against WxJava in the simulator's
 * tests, and independent of the service's verifier).
 */
public final class WechatV2Fixtures {

    private WechatV2Fixtures() {}

    /** The fields of a successful payment notice on {@link TestChannels#WX}. */
    public static Map<String, String> paid(String outTradeNo, String transactionId, long totalFee) {
        var f = new LinkedHashMap<String, String>();
        f.put("appid", TestChannels.WX_APPID);
        f.put("bank_type", "CFT");
        f.put("cash_fee", Long.toString(totalFee));
        f.put("fee_type", "CNY");
        f.put("is_subscribe", "Y");
        f.put("mch_id", TestChannels.WX_MCH);
        f.put("nonce_str", "5d2b6c2a8db53831f7eda20af46e531c");
        f.put("openid", "oUpF8uMEb4qRXf22hE3X68TekukE");
        f.put("out_trade_no", outTradeNo);
        f.put("result_code", "SUCCESS");
        f.put("return_code", "SUCCESS");
        f.put("time_end", "20140903131540");
        f.put("total_fee", Long.toString(totalFee));
        f.put("trade_type", "JSAPI");
        f.put("transaction_id", transactionId);
        return f;
    }

    /** A successful payment notice on {@link TestChannels#WX} to change and sign: see {@link Notice}. */
    public static Notice payment(String outTradeNo, String transactionId, long totalFee) {
        return new Notice(paid(outTradeNo, transactionId, totalFee));
    }

    /**
     * A payment notice with {@code result_code} FAIL on {@link TestChannels#WX} (a non-final status): no
     * transaction_id, total_fee nor time_end, an error code instead.
     */
    public static Notice failedPayment(String outTradeNo) {
        return payment(outTradeNo, "unused", 1)
                .without("transaction_id")
                .without("total_fee")
                .without("cash_fee")
                .without("time_end")
                .with("result_code", "FAIL")
                .with("err_code", "SYSTEMERROR")
                .with("err_code_des", "系统错误");
    }

    /**
     * A successful payment notice of a sub-merchant on the service provider's channel {@link TestChannels#WX_SP}: the
     * provider in {@code appid}/{@code mch_id}, the sub-merchant in {@code sub_mch_id} (with its payer's
     * {@code sub_openid}, which stays in the signed content). Sign it with {@link TestChannels#WX_SP_KEY}.
     */
    public static Notice partnerPayment(String outTradeNo, String transactionId, long totalFee, String subMchId) {
        var f = paid(outTradeNo, transactionId, totalFee);
        f.put("appid", TestChannels.WX_SP_APPID);
        f.put("mch_id", TestChannels.WX_SP_MCH);
        f.put("sub_mch_id", subMchId);
        f.put("sub_is_subscribe", "N");
        f.put("sub_openid", "oQpF8uMEb4qRXf22hE3X68TekukS");
        return new Notice(f);
    }

    /** The partner payment notice signed with MD5 and the service provider's key ({@link TestChannels#WX_SP_KEY}). */
    public static byte[] partnerPaid(String outTradeNo, String transactionId, long totalFee, String subMchId) {
        return partnerPayment(outTradeNo, transactionId, totalFee, subMchId).signedWith(TestChannels.WX_SP_KEY, "MD5");
    }

    /**
     * A refund notice on {@link TestChannels#WX_SP}: the outer ids the provider's and the sub-merchant's, req_info
     * encrypted with the provider's key.
     */
    public static byte[] partnerRefundBody(Map<String, String> info, String subMchId) {
        var f = refundNotice(encryptReqInfo(info, TestChannels.WX_SP_KEY));
        f.put("appid", TestChannels.WX_SP_APPID);
        f.put("mch_id", TestChannels.WX_SP_MCH);
        f.put("sub_mch_id", subMchId);
        return body(f);
    }

    /** Any field map as a notice to change and sign. */
    public static Notice notice(Map<String, String> fields) {
        return new Notice(fields);
    }

    /**
     * An unsigned notice's fields: each change returns a new notice, so one base can feed a table of variants; the
     * body is rendered by {@link #md5()}, {@link #hmac()}, {@link #signedWith} or, as the fields stand,
     * {@link #unsigned()}.
     */
    public static final class Notice {
        private final Map<String, String> fields;

        private Notice(Map<String, String> fields) {
            this.fields = new LinkedHashMap<>(fields);
        }

        /** The same notice with one field set (added at the end when new). */
        public Notice with(String name, String value) {
            var f = new LinkedHashMap<>(fields);
            f.put(name, value);
            return new Notice(f);
        }

        /** The same notice without one field. */
        public Notice without(String name) {
            var f = new LinkedHashMap<>(fields);
            f.remove(name);
            return new Notice(f);
        }

        public String get(String name) {
            return fields.get(name);
        }

        /** A copy of the fields as they stand. */
        public Map<String, String> fields() {
            return new LinkedHashMap<>(fields);
        }

        /** The fields with {@code sign} computed with that key and type, to tamper with after signing. */
        public Map<String, String> signedFields(String key, String type) {
            return signed(fields, key, type);
        }

        /** The body signed with that key and type (MD5 or HMAC-SHA256). */
        public byte[] signedWith(String key, String type) {
            return body(signedFields(key, type));
        }

        /** The body signed with MD5 and the first key of {@link TestChannels#WX}. */
        public byte[] md5() {
            return signedWith(TestChannels.WX_KEY, "MD5");
        }

        /** The body signed with HMAC-SHA256 and the first key of {@link TestChannels#WX}. */
        public byte[] hmac() {
            return signedWith(TestChannels.WX_KEY, "HMAC-SHA256");
        }

        /** The body of the fields as they stand: whatever {@code sign} they carry, or none. */
        public byte[] unsigned() {
            return body(fields);
        }

        /** The XML text of the fields as they stand. */
        public String xml() {
            return WechatV2Fixtures.xml(fields);
        }
    }

    /** Adds {@code sign} computed with that key and type (MD5 or HMAC-SHA256), uppercase hex. */
    public static Map<String, String> signed(Map<String, String> fields, String key, String type) {
        var f = new LinkedHashMap<>(fields);
        f.remove("sign");
        f.put("sign", sign(f, key, type));
        return f;
    }

    /** The uppercase hex sign of the fields (any sign they carry left out), MD5 or HMAC-SHA256. */
    public static String sign(Map<String, String> fields, String key, String type) {
        return WechatV2Signer.sign(fields, type, key);
    }

    /** Renders the fields as WeChat does: CDATA for every value. */
    public static String xml(Map<String, String> fields) {
        return WechatV2Signer.xml(fields);
    }

    public static byte[] body(Map<String, String> fields) {
        return xml(fields).getBytes(StandardCharsets.UTF_8);
    }

    /** A v2 refund notice (see docs/api.md "Refunds"): no sign, the refund details encrypted in {@code req_info}. */
    public static Map<String, String> refundNotice(String reqInfo) {
        var f = new LinkedHashMap<String, String>();
        f.put("return_code", "SUCCESS");
        f.put("appid", TestChannels.WX_APPID);
        f.put("mch_id", TestChannels.WX_MCH);
        f.put("nonce_str", "TeqClE3i0mvn3DrK");
        f.put("req_info", reqInfo);
        return f;
    }

    /**
     * The body of a refund notice on {@link TestChannels#WX} whose req_info holds these fields, encrypted with that
     * API key.
     */
    public static byte[] refundBody(Map<String, String> info, String apiKey) {
        return body(refundNotice(encryptReqInfo(info, apiKey)));
    }

    /** The body of a refund notice for that order, encrypted with the first key of {@link TestChannels#WX}. */
    public static byte[] refundBody(String outTradeNo, String transactionId, long totalFee, String refundStatus) {
        return refundBody(refundInfo(outTradeNo, transactionId, totalFee, refundStatus), TestChannels.WX_KEY);
    }

    /** The decrypted fields of a refund notice ({@code <root>...</root>}). */
    public static Map<String, String> refundInfo(
            String outTradeNo, String transactionId, long totalFee, String refundStatus) {
        var f = new LinkedHashMap<String, String>();
        f.put("out_refund_no", "R" + outTradeNo);
        f.put("out_trade_no", outTradeNo);
        f.put("refund_account", "REFUND_SOURCE_RECHARGE_FUNDS");
        f.put("refund_fee", Long.toString(totalFee));
        f.put("refund_id", "50000408942018111907145868882");
        f.put("refund_recv_accout", "支付用户零钱");
        f.put("refund_request_source", "API");
        f.put("refund_status", refundStatus);
        f.put("settlement_refund_fee", Long.toString(totalFee));
        f.put("settlement_total_fee", Long.toString(totalFee));
        f.put("success_time", "2018-11-19 16:24:13");
        f.put("total_fee", Long.toString(totalFee));
        f.put("transaction_id", transactionId);
        return f;
    }

    /** Encrypts {@code <root>fields</root>} (CDATA values) as WeChat does: AES-256-ECB, key = hex MD5(apiKey). */
    public static String encryptReqInfo(Map<String, String> info, String apiKey) {
        return encryptReqInfo(WechatV2Signer.xml("root", info, Set.of()).getBytes(StandardCharsets.UTF_8), apiKey);
    }

    public static String encryptReqInfo(byte[] plain, String apiKey) {
        return WechatV2Signer.encryptReqInfo(apiKey, plain);
    }

    /** Lowercase hex MD5 of the UTF-8 text: the req_info key of that API key. */
    public static String md5Hex(String text) {
        return WechatV2Signer.reqInfoKey(text);
    }
}
