package io.paynotify.simulator.trigger;

import java.time.Clock;
import java.util.Optional;

/**
 * Builds one provider's notices for a channel, signed (or encrypted) exactly as the provider does; the evil
 * variants are built the same way and then spoiled.
 */
public interface Notices {

    /** The payment-success notice. */
    Notice payment(Trade trade);

    /** The notice for a refund of {@code trade.refundFen()} (a full refund when that is the whole amount). */
    Notice refund(Trade trade);

    /** The provider's notice that an unpaid trade closed; empty where the provider sends none. */
    Optional<Notice> close(Trade trade);

    /** A correctly signed payment notice, then one field changed after signing. */
    Notice tampered(Trade trade);

    /** A payment notice correctly signed with the channel's keys, for another app id. */
    Notice wrongApp(Trade trade);

    /** A payment notice whose signed timestamp is 10 minutes old; empty where notices carry no timestamp. */
    Optional<Notice> stale(Trade trade);

    /** A payment notice with a DOCTYPE declaring an external entity at {@code entityUrl}; empty for non-XML bodies. */
    Optional<Notice> xxe(Trade trade, String entityUrl);

    /**
     * On a partner or ISV channel, a correctly signed payment notice that names no sub-merchant (WeChat without
     * {@code sub_mch_id}/{@code sub_mchid}, Alipay without {@code auth_app_id}); empty on a direct channel.
     */
    default Optional<Notice> missingSubMerchant(Trade trade) {
        return Optional.empty();
    }

    /**
     * On an Alipay certificate-mode channel, a payment notice signed with a key whose certificate chains to a root
     * that is not the channel's ({@code alipay-root-cert}); empty elsewhere.
     */
    default Optional<Notice> foreignRoot(Trade trade) {
        return Optional.empty();
    }

    /** {@code notice} as the provider delivers it again later (WeChat v3 signs each delivery afresh). */
    Notice again(Notice notice);

    /** The builder for {@code channel}'s provider; {@code v2SignType} null means the channel's strongest. */
    static Notices of(Channel channel, Clock clock, String v2SignType) {
        return switch (channel.provider()) {
            case WECHATPAY_V2 -> new WechatV2Notices(channel, clock, v2SignType);
            case WECHATPAY_V3 -> new WechatV3Notices(channel, clock);
            case ALIPAY -> new AlipayNotices(channel, clock);
        };
    }
}
