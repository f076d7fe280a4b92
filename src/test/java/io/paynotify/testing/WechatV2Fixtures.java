package io.paynotify.testing;

import io.paynotify.provider.wechatv2.WechatV2Signature;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds signed WeChat Pay v2 notification bodies, the way WeChat's servers would. */
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

    /** Adds {@code sign} computed with that key and type (MD5 or HMAC-SHA256), uppercase hex. */
    public static Map<String, String> signed(Map<String, String> fields, String key, String type) {
        var f = new LinkedHashMap<>(fields);
        f.remove("sign");
        f.put("sign", sign(f, key, type));
        return f;
    }

    public static String sign(Map<String, String> fields, String key, String type) {
        byte[] raw = WechatV2Signature.sign(type, WechatV2Signature.content(fields), key.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().withUpperCase().formatHex(raw);
    }

    /** Renders the fields as WeChat does: CDATA for every value. */
    public static String xml(Map<String, String> fields) {
        var sb = new StringBuilder("<xml>");
        fields.forEach((k, v) -> sb.append('<').append(k).append("><![CDATA[").append(v).append("]]></").append(k)
                .append('>'));
        return sb.append("</xml>").toString();
    }

    public static byte[] body(Map<String, String> fields) {
        return xml(fields).getBytes(StandardCharsets.UTF_8);
    }
}
