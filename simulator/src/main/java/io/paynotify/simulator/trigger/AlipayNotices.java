package io.paynotify.simulator.trigger;

import io.paynotify.simulator.sign.AlipayPki;
import io.paynotify.simulator.sign.AlipaySigner;
import io.paynotify.simulator.sign.BeijingTime;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
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
        Map<String, String> p = common(channel.appId(), trade);
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

    /** An ISV payment notice without {@code auth_app_id}: Alipay's signature, but no merchant named. */
    @Override
    public Optional<Notice> missingSubMerchant(Trade trade) {
        if (channel.mode() != Channel.Mode.ISV) {
            return Optional.empty();
        }
        Map<String, String> p = paid(trade, channel.appId());
        p.remove("auth_app_id");
        return Optional.of(notice(signed(p), "ISV payment notice without auth_app_id: " + describe(p)));
    }

    /**
     * A payment notice signed with a key that a certificate from another root certifies: the "Alipay certificate"
     * an attacker issued to themselves. Notices carry no certificate (PROTOCOLS.md §12.5), so paynotify knows only
     * the keys of its own chain-checked certificates and refuses the signature.
     */
    @Override
    public Optional<Notice> foreignRoot(Trade trade) {
        if (!channel.certificateMode()) {
            return Optional.empty();
        }
        KeyPair theirs = rsa();
        AlipayPki foreign = AlipayPki.issue(
                channel.appId(), theirs.getPublic(), theirs.getPublic(), clock.instant(), 1);
        Map<String, String> p = paid(trade, channel.appId());
        return Optional.of(notice(
                AlipaySigner.signed(p, theirs.getPrivate(), AlipaySigner.RSA2),
                "payment notice signed with the key of a certificate under a foreign root (alipay_cert_sn "
                        + AlipayPki.sn(foreign.foreign()) + ", issuer " + AlipayPki.FOREIGN_INTERMEDIATE_DN + "): "
                        + describe(p)));
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no RSA", e);
        }
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
        Map<String, String> p = common(appId, trade);
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

    /**
     * The fields every notice has. {@code auth_app_id} is the authorising merchant's app on an ISV channel
     * (PROTOCOLS.md §11.4), else {@code app_id} itself; an ISV merchant has its own {@code seller_id} (its PID).
     */
    private Map<String, String> common(String appId, Trade trade) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("notify_time", BeijingTime.plain(clock.instant()));
        p.put("notify_type", "trade_status_sync");
        p.put("notify_id", Trade.nonce(34));
        p.put("charset", "utf-8");
        p.put("version", "1.0");
        p.put("app_id", appId);
        boolean isv = channel.mode() == Channel.Mode.ISV && trade.subMerchant() != null;
        p.put("auth_app_id", isv ? trade.subMerchant() : appId);
        p.put("seller_id", isv ? "2088" + trade.subMerchant().substring(4) : channel.sellerId());
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
                + (p.containsKey("auth_app_id") && !p.get("auth_app_id").equals(p.get("app_id"))
                        ? " auth_app_id=" + p.get("auth_app_id")
                        : "")
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
