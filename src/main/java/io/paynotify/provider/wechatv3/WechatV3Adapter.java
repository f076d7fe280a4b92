package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.channel.Channel;
import io.paynotify.core.money.MinorUnits;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.RefundNotice;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.order.OutTradeNo;
import io.paynotify.core.order.RefundStatus;
import io.paynotify.provider.AckResponse;
import io.paynotify.provider.Fields;
import io.paynotify.provider.NotifyAdapter;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.RawNotify;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * WeChat Pay API v3: {@code POST /notify/wechatpay-v3/{channel}}, a JSON envelope whose {@code resource} is
 * encrypted with the API v3 key, signed in the {@code Wechatpay-*} headers by a WeChat Pay platform key
 * (WeChat Pay API v3 notifications; see docs/wechatpay-v3-setup.md "How a delivery is checked").
 *
 * <p>Checks, in the order of docs/api.md "How a notification is handled": headers and signature over the raw bytes, then freshness (401) →
 * envelope JSON and its required fields (400) → algorithm and decryption (401) → resource JSON and its required
 * fields and amount (400) → account ids (ACCOUNT_MISMATCH, decided by the state machine).
 */
@ApplicationScoped
public class WechatV3Adapter implements NotifyAdapter {

    static final String TRANSACTION_PREFIX = "TRANSACTION.";
    static final String REFUND_PREFIX = "REFUND.";
    static final String PAID_EVENT = "TRANSACTION.SUCCESS";
    static final String SUCCESS = "SUCCESS";
    static final String REFUND = "REFUND";
    /** The non-final trade states (class INFO, docs/api.md "How a notification is handled"). */
    static final Set<String> INFO_STATES = Set.of("NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR", "REVOKED", "CLOSED");

    /** The envelope id is stored as the notify id (varchar(128)); WeChat's are at most 36 characters. */
    private static final Pattern NOTIFY_ID = Pattern.compile("[\\x21-\\x7E]{1,128}");

    private final WechatV3Verifier verifier;

    @Inject
    public WechatV3Adapter(Clock clock) {
        this.verifier = new WechatV3Verifier(clock);
    }

    @Override
    public Provider provider() {
        return Provider.WECHATPAY_V3;
    }

    @Override
    public String pathSegment() {
        return "wechatpay-v3";
    }

    @Override
    public VerifiedNotification verify(Channel channel, RawNotify raw) throws NotifyRejection {
        WechatV3Keys keys = channel.keys(WechatV3Keys.class);
        verifier.verify(keys.platformKeys(), raw);

        JsonNode envelope = WechatV3Json.readObject(raw.body());
        String notifyId = WechatV3Json.requiredText(envelope, "id");
        String eventType = WechatV3Json.requiredText(envelope, "event_type");
        JsonNode resource = envelope.get("resource");
        if (resource == null || !resource.isObject()) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        String algorithm = WechatV3Json.requiredText(resource, "algorithm");
        String ciphertext = WechatV3Json.requiredText(resource, "ciphertext");
        String nonce = WechatV3Json.requiredText(resource, "nonce");
        if (!NOTIFY_ID.matcher(notifyId).matches()) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }

        if (!WechatV3Decryptor.ALGORITHM.equals(algorithm)) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        JsonNode aad = resource.get("associated_data");
        if (aad != null && !aad.isNull() && !aad.isTextual()) {
            // WeChat sends a string or nothing; anything else cannot be the data it sealed with
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        byte[] plain = WechatV3Decryptor.decrypt(
                keys.apiV3Key(), nonce, aad == null || aad.isNull() ? null : aad.textValue(), ciphertext);

        JsonNode r = WechatV3Json.readObject(plain);
        return classify(channel, keys, raw, notifyId, eventType, r);
    }

    private static VerifiedNotification classify(
            Channel channel, WechatV3Keys keys, RawNotify raw, String notifyId, String eventType, JsonNode r)
            throws NotifyRejection {
        boolean transaction = eventType.startsWith(TRANSACTION_PREFIX);
        String outTradeNo = WechatV3Json.requiredText(r, "out_trade_no");
        String mchId = WechatV3Json.requiredText(r, "mchid");
        String tradeState;
        if (transaction) {
            WechatV3Json.requiredText(r, "appid");
            tradeState = WechatV3Json.requiredText(r, "trade_state");
            if (!Fields.isToken(tradeState)) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        } else {
            tradeState = Fields.tokenOrNull(WechatV3Json.text(r, "trade_state"));
        }
        JsonNode amount = r.get("amount");
        JsonNode total = amount == null ? null : amount.get("total");
        if (transaction && SUCCESS.equals(tradeState)) {
            if (!Fields.present(WechatV3Json.text(r, "transaction_id")) || total == null || total.isNull()) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        }
        if (!OutTradeNo.isValid(outTradeNo, channel.maxOutTradeNo())) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }

