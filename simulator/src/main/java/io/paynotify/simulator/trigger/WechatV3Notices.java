package io.paynotify.simulator.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.simulator.sign.BeijingTime;
import io.paynotify.simulator.sign.WechatV3Signer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * WeChat Pay API v3 notices (WeChat Pay v3 documentation): a JSON envelope whose {@code resource} is AEAD_AES_256_GCM
 * with the API v3 key, signed by the platform key, the signature and its inputs in the {@code Wechatpay-*} headers
 * ({@link WechatV3Signer}).
 */
final class WechatV3Notices implements Notices {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STALE_BY = Duration.ofMinutes(10);

    private final Channel channel;
    private final Clock clock;

    WechatV3Notices(Channel channel, Clock clock) {
        this.channel = channel;
        this.clock = clock;
    }

    @Override
    public Notice payment(Trade trade) {
        return signed(
                paymentBody(trade, channel.appId()),
                clock.instant().getEpochSecond(),
                "payment notice " + describe(trade, channel.appId()));
    }

    @Override
    public Notice refund(Trade trade) {
        Map<String, Object> amount = new LinkedHashMap<>();
        amount.put("total", trade.amountFen());
        amount.put("refund", trade.refundFen());
        amount.put("payer_total", trade.amountFen());
        amount.put("payer_refund", trade.refundFen());
        Map<String, Object> r = new LinkedHashMap<>();
        if (partner()) {
            // a service provider's refund notice: sp_mchid and sub_mchid (CONTRACT §10, PROTOCOLS.md §11.2)
            r.put("sp_mchid", channel.mchId());
            if (trade.subMerchant() != null) {
                r.put("sub_mchid", trade.subMerchant());
            }
        } else {
            r.put("mchid", channel.mchId());
        }
        r.put("out_trade_no", trade.outTradeNo());
        r.put("transaction_id", trade.transactionId());
        r.put("out_refund_no", trade.outRefundNo());
        r.put("refund_id", trade.refundId());
        r.put("refund_status", "SUCCESS");
        r.put("success_time", BeijingTime.rfc3339(clock.instant()));
        r.put("user_received_account", "支付用户零钱");
        r.put("amount", amount);
        String body = envelope("REFUND.SUCCESS", "退款成功", "refund", r);
        return signed(
                body,
                clock.instant().getEpochSecond(),
                "refund notice REFUND.SUCCESS out_trade_no=" + trade.outTradeNo()
                        + (partner() ? " sp_mchid=" + channel.mchId() + " sub_mchid=" + trade.subMerchant() : "")
                        + " transaction_id=" + trade.transactionId() + " out_refund_no="
                        + trade.outRefundNo() + " amount.refund=" + trade.refundFen());
    }

    @Override
    public Optional<Notice> close(Trade trade) {
        return Optional.empty(); // WeChat Pay sends no notice when a trade closes
    }

    @Override
    public Notice tampered(Trade trade) {
        Notice n = payment(trade);
        String body = new String(n.body(), StandardCharsets.UTF_8);
        String forgedId = UUID.randomUUID().toString();
        String forged = body.replaceFirst("\"id\":\"[^\"]*\"", "\"id\":\"" + forgedId + "\"");
        return new Notice(
                n.path(),
                forged.getBytes(StandardCharsets.UTF_8),
                n.headers(),
                n.contentType(),
                "payment notice signed, then the envelope's id changed to " + forgedId + ": "
                        + describe(trade, channel.appId()));
    }

    @Override
    public Notice wrongApp(Trade trade) {
        String other = channel.appId().equals("wxsimotherapp0009") ? "wxsimotherapp0008" : "wxsimotherapp0009";
        return signed(
                paymentBody(trade, other),
                clock.instant().getEpochSecond(),
                "payment notice for another app, signed with the channel's platform key: " + describe(trade, other));
    }

    @Override
    public Optional<Notice> stale(Trade trade) {
        long then = clock.instant().minus(STALE_BY).getEpochSecond();
        return Optional.of(signed(
                paymentBody(trade, channel.appId()),
                then,
                "payment notice signed with Wechatpay-Timestamp 10 minutes ago: " + describe(trade, channel.appId())));
    }

    /** A partner TRANSACTION.SUCCESS without {@code sub_mchid} (and {@code sub_appid}), signed and encrypted. */
    @Override
    public Optional<Notice> missingSubMerchant(Trade trade) {
        if (!partner()) {
            return Optional.empty();
        }
        Trade none = trade.withSubMerchant(null, null);
        return Optional.of(signed(
                paymentBody(none, channel.appId()),
                clock.instant().getEpochSecond(),
                "partner payment notice without sub_mchid: " + describe(none, channel.appId())));
    }

