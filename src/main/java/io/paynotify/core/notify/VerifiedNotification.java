package io.paynotify.core.notify;

import java.time.Instant;
import java.util.Objects;

/**
 * A notification that passed every check before the state machine: channel, size, parse, required fields,
 * signature, freshness and decryption. Only such notifications are ever stored. Built by a provider adapter with
 * {@link #builder}.
 *
 * @param provider the provider of the channel
 * @param channel the configured channel name
 * @param outTradeNo the merchant's order number, exactly as sent
 * @param transactionId the provider's transaction id, or null
 * @param amountMinor the order total in fen as the provider states it, or null when absent or malformed
 * @param currency the currency compared with the order (docs/api.md "Edge cases and how they are decided"), never null
 * @param providerStatus the provider status as sent (trade_status, result_code, trade_state, refund_status)
 * @param notifyClass what the status means
 * @param finishedNotice true for a notice that only says a paid trade is now final (Alipay TRADE_FINISHED): after a
 *     payment notice with another status it is IGNORED ALREADY_PAID, not a duplicate
 * @param paidAt the provider's payment time, or null when absent or malformed
 * @param accountMismatch true when an account id differs from the channel (ACCOUNT_MISMATCH)
 * @param notifyId the provider's id of this notice (Alipay notify_id, v3 id), or null
 * @param rawBody the body exactly as received
 * @param decoded the decrypted content as a JSON object text (v3 resource, v2 req_info), or null
 * @param receivedAt when the delivery arrived
 * @param refund what a REFUND notice says about its refund, else null
 * @param subMerchant the merchant a service-provider or ISV notice names, checked against the order's; null on a
 *     direct channel, and for a notice bound to its order otherwise (a v2 refund, by transaction id and amount)
 * @param queryWhenUnbound true for an Alipay ISV notice without {@code auth_app_id} on a query-enabled channel: its
 *     order is queried at once, since only the provider's answer can say whose payment it was
 */
public record VerifiedNotification(
        Provider provider,
        String channel,
        String outTradeNo,
        String transactionId,
        Long amountMinor,
        String currency,
        String providerStatus,
        NotifyClass notifyClass,
        boolean finishedNotice,
        Instant paidAt,
        boolean accountMismatch,
        String notifyId,
        byte[] rawBody,
        String decoded,
        Instant receivedAt,
        RefundNotice refund,
        SubMerchant subMerchant,
        boolean queryWhenUnbound) {

    /** The currency of a notice that names none. */
    public static final String DEFAULT_CURRENCY = "CNY";

    public VerifiedNotification {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(outTradeNo, "outTradeNo");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(notifyClass, "notifyClass");
        Objects.requireNonNull(rawBody, "rawBody");
        Objects.requireNonNull(receivedAt, "receivedAt");
        if (notifyClass == NotifyClass.REFUND && refund == null) {
            refund = RefundNotice.unidentified();
        }
    }

    /**
     * Starts a notification with what every one has; the rest is optional and named.
     *
     * @param rawBody the body exactly as received
     * @param receivedAt when the delivery arrived
     */
    public static Builder builder(
            Provider provider,
            String channel,
            String outTradeNo,
            NotifyClass notifyClass,
            String providerStatus,
            byte[] rawBody,
            Instant receivedAt) {
        return new Builder(provider, channel, outTradeNo, notifyClass, providerStatus, rawBody, receivedAt);
    }

    /** Never prints the raw body: it carries personal data. */
    @Override
    public String toString() {
        return "VerifiedNotification[" + provider + " " + channel + " " + outTradeNo + " " + notifyClass + " "
                + providerStatus + "]";
    }

    /** Names each optional part of a {@link VerifiedNotification}; unset parts are null, false, or CNY. */
    public static final class Builder {
        private final Provider provider;
        private final String channel;
        private final String outTradeNo;
        private final NotifyClass notifyClass;
        private final String providerStatus;
        private final byte[] rawBody;
        private final Instant receivedAt;
        private String transactionId;
        private Long amountMinor;
        private String currency = DEFAULT_CURRENCY;
        private boolean finishedNotice;
        private Instant paidAt;
        private boolean accountMismatch;
        private String notifyId;
        private String decoded;
        private RefundNotice refund;
        private SubMerchant subMerchant;
        private boolean queryWhenUnbound;

        private Builder(
                Provider provider,
                String channel,
                String outTradeNo,
                NotifyClass notifyClass,
                String providerStatus,
                byte[] rawBody,
                Instant receivedAt) {
            this.provider = provider;
            this.channel = channel;
            this.outTradeNo = outTradeNo;
            this.notifyClass = notifyClass;
            this.providerStatus = providerStatus;
            this.rawBody = rawBody;
            this.receivedAt = receivedAt;
        }

        /** The provider's transaction id. */
        public Builder transactionId(String value) {
            this.transactionId = value;
            return this;
        }

        /** The order total the notice states, in fen (null when absent or malformed). */
        public Builder amount(Long fen) {
            this.amountMinor = fen;
            return this;
        }

        /** The currency the notice states (default CNY). */
        public Builder currency(String value) {
            this.currency = value;
            return this;
        }

        /** Marks a notice that only says a paid trade is now final (Alipay TRADE_FINISHED). */
        public Builder finishedNotice(boolean value) {
            this.finishedNotice = value;
            return this;
        }

        /** The provider's payment time. */
        public Builder paidAt(Instant value) {
            this.paidAt = value;
            return this;
        }

        /** An account id differs from the channel's. */
        public Builder accountMismatch(boolean value) {
            this.accountMismatch = value;
            return this;
        }

        /** The provider's id of this notice. */
        public Builder notifyId(String value) {
            this.notifyId = value;
            return this;
        }

        /** The decrypted content as a JSON object text. */
        public Builder decoded(String json) {
            this.decoded = json;
            return this;
        }

        /** What a REFUND notice says about its refund. */
        public Builder refund(RefundNotice value) {
            this.refund = value;
            return this;
        }

        /** The merchant a service-provider or ISV notice names (step b of ACCOUNT_MISMATCH). */
        public Builder subMerchant(SubMerchant value) {
            this.subMerchant = value;
            return this;
        }

        /** An ISV notice that names no merchant: query its order at once. */
        public Builder queryWhenUnbound(boolean value) {
            this.queryWhenUnbound = value;
            return this;
        }

        public VerifiedNotification build() {
            return new VerifiedNotification(
                    provider,
                    channel,
                    outTradeNo,
                    transactionId,
                    amountMinor,
                    currency,
                    providerStatus,
                    notifyClass,
                    finishedNotice,
                    paidAt,
                    accountMismatch,
                    notifyId,
                    rawBody,
                    decoded,
                    receivedAt,
                    refund,
                    subMerchant,
                    queryWhenUnbound);
        }
    }
}