        NotifyClass cls = notifyClass(eventType, tradeState);
        Long amountMinor = fen(total);
        String transactionId = Fields.tokenOrNull(WechatV3Json.text(r, "transaction_id"));
        RefundNotice refund = null;
        if (eventType.startsWith(REFUND_PREFIX)) {
            refund = refundNotice(r, amount);
            // the amount a refund notice states is the refund's own; the trade total is compared separately
            amountMinor = refund.amount();
            if (refund.status() == null) {
                cls = NotifyClass.UNKNOWN;
            }
        } else if (cls == NotifyClass.REFUND) {
            // a TRANSACTION.* whose trade state is REFUND: the trade was refunded, but no refund is named
            refund = RefundNotice.unidentified();
        }
        if (cls == NotifyClass.PAID) {
            if (amountMinor == null) {
                throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
            }
            if (transactionId == null) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        }
        String currency = currency(amount);
        // a refund notice's status is its refund_status; its success_time is the refund's, not a payment time
        String providerStatus = cls == NotifyClass.REFUND && !REFUND.equals(tradeState)
                ? Fields.tokenOrNull(WechatV3Json.text(r, "refund_status"))
                : tradeState;
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V3,
                        channel.name(),
                        outTradeNo,
                        cls,
                        providerStatus,
                        raw.body(),
                        raw.receivedAt())
                .transactionId(transactionId)
                .amount(amountMinor)
                .currency(currency)
                .paidAt(transaction ? rfc3339(WechatV3Json.text(r, "success_time")) : null)
                .accountMismatch(accountMismatch(keys, r, mchId, transaction))
                .notifyId(notifyId)
                .decoded(WechatV3Json.compact(r))
                .refund(refund)
                .build();
    }

    /**
     * A {@code REFUND.*} resource (docs/api.md "Refunds"): {@code out_refund_no}, {@code refund_id}, {@code refund_status},
     * {@code transaction_id}, {@code amount.total} and {@code amount.refund} are required (400 else); refund
     * resources carry no {@code appid}. A status other than SUCCESS, CLOSED, PROCESSING or ABNORMAL leaves
     * {@code status} null (the notice is then UNKNOWN_STATUS).
     */
    static RefundNotice refundNotice(JsonNode r, JsonNode amount) throws NotifyRejection {
        String outRefundNo = WechatV3Json.requiredText(r, "out_refund_no");
        String refundId = WechatV3Json.requiredText(r, "refund_id");
        String status = WechatV3Json.requiredText(r, "refund_status");
        WechatV3Json.requiredText(r, "transaction_id");
        if (!Fields.isToken(outRefundNo) || !Fields.isToken(refundId) || !Fields.isToken(status)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        JsonNode total = amount == null ? null : amount.get("total");
        JsonNode refund = amount == null ? null : amount.get("refund");
        if (total == null || total.isNull() || refund == null || refund.isNull()) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        Long tradeTotal = fen(total);
        Long refunded = fen(refund);
        if (tradeTotal == null || refunded == null) {
            throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
        }
        RefundStatus refundStatus = switch (status) {
            case "SUCCESS" -> RefundStatus.SUCCESS;
            case "CLOSED" -> RefundStatus.CLOSED;
            case "PROCESSING" -> RefundStatus.PROCESSING;
            case "ABNORMAL" -> RefundStatus.ABNORMAL;
            default -> null;
        };
        return new RefundNotice(
                outRefundNo,
                true,
                refundId,
                refundStatus,
                refunded,
                false,
                tradeTotal,
                rfc3339(WechatV3Json.text(r, "success_time")));
    }

    /** The notification classes (docs/api.md "How a notification is handled"), v3 rows. Status values are matched exactly (case-sensitive). */
    static NotifyClass notifyClass(String eventType, String tradeState) {
        boolean transaction = eventType.startsWith(TRANSACTION_PREFIX);
        if (eventType.startsWith(REFUND_PREFIX) || (transaction && REFUND.equals(tradeState))) {
            return NotifyClass.REFUND;
        }
        if (PAID_EVENT.equals(eventType) && SUCCESS.equals(tradeState)) {
            return NotifyClass.PAID;
        }
        if (tradeState != null && INFO_STATES.contains(tradeState)) {
            return NotifyClass.INFO;
        }
        return NotifyClass.UNKNOWN;
    }

    /**
     * {@code amount.total} in fen: a JSON integer of 1 to 10 ASCII digits. A string, a fraction, an exponent or a
     * negative number is null (and a PAID notice with it is 400).
     */
    static Long fen(JsonNode total) {
        if (total == null || !total.isIntegralNumber()) {
            return null;
        }
        return MinorUnits.parseFen(total.asText());
    }

    /** {@code amount.currency} as compared with the order's: absent (or null) is CNY (docs/api.md "Edge cases and how they are decided"). */
    static String currency(JsonNode amount) {
        return amount == null
                        || !amount.has("currency")
                        || amount.get("currency").isNull()
                ? "CNY"
                : Fields.currencyOrInvalid(WechatV3Json.text(amount, "currency"));
    }

    /** {@code success_time}: RFC 3339 with its own offset; null when absent or malformed. */
    static java.time.Instant rfc3339(String text) {
        if (text == null || text.length() > 40) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(text, java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * appid among the channel's app ids (refund resources may lack it: then only mchid counts), mchid equal to the
     * channel's, and no service-provider ids: {@code sp_mchid}/{@code sub_mchid} are not this version's mode.
     */
    static boolean accountMismatch(WechatV3Keys keys, JsonNode r, String mchId, boolean transaction) {
        String appId = WechatV3Json.text(r, "appid");
        boolean appIdChecked = transaction || r.has("appid");
        return (appIdChecked && !keys.appIds().contains(appId))
                || !mchId.equals(keys.mchId())
                || carries(r, "sp_mchid")
                || carries(r, "sub_mchid");
    }

    private static boolean carries(JsonNode r, String field) {
        JsonNode v = r.get(field);
        return v != null && !v.isNull();
    }

    @Override
    public AckResponse success() {
        return WechatV3Ack.SUCCESS;
    }

    @Override
    public AckResponse failure(int status) {
        return WechatV3Ack.failure(status);
    }
}
