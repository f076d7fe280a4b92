package io.paynotify.simulator.trigger;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * WeChat Pay API v2 notices (WeChat Pay v2 documentation): an {@code <xml>} body whose {@code sign} is MD5 or HMAC-SHA256 over
 * every non-empty field but {@code sign}, sorted, joined {@code k=v&...}, then {@code &key=<api key>}, as uppercase
 * hex; refund notices carry no {@code sign} but an encrypted {@code req_info} (§1.8).
 */
final class WechatV2Notices implements Notices {

    static final String MD5 = "MD5";
    static final String HMAC_SHA256 = "HMAC-SHA256";

    /** Fields WeChat writes as bare numbers; every other value goes in CDATA, as in WeChat's samples. */
    private static final Set<String> NUMERIC = Set.of("total_fee", "cash_fee", "settlement_total_fee", "coupon_fee");

    private final Channel channel;
    private final Clock clock;
    private final String signType;

    WechatV2Notices(Channel channel, Clock clock, String signType) {
        this.channel = channel;
        this.clock = clock;
        this.signType = signType != null ? signType : channel.signTypes().contains(HMAC_SHA256) ? HMAC_SHA256 : MD5;
        if (!this.signType.equals(MD5) && !this.signType.equals(HMAC_SHA256)) {
            throw new IllegalArgumentException("the v2 sign type is MD5 or HMAC-SHA256");
        }
    }

    @Override
    public Notice payment(Trade trade) {
        Map<String, String> f = paymentFields(trade, channel.appId());
        f.put("sign", sign(f, signType, channel.apiKey()));
        return notice(xml(f), "payment notice " + describe(f));
    }

    @Override
    public Notice refund(Trade trade) {
        Map<String, String> info = new LinkedHashMap<>();
        info.put("out_refund_no", trade.outRefundNo());
        info.put("out_trade_no", trade.outTradeNo());
        info.put("refund_account", "REFUND_SOURCE_RECHARGE_FUNDS");
        info.put("refund_fee", Long.toString(trade.refundFen()));
        info.put("refund_id", trade.refundId());
        info.put("refund_recv_accout", "支付用户零钱"); // sic: WeChat's spelling
        info.put("refund_request_source", "API");
        info.put("refund_status", "SUCCESS");
        info.put("settlement_refund_fee", Long.toString(trade.refundFen()));
        info.put("settlement_total_fee", Long.toString(trade.amountFen()));
        info.put("success_time", BeijingTime.plain(clock));
        info.put("total_fee", Long.toString(trade.amountFen()));
        info.put("transaction_id", trade.transactionId());
        String plaintext = elements("root", info);

        Map<String, String> f = new LinkedHashMap<>();
        f.put("return_code", "SUCCESS");
        f.put("appid", channel.appId());
        f.put("mch_id", channel.mchId());
        f.put("nonce_str", Trade.nonce(32));
        f.put("req_info", Crypto.reqInfo(channel.apiKey(), plaintext.getBytes(StandardCharsets.UTF_8)));
        return notice(
                xml(f),
                "refund notice (req_info encrypted, no sign) out_trade_no=" + trade.outTradeNo() + " out_refund_no="
                        + trade.outRefundNo() + " refund_fee=" + trade.refundFen() + " refund_status=SUCCESS");
    }

    @Override
    public Optional<Notice> close(Trade trade) {
        return Optional.empty(); // WeChat Pay sends no notice when a trade closes
    }

    @Override
    public Notice tampered(Trade trade) {
        Map<String, String> f = paymentFields(trade, channel.appId());
        f.put("sign", sign(f, signType, channel.apiKey()));
        String forged = trade.amountFen() == 1 ? "2" : "1";
        f.put("total_fee", forged);
        return notice(xml(f), "payment notice signed, then total_fee changed to " + forged + ": " + describe(f));
    }

    @Override
    public Notice wrongApp(Trade trade) {
        Map<String, String> f = paymentFields(trade, otherAppId());
        f.put("sign", sign(f, signType, channel.apiKey()));
        return notice(xml(f), "payment notice for another app, signed with the channel's key: " + describe(f));
    }

