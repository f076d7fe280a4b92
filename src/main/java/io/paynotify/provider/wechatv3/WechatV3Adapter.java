package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.core.money.MinorUnits;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.RefundNotice;
import io.paynotify.core.notify.SubMerchant;
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
    private static final int MAX_NOTIFY_ID = 128;

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

        WechatV3Json.Envelope envelope = WechatV3Json.readEnvelope(raw.body());
        String notifyId = required(envelope.id);
        String eventType = required(envelope.eventType);
        if (!envelope.resource) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        String algorithm = required(envelope.algorithm);
        if (!envelope.hasCiphertext()) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        String nonce = required(envelope.nonce);
        if (!Fields.isVisibleAscii(notifyId, MAX_NOTIFY_ID)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }

        if (!WechatV3Decryptor.ALGORITHM.equals(algorithm)) {
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        if (envelope.associatedDataInvalid) {
            // WeChat sends a string or nothing; anything else cannot be the data it sealed with
            throw NotifyRejection.unauthenticated(Cause.DECRYPTION);
        }
        byte[] plain = envelope.ciphertextBytes != null
                ? WechatV3Decryptor.decrypt(
                        keys.apiV3Key(),
                        nonce,
                        envelope.associatedData,
                        envelope.ciphertextBytes,
                        envelope.ciphertextFrom,
                        envelope.ciphertextLength)
                : WechatV3Decryptor.decrypt(keys.apiV3Key(), nonce, envelope.associatedData, envelope.ciphertext);

        WechatV3Json.Resource r = WechatV3Json.readResource(plain);
        return classify(channel, keys, raw, notifyId, eventType, r);
    }

    /** A field read as {@link WechatV3Json#requiredText}: a non-empty JSON string, else 400. */
    private static String required(String text) throws NotifyRejection {
        if (text == null || text.isEmpty()) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        return text;
    }

    private static VerifiedNotification classify(
            Channel channel,
            WechatV3Keys keys,
            RawNotify raw,
            String notifyId,
            String eventType,
            WechatV3Json.Resource r)
            throws NotifyRejection {
        boolean transaction = eventType.startsWith(TRANSACTION_PREFIX);
        boolean partner = channel.mode() == AccountMode.PARTNER;
        String outTradeNo = required(r.outTradeNo);
        // a service provider's notice on a direct channel: ACCOUNT_MISMATCH (recorded, 422, the order flagged), not a
        // 400 for the direct mchid/appid it was never going to carry (docs/api.md "Account modes"), as on v2
        boolean partnerShaped = !partner && (r.carriesSpMchid || r.carriesSubMchid);
        // the ids of the channel's mode are required (400) before any of them is compared (docs/api.md "Account modes")
        String mchId = partnerShaped ? null : required(partner ? r.spMchId : r.mchId);
        SubMerchant subMerchant = partner ? new SubMerchant(required(r.subMchId), presentOrNull(r.subAppId)) : null;
        String tradeState;
        if (transaction) {
            if (!partnerShaped) {
                required(partner ? r.spAppId : r.appId);
            }
            tradeState = required(r.tradeState);
            if (!Fields.isToken(tradeState)) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        } else {
            tradeState = Fields.tokenOrNull(r.tradeState);
        }
        if (transaction && SUCCESS.equals(tradeState)) {
            if (!Fields.present(r.transactionId)
                    || r.totalKind == WechatV3Json.MISSING
                    || r.totalKind == WechatV3Json.NULL) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        }
        if (!OutTradeNo.isValid(outTradeNo, channel.maxOutTradeNo())) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }

        NotifyClass cls = notifyClass(eventType, tradeState);
        Long amountMinor = fen(r.totalKind, r.totalText);
        String transactionId = Fields.tokenOrNull(r.transactionId);
        RefundNotice refund = null;
        if (eventType.startsWith(REFUND_PREFIX)) {
            refund = refundNotice(r);
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
        String currency = r.currencyGiven ? Fields.currencyOrInvalid(r.currency) : "CNY";
        // a refund notice's status is its refund_status; its success_time is the refund's, not a payment time
        String providerStatus = cls == NotifyClass.REFUND && !REFUND.equals(tradeState)
                ? Fields.tokenOrNull(r.refundStatus)
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
                .paidAt(transaction ? rfc3339(r.successTime) : null)
                .accountMismatch(
                        partner
                                ? partnerMismatch(keys, r, mchId, transaction)
                                : partnerShaped || accountMismatch(keys, r, mchId, transaction))
                .subMerchant(subMerchant)
                .notifyId(notifyId)
                .decoded(r.compact)
                .refund(refund)
                .build();
    }

    /**
     * A {@code REFUND.*} resource (docs/api.md "Refunds"): {@code out_refund_no}, {@code refund_id}, {@code refund_status},
     * {@code transaction_id}, {@code amount.total} and {@code amount.refund} are required (400 else); refund
     * resources carry no {@code appid}. A status other than SUCCESS, CLOSED, PROCESSING or ABNORMAL leaves
     * {@code status} null (the notice is then UNKNOWN_STATUS).
     */
    static RefundNotice refundNotice(WechatV3Json.Resource r) throws NotifyRejection {
        String outRefundNo = required(r.outRefundNo);
        String refundId = required(r.refundId);
        String status = required(r.refundStatus);
        required(r.transactionId);
        if (!Fields.isToken(outRefundNo) || !Fields.isToken(refundId) || !Fields.isToken(status)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        if (r.totalKind == WechatV3Json.MISSING
                || r.totalKind == WechatV3Json.NULL
                || r.refundKind == WechatV3Json.MISSING
                || r.refundKind == WechatV3Json.NULL) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        Long tradeTotal = fen(r.totalKind, r.totalText);
        Long refunded = fen(r.refundKind, r.refundText);
        if (tradeTotal == null || refunded == null) {
            throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
        }
        return new RefundNotice(
                outRefundNo, true, refundId, refundStatus(status), refunded, false, tradeTotal, rfc3339(r.successTime));
    }

    private static RefundStatus refundStatus(String status) {
        return switch (status) {
            case "SUCCESS" -> RefundStatus.SUCCESS;
            case "CLOSED" -> RefundStatus.CLOSED;
            case "PROCESSING" -> RefundStatus.PROCESSING;
            case "ABNORMAL" -> RefundStatus.ABNORMAL;
            default -> null;
        };
    }

    /** As {@link #fen(JsonNode)}, on a streamed number. */
    static Long fen(byte kind, String integralText) {
        return kind == WechatV3Json.INTEGRAL ? MinorUnits.parseFen(integralText) : null;
    }

    /** As {@link #accountMismatch(WechatV3Keys, JsonNode, String, boolean)}, on the streamed resource. */
    static boolean accountMismatch(WechatV3Keys keys, WechatV3Json.Resource r, String mchId, boolean transaction) {
        boolean appIdChecked = transaction || r.hasAppId;
        return (appIdChecked && !keys.appIds().contains(r.appId))
                || !mchId.equals(keys.mchId())
                || r.carriesSpMchid
                || r.carriesSubMchid;
    }

    /**
     * Step a of ACCOUNT_MISMATCH on a service provider's channel (docs/api.md "Account modes"): {@code sp_appid} among
     * the channel's app ids (refund resources may lack it: then only {@code sp_mchid} counts), {@code sp_mchid} equal
     * to the channel's, and no direct ids ({@code mchid}, {@code appid}) beside them. The sub-merchant is the state
     * machine's to check against the order (step b).
     */
    static boolean partnerMismatch(WechatV3Keys keys, WechatV3Json.Resource r, String spMchId, boolean transaction) {
        boolean appIdChecked = transaction || r.hasSpAppId;
        return (appIdChecked && !keys.appIds().contains(r.spAppId))
                || !spMchId.equals(keys.mchId())
                || r.carriesMchid
                || r.carriesAppId;
    }

    /** As {@link #partnerMismatch(WechatV3Keys, WechatV3Json.Resource, String, boolean)}, on a query answer's tree. */
    static boolean partnerMismatch(WechatV3Keys keys, JsonNode r, String spMchId, boolean appIdRequired) {
        String appId = WechatV3Json.text(r, "sp_appid");
        boolean appIdChecked = appIdRequired || r.has("sp_appid");
        return (appIdChecked && !keys.appIds().contains(appId))
                || !spMchId.equals(keys.mchId())
                || carries(r, "mchid")
                || carries(r, "appid");
    }

    /** A non-empty string, else null (an optional id sent empty names nothing). */
    static String presentOrNull(String text) {
        return text == null || text.isEmpty() ? null : text;
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
        java.time.Instant fast = rfc3339Plain(text);
        if (fast != null) {
            return fast;
        }
        try {
            return java.time.OffsetDateTime.parse(text, java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The shape WeChat sends, {@code yyyy-MM-ddTHH:mm:ss+HH:MM} or {@code yyyy-MM-ddTHH:mm:ssZ}, hand-parsed (the
     * formatter cost as much as the rest of the mapping); null for any other text or a value out of range, which
     * the formatter then decides, so the result is always the formatter's.
     */
    private static java.time.Instant rfc3339Plain(String t) {
        int n = t.length();
        boolean zulu = n == 20 && t.charAt(19) == 'Z';
        if (!zulu && !(n == 25 && t.charAt(19) == '+' && t.charAt(22) == ':')) {
            return null;
        }
        if (t.charAt(4) != '-'
                || t.charAt(7) != '-'
                || t.charAt(10) != 'T'
                || t.charAt(13) != ':'
                || t.charAt(16) != ':') {
            return null;
        }
        int y = digits(t, 0, 4);
        int mo = digits(t, 5, 2);
        int d = digits(t, 8, 2);
        int h = digits(t, 11, 2);
        int mi = digits(t, 14, 2);
        int s = digits(t, 17, 2);
        int oh = zulu ? 0 : digits(t, 20, 2);
        int om = zulu ? 0 : digits(t, 23, 2);
        if ((y | mo | d | h | mi | s | oh | om) < 0) {
            return null;
        }
        try {
            return java.time.LocalDateTime.of(y, mo, d, h, mi, s)
                    .toInstant(java.time.ZoneOffset.ofHoursMinutes(oh, om));
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }

    /** {@code count} ASCII digits at {@code from} as a number, or -1. */
    private static int digits(String t, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /**
     * appid among the channel's app ids (refund resources may lack it: then only mchid counts), mchid equal to the
     * channel's, and no service-provider ids: {@code sp_mchid}/{@code sub_mchid} belong on a {@code partner} channel.
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
