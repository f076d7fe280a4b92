package io.paynotify.provider.alipay;

import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
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
import java.nio.charset.StandardCharsets;

/**
 * Alipay: {@code POST /notify/alipay/{channel}}, a form body signed with RSA2 (Alipay's asynchronous notification). Refunds arrive on
 * the same URL as TRADE_SUCCESS or TRADE_CLOSED carrying refund fields; they are classified REFUND before the
 * status is looked at, so they are never read as payments or closes.
 */
@ApplicationScoped
public class AlipayAdapter implements NotifyAdapter {

    private static final int MAX_NOTIFY_ID = 128;

    private static final String[] REQUIRED = {"notify_id", "app_id", "out_trade_no", "trade_no", "trade_status"};

    static final String TRADE_SUCCESS = "TRADE_SUCCESS";
    /** "Paid, and no longer refundable": after a TRADE_SUCCESS it is news, not a duplicate. */
    static final String TRADE_FINISHED = "TRADE_FINISHED";

    private static final AckResponse SUCCESS = new AckResponse(200, "text/plain", ascii("success"));
    private static final byte[] FAIL = ascii("fail");

    private final AlipayCertStore store;

    /** For tests and tools: its own (empty) store of downloaded certificates. */
    public AlipayAdapter() {
        this(new AlipayCertStore());
    }

    @Inject
    public AlipayAdapter(AlipayCertStore store) {
        this.store = store;
    }

    @Override
    public Provider provider() {
        return Provider.ALIPAY;
    }

    @Override
    public String pathSegment() {
        return "alipay";
    }

    @Override
    public VerifiedNotification verify(Channel channel, RawNotify raw) throws NotifyRejection {
        AlipayKeys keys = channel.keys(AlipayKeys.class);
        AlipayForm.Decoded form;
        try {
            form = AlipayForm.decode(raw.body());
        } catch (AlipayForm.Malformed e) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
        AlipayForm.Decoded p = form;
        for (String name : REQUIRED) {
            if (!Fields.present(p.get(name))) {
                throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
            }
        }
        String sign = p.get("sign");
        String signType = p.get("sign_type");
        String algorithm = AlipaySignature.algorithm(signType);
        if (!Fields.present(sign) || algorithm == null || !keys.signTypes().contains(signType)) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }
        // the signed content assembled from the decoded byte ranges: no String per parameter, no joined text
        // in certificate mode a notice names no certificate: every entity key verifies, the downloaded ones too
        if (!AlipaySignature.verify(form.signedContent(), sign, algorithm, keys.publicKeys())
                && (keys.certMode() == null
                        || !AlipaySignature.verify(
                                form.signedContent(), sign, algorithm, store.keys(channel.name())))) {
            throw NotifyRejection.unauthenticated(Cause.SIGNATURE);
        }

        String outTradeNo = p.get("out_trade_no");
        String tradeNo = p.get("trade_no");
        String status = p.get("trade_status");
        String notifyId = p.get("notify_id");
        if (!OutTradeNo.isValid(outTradeNo, channel.maxOutTradeNo())
                || !Fields.isToken(tradeNo)
                || !Fields.isToken(status)
                || !Fields.isVisibleAscii(notifyId, MAX_NOTIFY_ID)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        NotifyClass cls = classify(p, status);
        boolean isv = channel.mode() == AccountMode.ISV;
        String authAppId = p.get("auth_app_id");
        Long amount = AlipayFormats.yuanToFen(p.get("total_amount"));
        if (cls == NotifyClass.PAID && amount == null) {
            throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
        }
        RefundNotice refund = cls == NotifyClass.REFUND ? refund(p, notifyId) : null;
        return VerifiedNotification.builder(
                        Provider.ALIPAY, channel.name(), outTradeNo, cls, status, raw.body(), raw.receivedAt())
                .transactionId(tradeNo)
                // a refund notice's recorded amount is the refund_fee it states, not the trade total
                .amount(refund != null ? refund.amount() : amount)
                .finishedNotice(cls == NotifyClass.PAID && TRADE_FINISHED.equals(status))
                .paidAt(AlipayFormats.time(p.get("gmt_payment")))
                .accountMismatch(accountMismatch(channel, keys, p))
                // an ISV notice names its merchant in auth_app_id, checked against the order (step b); one without
                // it matches no order, and only the provider's answer can say whose payment it was
                .subMerchant(isv ? new SubMerchant(Fields.present(authAppId) ? authAppId : null, null) : null)
                .queryWhenUnbound(isv && !Fields.present(authAppId) && keys.queryEnabled())
                .notifyId(notifyId)
                .refund(refund)
                .build();
    }

    /**
     * A refund notice on the payment URL (docs/api.md "Refunds"). Its {@code refund_fee} is the trade's total refunded so
     * far, not this refund's amount; the refund is {@code out_biz_no}, or the notice's own {@code notify_id} when
     * absent. Alipay notifies only successful refunds.
     */
    static RefundNotice refund(AlipayForm.Decoded p, String notifyId) throws NotifyRejection {
        String outBizNo = p.get("out_biz_no");
        boolean own = Fields.present(outBizNo);
        if (own && !Fields.isToken(outBizNo)) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        return new RefundNotice(
                own ? outBizNo : notifyId,
                own,
                null,
                RefundStatus.SUCCESS,
                AlipayFormats.yuanToFen(p.get("refund_fee")),
                true,
                null,
                AlipayFormats.refundTime(p.get("gmt_refund")));
    }

    /** Refund fields decide first (docs/api.md "Refunds"), whatever the status says. */
    static NotifyClass classify(AlipayForm.Decoded p, String status) throws NotifyRejection {
        boolean refund = Fields.present(p.get("out_biz_no")) || Fields.present(p.get("gmt_refund"));
        String refundFee = p.get("refund_fee");
        if (Fields.present(refundFee)) {
            Long fee = AlipayFormats.yuanToFen(refundFee);
            if (fee == null) {
                // refund_fee decides the class: a malformed one cannot be classified
                throw NotifyRejection.badRequest(Cause.BAD_AMOUNT);
            }
            refund |= fee > 0;
        }
        if (refund) {
            return NotifyClass.REFUND;
        }
        return switch (status) {
            case TRADE_SUCCESS, TRADE_FINISHED -> NotifyClass.PAID;
            case "TRADE_CLOSED" -> NotifyClass.CLOSE;
            case "WAIT_BUYER_PAY" -> NotifyClass.INFO;
            default -> NotifyClass.UNKNOWN;
        };
    }

    static boolean accountMismatch(Channel channel, AlipayKeys keys, AlipayForm.Decoded p) {
        String appId = p.get("app_id");
        if (!keys.appId().equals(appId)) {
            return true;
        }
        if (channel.mode() == AccountMode.ISV) {
            // app_id is the ISV application's; auth_app_id names the merchant and is checked against the order
            return false;
        }
        if (keys.sellerId() != null && !keys.sellerId().equals(p.get("seller_id"))) {
            return true;
        }
        String authAppId = p.get("auth_app_id");
        return Fields.present(authAppId) && !authAppId.equals(appId);
    }

    @Override
    public AckResponse success() {
        return SUCCESS;
    }

    @Override
    public AckResponse failure(int status) {
        return new AckResponse(status, "text/plain", FAIL);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
