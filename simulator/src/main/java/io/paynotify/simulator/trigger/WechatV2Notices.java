package io.paynotify.simulator.trigger;

import io.paynotify.simulator.sign.BeijingTime;
import io.paynotify.simulator.sign.WechatV2Signer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * WeChat Pay API v2 notices (WeChat Pay v2 documentation): an {@code <xml>} body signed by {@link WechatV2Signer};
 * refund notices carry no {@code sign} but an encrypted {@code req_info} (§1.8).
 */
final class WechatV2Notices implements Notices {

    static final String MD5 = WechatV2Signer.MD5;
    static final String HMAC_SHA256 = WechatV2Signer.HMAC_SHA256;

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

    /** A partner payment notice without {@code sub_mch_id} (and {@code sub_appid}), signed as WeChat would sign it. */
    @Override
    public Optional<Notice> missingSubMerchant(Trade trade) {
        if (channel.mode() != Channel.Mode.PARTNER) {
            return Optional.empty();
        }
        Map<String, String> f = paymentFields(trade.withSubMerchant(null, null), channel.appId());
        f.put("sign", sign(f, signType, channel.apiKey()));
        return Optional.of(notice(xml(f), "partner payment notice without sub_mch_id: " + describe(f)));
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
        info.put("success_time", BeijingTime.plain(clock.instant()));
        info.put("total_fee", Long.toString(trade.amountFen()));
        info.put("transaction_id", trade.transactionId());
        String plaintext = WechatV2Signer.xml("root", info, WechatV2Signer.NUMERIC);

        Map<String, String> f = new LinkedHashMap<>();
        f.put("return_code", "SUCCESS");
        f.put("appid", channel.appId());
        f.put("mch_id", channel.mchId());
        if (trade.subMerchant() != null) {
            // unsigned, like the outer appid and mch_id: recorded, decides nothing (CONTRACT §10)
            f.put("sub_mch_id", trade.subMerchant());
        }
        if (trade.subAppId() != null) {
            f.put("sub_appid", trade.subAppId());
        }
        f.put("nonce_str", Trade.nonce(32));
        f.put("req_info", WechatV2Signer.encryptReqInfo(channel.apiKey(), plaintext.getBytes(StandardCharsets.UTF_8)));
        return notice(
                xml(f),
                "refund notice (req_info encrypted, no sign) out_trade_no=" + trade.outTradeNo()
                        + (trade.subMerchant() != null ? " sub_mch_id=" + trade.subMerchant() : "")
                        + " transaction_id=" + trade.transactionId() + " out_refund_no="
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
        if (trade.subMerchant() != null) {
            // a service provider's notice (PROTOCOLS.md §11.1): every sub_* field is signed with the rest
            f.put("sub_mch_id", trade.subMerchant());
        }
        if (trade.subAppId() != null) {
            f.put("sub_appid", trade.subAppId());
            f.put("sub_is_subscribe", "N");
            f.put("sub_openid", "oSimulatorSub00000000000000001");
        }
        f.put("time_end", BeijingTime.compact(clock.instant()));
        f.put("total_fee", Long.toString(trade.amountFen()));
        f.put("trade_type", "NATIVE");
        f.put("transaction_id", trade.transactionId());
        return f;
    }

    private static String sign(Map<String, String> fields, String signType, String apiKey) {
        return WechatV2Signer.sign(fields, signType, apiKey);
    }

    private String otherAppId() {
        return channel.appId().equals("wxsimotherapp0009") ? "wxsimotherapp0008" : "wxsimotherapp0009";
    }

    private static String describe(Map<String, String> f) {
        return "out_trade_no=" + f.get("out_trade_no") + " appid=" + f.get("appid")
                + (f.containsKey("sub_mch_id") ? " mch_id=" + f.get("mch_id") + " sub_mch_id=" + f.get("sub_mch_id") : "")
                + (f.containsKey("sub_appid") ? " sub_appid=" + f.get("sub_appid") : "")
                + " total_fee=" + f.get("total_fee") + " transaction_id=" + f.get("transaction_id") + " sign_type="
                + f.get("sign_type");
    }

    private static String xml(Map<String, String> f) {
        return WechatV2Signer.xml("xml", f, WechatV2Signer.NUMERIC);
    }

    private Notice notice(String body, String what) {
        return new Notice(channel.notifyPath(), body.getBytes(StandardCharsets.UTF_8), Map.of(), "text/xml", what);
    }
}
