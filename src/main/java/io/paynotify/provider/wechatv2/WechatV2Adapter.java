package io.paynotify.provider.wechatv2;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import io.paynotify.provider.BeijingTime;
import io.paynotify.provider.Fields;
import io.paynotify.provider.NotifyAdapter;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.RawNotify;
import io.paynotify.provider.SafeXml;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * WeChat Pay API v2: {@code POST /notify/wechatpay/{channel}}, an XML body signed with MD5 or HMAC-SHA256 over the
 * sorted fields and the API key (WeChat Pay v2 signing rules). Refund notices on the same URL carry an encrypted
 * {@code req_info} and no {@code sign}; decrypting it is their authentication.
 */
@ApplicationScoped
public class WechatV2Adapter implements NotifyAdapter {

    static final String SUCCESS = "SUCCESS";
    static final String FAIL = "FAIL";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Provider provider() {
        return Provider.WECHATPAY_V2;
    }

    @Override
    public String pathSegment() {
        return "wechatpay";
    }

    @Override
    public VerifiedNotification verify(Channel channel, RawNotify raw) throws NotifyRejection {
        WechatV2Keys keys = channel.keys(WechatV2Keys.class);
        Map<String, String> f = parse(raw.body(), "xml");
        String returnCode = f.get("return_code");
        if (!Fields.present(returnCode)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        if (!SUCCESS.equals(returnCode)) {
            // a communication failure notice is never signed: nothing in it can be trusted
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        if (f.containsKey("req_info") && !f.containsKey("sign")) {
            return refund(channel, keys, raw, f);
        }
        boolean partner = channel.mode() == AccountMode.PARTNER;
        require(f, "appid", "mch_id", "result_code", "out_trade_no");
        if (partner) {
            // the sub-merchant is required on a service provider's channel (docs/api.md "Account modes")
            require(f, "sub_mch_id");
        }
        String resultCode = f.get("result_code");
        if (SUCCESS.equals(resultCode)) {
            require(f, "transaction_id", "total_fee");
        }
        WechatV2Signature.verify(f, keys);

        NotifyClass cls = SUCCESS.equals(resultCode)
                ? NotifyClass.PAID
                : FAIL.equals(resultCode) ? NotifyClass.INFO : NotifyClass.UNKNOWN;
        String outTradeNo = f.get("out_trade_no");
        if (!OutTradeNo.isValid(outTradeNo, channel.maxOutTradeNo()) || !Fields.isToken(resultCode)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        Long amount = MinorUnits.parseFen(f.get("total_fee"));
        String transactionId = Fields.tokenOrNull(f.get("transaction_id"));
        if (cls == NotifyClass.PAID) {
            if (amount == null) {
                throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
            }
            if (transactionId == null) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        }
        String feeType = f.get("fee_type");
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V2,
                        channel.name(),
                        outTradeNo,
                        cls,
                        resultCode,
                        raw.body(),
                        raw.receivedAt())
                .transactionId(transactionId)
                .amount(amount)
                .currency(Fields.present(feeType) ? Fields.currencyOrInvalid(feeType) : "CNY")
                .paidAt(time(f.get("time_end")))
                .accountMismatch(partner ? partnerMismatch(keys, f) : accountMismatch(keys, f))
                .subMerchant(partner ? subMerchant(f) : null)
                .build();
    }

    /**
     * A refund notice (WeChat Pay v2 refund notice rules): authenticated by decrypting {@code req_info}, whose key is the
     * channel's API key; the fields outside it are unsigned, so none of them can flag or change an order. Every field docs/api.md
     * "Refunds" requires must be there, {@code transaction_id} and {@code total_fee} included: AES-ECB carries no MAC, so a
     * captured ciphertext could otherwise be replayed against another order; the state machine binds the refund to
     * the order's transaction id and amount.
     */
    private VerifiedNotification refund(Channel channel, WechatV2Keys keys, RawNotify raw, Map<String, String> f)
            throws NotifyRejection {
        require(f, "appid", "mch_id", "req_info");
        Map<String, String> info = WechatV2RefundDecryptor.decryptFields(f.get("req_info"), keys.apiKeys());
        require(info, "out_trade_no", "refund_status", "out_refund_no", "refund_id", "transaction_id", "total_fee");
        String outTradeNo = info.get("out_trade_no");
        String status = info.get("refund_status");
        String outRefundNo = info.get("out_refund_no");
        String refundId = info.get("refund_id");
        String transactionId = info.get("transaction_id");
        Long tradeTotal = MinorUnits.parseFen(info.get("total_fee"));
        if (!OutTradeNo.isValid(outTradeNo, channel.maxOutTradeNo())
                || !Fields.isToken(status)
                || !Fields.isToken(outRefundNo)
                || !Fields.isToken(refundId)
                || !Fields.isToken(transactionId)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        if (tradeTotal == null) {
            throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
        }
        RefundStatus refundStatus = refundStatus(status);
        Long refundFee = MinorUnits.parseFen(info.get("refund_fee"));
        if (refundStatus == RefundStatus.SUCCESS) {
            require(info, "refund_fee");
            if (refundFee == null) {
                throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
            }
        }
        return VerifiedNotification.builder(
                        Provider.WECHATPAY_V2,
                        channel.name(),
                        outTradeNo,
                        refundStatus == null ? NotifyClass.UNKNOWN : NotifyClass.REFUND,
                        status,
                        raw.body(),
                        raw.receivedAt())
                .transactionId(transactionId)
                .amount(refundFee)
                // the outer appid, mch_id and sub_mch_id are not signed: recorded with the body, they decide
                // nothing (docs/api.md "Refunds"); the refund is bound to its order by transaction_id and total_fee
                .accountMismatch(false)
                .notifyId(refundId)
                .decoded(json(info))
                .refund(new RefundNotice(
                        outRefundNo,
                        true,
                        refundId,
                        refundStatus,
                        refundFee,
                        false,
                        tradeTotal,
                        BeijingTime.dashed(info.get("success_time"))))
                .build();
    }

    /** v2 {@code refund_status}: SUCCESS, CHANGE (did not reach the payer), REFUNDCLOSE; anything else is null. */
    static RefundStatus refundStatus(String status) {
        return switch (status) {
            case SUCCESS -> RefundStatus.SUCCESS;
            case "CHANGE" -> RefundStatus.ABNORMAL;
            case "REFUNDCLOSE" -> RefundStatus.CLOSED;
            default -> null;
        };
    }

    /** {@code time_end}, {@code yyyyMMddHHmmss} in Beijing time; null when absent or malformed. */
    static java.time.Instant time(String text) {
        if (text == null || text.length() != 14) {
            return null;
        }
        return BeijingTime.parse(text, 0, 4, 6, 8, 10, 12);
    }

    static boolean accountMismatch(WechatV2Keys keys, Map<String, String> f) {
        return !keys.appIds().contains(f.get("appid"))
                || !keys.mchId().equals(f.get("mch_id"))
                || Fields.present(f.get("sub_mch_id"))
                || Fields.present(f.get("sub_appid"));
    }

    /**
     * Step a of ACCOUNT_MISMATCH on a service provider's channel: {@code appid} among the channel's (the provider's)
     * app ids and {@code mch_id} equal to its {@code mch-id}; the sub-merchant is checked against the order by the
     * state machine (step b).
     */
    static boolean partnerMismatch(WechatV2Keys keys, Map<String, String> f) {
        return !keys.appIds().contains(f.get("appid")) || !keys.mchId().equals(f.get("mch_id"));
    }

    /** The sub-merchant a partner notice or answer names: {@code sub_mch_id}, and {@code sub_appid} where sent. */
    static SubMerchant subMerchant(Map<String, String> f) {
        String subMchId = f.get("sub_mch_id");
        String subAppId = f.get("sub_appid");
        return new SubMerchant(Fields.present(subMchId) ? subMchId : null, Fields.present(subAppId) ? subAppId : null);
    }

    private static Map<String, String> parse(byte[] body, String root) throws NotifyRejection {
        try {
            return SafeXml.readFlat(body, root);
        } catch (SafeXml.XmlRefused e) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
    }

    private static void require(Map<String, String> f, String... names) throws NotifyRejection {
        for (String name : names) {
            if (!Fields.present(f.get(name))) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        }
    }

    @Override
    public AckResponse success() {
        return WechatV2Ack.SUCCESS;
    }

    @Override
    public AckResponse failure(int status) {
        return WechatV2Ack.failure(status);
    }

    /** The decrypted req_info fields as a JSON object of strings, shown to operators as {@code decoded}. */
    static String json(Map<String, String> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serialises", e);
        }
    }
}
