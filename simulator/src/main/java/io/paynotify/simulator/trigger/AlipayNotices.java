package io.paynotify.simulator.trigger;

import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.simulator.sign.BeijingTime;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Alipay asynchronous notices (Alipay documentation): a form-urlencoded body in the trade's charset (here UTF-8),
 * signed RSA2 by Alipay's key ({@link AlipaySigner}).
 */
final class AlipayNotices implements Notices {

    /** {@code gmt_create} is this long before the notice: the simulated buyer took a minute to pay. */
    private static final Duration OPEN_FOR = Duration.ofMinutes(1);

    private final Channel channel;
    private final Clock clock;

    AlipayNotices(Channel channel, Clock clock) {
        this.channel = channel;
        this.clock = clock;
    }

    @Override
    public Notice payment(Trade trade) {
        Map<String, String> p = paid(trade, channel.appId());
        return notice(signed(p), "payment notice " + describe(p));
    }

    /**
     * Alipay reports a refund on the trade's own notify URL: a full refund as {@code TRADE_CLOSED}, a partial one as
     * {@code TRADE_SUCCESS}, with {@code refund_fee} (the trade's total refunded so far), {@code gmt_refund} and the
     * refund request's {@code out_biz_no} (Alipay's refund notification documentation).
     */
    @Override
    public Notice refund(Trade trade) {
        boolean full = trade.refundFen() >= trade.amountFen();
        Map<String, String> p = paid(trade, channel.appId());
        p.put("trade_status", full ? "TRADE_CLOSED" : "TRADE_SUCCESS");
        p.put("out_biz_no", trade.outRefundNo());
        p.put("refund_fee", yuan(trade.refundFen()));
        p.put("gmt_refund", BeijingTime.withMillis(clock.instant()));
        if (full) {
            p.put("gmt_close", BeijingTime.plain(clock.instant()));
        }
        return notice(
                signed(p),
                "refund notice " + describe(p) + " refund_fee=" + p.get("refund_fee") + " out_biz_no="
                        + trade.outRefundNo());
    }

    /** An unpaid trade closed (timed out or closed by the merchant): TRADE_CLOSED without refund fields. */
    @Override
    public Optional<Notice> close(Trade trade) {
        Map<String, String> p = common(channel.appId());
        p.put("trade_no", trade.transactionId());
        p.put("out_trade_no", trade.outTradeNo());
        p.put("trade_status", "TRADE_CLOSED");
        p.put("total_amount", yuan(trade.amountFen()));
        p.put("subject", "paynotify simulator");
        p.put("gmt_create", BeijingTime.plain(clock.instant().minus(OPEN_FOR)));
        p.put("gmt_close", BeijingTime.plain(clock.instant()));
        return Optional.of(notice(signed(p), "close notice " + describe(p)));
    }

    @Override
    public Notice tampered(Trade trade) {
        Map<String, String> p = signed(paid(trade, channel.appId()));
        String forged = trade.amountFen() == 1 ? "0.02" : "0.01";
        p.put("total_amount", forged);
        return notice(p, "payment notice signed, then total_amount changed to " + forged + ": " + describe(p));
    }

    @Override
    public Notice wrongApp(Trade trade) {
        String other = channel.appId().equals("2021000000009999") ? "2021000000009998" : "2021000000009999";
        Map<String, String> p = paid(trade, other);
        return notice(signed(p), "payment notice for another app_id, signed with Alipay's key: " + describe(p));
    }

    @Override
    public Optional<Notice> stale(Trade trade) {
        return Optional.empty(); // notify_time is signed but no receiver is required to check it
    }

    @Override
    public Optional<Notice> xxe(Trade trade, String entityUrl) {
        return Optional.empty(); // a form body: no entities
    }

    @Override
    public Notice again(Notice notice) {
        return notice; // Alipay re-sends the same notice, with the same notify_id
    }

    private Map<String, String> paid(Trade trade, String appId) {
        String amount = yuan(trade.amountFen());
        Map<String, String> p = common(appId);
        p.put("gmt_create", BeijingTime.plain(clock.instant().minus(OPEN_FOR)));
        p.put("seller_email", "sim-seller@example.com");
        p.put("subject", "paynotify simulator 模拟订单");
        p.put("buyer_id", "2088102000000001");
        p.put("invoice_amount", amount);
        p.put("fund_bill_list", "[{\"amount\":\"" + amount + "\",\"fundChannel\":\"ALIPAYACCOUNT\"}]");
        p.put("trade_status", "TRADE_SUCCESS");
        p.put("receipt_amount", amount);
        p.put("buyer_pay_amount", amount);
        p.put("gmt_payment", BeijingTime.plain(clock.instant()));
        p.put("out_trade_no", trade.outTradeNo());
        p.put("total_amount", amount);
        p.put("trade_no", trade.transactionId());
        p.put("buyer_logon_id", "sim***@example.com");
        p.put("point_amount", "0.00");
        return p;
    }

    private Map<String, String> common(String appId) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("notify_time", BeijingTime.plain(clock.instant()));
        p.put("notify_type", "trade_status_sync");
        p.put("notify_id", Trade.nonce(34));
        p.put("charset", "utf-8");
        p.put("version", "1.0");
        p.put("app_id", appId);
        p.put("auth_app_id", appId);
        p.put("seller_id", channel.sellerId());
        return p;
    }

    /** {@code p} signed RSA2 with Alipay's key: {@code sign_type} and {@code sign} added. */
    private Map<String, String> signed(Map<String, String> p) {
        return AlipaySigner.signed(p, channel.alipayKey(), AlipaySigner.RSA2);
    }

    /** Fen as Alipay's yuan amount, two decimals. */
    static String yuan(long fen) {
        return (fen / 100) + "." + String.format("%02d", fen % 100);
    }

    private static String describe(Map<String, String> p) {
        return p.get("trade_status") + " out_trade_no=" + p.get("out_trade_no") + " app_id=" + p.get("app_id")
                + " total_amount=" + p.get("total_amount") + " trade_no=" + p.get("trade_no") + " sign_type=RSA2";
    }

    private Notice notice(Map<String, String> p, String what) {
        return new Notice(
                channel.notifyPath(),
                AlipaySigner.formBody(p),
                Map.of(),
                "application/x-www-form-urlencoded; charset=utf-8",
                what);
    }
}