    @Override
    public Optional<Notice> stale(Trade trade) {
        return Optional.empty(); // v2 notices carry no signed timestamp
    }

    @Override
    public Optional<Notice> xxe(Trade trade, String entityUrl) {
        Map<String, String> f = paymentFields(trade, channel.appId());
        f.put("sign", sign(f, signType, channel.apiKey()));
        String body = xml(f).replace(
                        "<xml>",
                        "<!DOCTYPE xml [<!ENTITY xxe SYSTEM \"" + entityUrl + "\">]>\n<xml><attach>&xxe;</attach>");
        return Optional.of(notice(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + body,
                "payment notice with <!DOCTYPE> declaring an external entity (" + entityUrl + ") used in <attach>"));
    }

    @Override
    public Notice again(Notice notice) {
        return notice; // v2 re-sends the same bytes
    }

    /** The fields of a payment notice without {@code sign}, in the order WeChat's samples list them. */
    private Map<String, String> paymentFields(Trade trade, String appId) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("appid", appId);
        f.put("bank_type", "OTHERS");
        f.put("cash_fee", Long.toString(trade.amountFen()));
        f.put("fee_type", "CNY");
        f.put("is_subscribe", "N");
        f.put("mch_id", channel.mchId());
        f.put("nonce_str", Trade.nonce(32));
        f.put("openid", "oSimulator0000000000000000001");
        f.put("out_trade_no", trade.outTradeNo());
        f.put("result_code", "SUCCESS");
        f.put("return_code", "SUCCESS");
        f.put("sign_type", signType);
        f.put("time_end", BeijingTime.compact(clock));
        f.put("total_fee", Long.toString(trade.amountFen()));
        f.put("trade_type", "NATIVE");
        f.put("transaction_id", trade.transactionId());
        return f;
    }

    /**
     * The v2 signature: non-empty fields but {@code sign} (so {@code sign_type} is included), sorted by name, joined
     * {@code k=v&...}, then {@code &key=} and the API key; MD5, or HMAC-SHA256 keyed with the API key; uppercase hex.
     */
    static String sign(Map<String, String> fields, String signType, String apiKey) {
        StringBuilder s = new StringBuilder();
        for (var e : new TreeMap<>(fields).entrySet()) {
            if (e.getKey().equals("sign")
                    || e.getValue() == null
                    || e.getValue().isEmpty()) {
                continue;
            }
            s.append(s.length() == 0 ? "" : "&").append(e.getKey()).append('=').append(e.getValue());
        }
        s.append("&key=").append(apiKey);
        byte[] data = s.toString().getBytes(StandardCharsets.UTF_8);
        byte[] mac = signType.equals(HMAC_SHA256)
                ? Crypto.hmacSha256(apiKey.getBytes(StandardCharsets.UTF_8), data)
                : Crypto.md5(data);
        return HexFormat.of().withUpperCase().formatHex(mac);
    }

    private String otherAppId() {
        return channel.appId().equals("wxsimotherapp0009") ? "wxsimotherapp0008" : "wxsimotherapp0009";
    }

    private static String describe(Map<String, String> f) {
        return "out_trade_no=" + f.get("out_trade_no") + " appid=" + f.get("appid") + " total_fee=" + f.get("total_fee")
                + " transaction_id=" + f.get("transaction_id") + " sign_type=" + f.get("sign_type");
    }

    private static String xml(Map<String, String> f) {
        return elements("xml", f);
    }

    private static String elements(String root, Map<String, String> f) {
        StringBuilder x = new StringBuilder("<").append(root).append('>');
        f.forEach((k, v) -> {
            x.append('<').append(k).append('>');
            x.append(NUMERIC.contains(k) ? v : "<![CDATA[" + v + "]]>");
            x.append("</").append(k).append('>');
        });
        return x.append("</").append(root).append('>').toString();
    }

    private Notice notice(String body, String what) {
        return new Notice(channel.notifyPath(), body.getBytes(StandardCharsets.UTF_8), Map.of(), "text/xml", what);
    }
}