    @Override
    public Optional<Notice> xxe(Trade trade, String entityUrl) {
        return Optional.empty(); // a JSON body: no entities
    }

    /** The same body with a fresh timestamp, nonce and signature, as each delivery is signed when sent. */
    @Override
    public Notice again(Notice notice) {
        Notice fresh = signed(
                new String(notice.body(), StandardCharsets.UTF_8),
                clock.instant().getEpochSecond(),
                "");
        return new Notice(notice.path(), notice.body(), fresh.headers(), notice.contentType(), notice.what());
    }

    private String paymentBody(Trade trade, String appId) {
        Map<String, Object> amount = new LinkedHashMap<>();
        amount.put("total", trade.amountFen());
        amount.put("payer_total", trade.amountFen());
        amount.put("currency", "CNY");
        amount.put("payer_currency", "CNY");
        Map<String, Object> t = new LinkedHashMap<>();
        if (partner()) {
            // the partner Transaction (PROTOCOLS.md §11.2, wechatpay-java partnerpayments): sp_* and sub_* ids
            t.put("sp_appid", appId);
            t.put("sp_mchid", channel.mchId());
            if (trade.subAppId() != null) {
                t.put("sub_appid", trade.subAppId());
            }
            if (trade.subMerchant() != null) {
                t.put("sub_mchid", trade.subMerchant());
            }
        } else {
            t.put("mchid", channel.mchId());
            t.put("appid", appId);
        }
        t.put("out_trade_no", trade.outTradeNo());
        t.put("transaction_id", trade.transactionId());
        t.put("trade_type", "NATIVE");
        t.put("trade_state", "SUCCESS");
        t.put("trade_state_desc", "支付成功");
        t.put("bank_type", "OTHERS");
        t.put("success_time", BeijingTime.rfc3339(clock.instant()));
        if (partner()) {
            Map<String, Object> payer = new LinkedHashMap<>();
            payer.put("sp_openid", "oSimulator0000000000000000001");
            if (trade.subAppId() != null) {
                payer.put("sub_openid", "oSimulatorSub00000000000000001");
            }
            t.put("payer", payer);
        } else {
            t.put("payer", Map.of("openid", "oSimulator0000000000000000001"));
        }
        t.put("amount", amount);
        return envelope("TRANSACTION.SUCCESS", "支付成功", "transaction", t);
    }

    /** The notification envelope with {@code resource} encrypted; associated_data is the original type. */
    private String envelope(String eventType, String summary, String originalType, Map<String, Object> resource) {
        String nonce = Trade.nonce(12);
        Map<String, Object> encrypted = new LinkedHashMap<>();
        encrypted.put("original_type", originalType);
        encrypted.put("algorithm", WechatV3Signer.ALGORITHM);
        encrypted.put("ciphertext", WechatV3Signer.encrypt(channel.apiV3Key(), nonce, originalType, json(resource)));
        encrypted.put("associated_data", originalType);
        encrypted.put("nonce", nonce);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", UUID.randomUUID().toString());
        e.put("create_time", BeijingTime.rfc3339(clock.instant()));
        e.put("resource_type", "encrypt-resource");
        e.put("event_type", eventType);
        e.put("summary", summary);
        e.put("resource", encrypted);
        return new String(json(e), StandardCharsets.UTF_8);
    }

    private Notice signed(String body, long timestamp, String what) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = WechatV3Signer.headers(
                channel.platformKey(), channel.platformSerial(), timestamp, Trade.nonce(32), bytes);
        return new Notice(channel.notifyPath(), bytes, headers, "application/json", what);
    }

    private String describe(Trade trade, String appId) {
        String ids = partner()
                ? " sp_appid=" + appId + " sp_mchid=" + channel.mchId()
                        + (trade.subMerchant() != null ? " sub_mchid=" + trade.subMerchant() : "")
                        + (trade.subAppId() != null ? " sub_appid=" + trade.subAppId() : "")
                : " appid=" + appId;
        return "TRANSACTION.SUCCESS out_trade_no=" + trade.outTradeNo() + ids + " amount.total=" + trade.amountFen()
                + " transaction_id=" + trade.transactionId();
    }

    private boolean partner() {
        return channel.mode() == Channel.Mode.PARTNER;
    }

    private static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
