package io.paynotify.simulator.gateway;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one provider's bill of one day holds besides the trades the gateway knows (scripted through
 * {@code PUT /_sim/bills/{api}/{day}}): the extras a reconciliation must find.
 *
 * @param status {@link Status#READY} (the bill, or "no bill" when it has no line), {@link Status#NOT_READY} (v2
 *     {@code Bill Creating}, v3 {@code STATEMENT_CREATING}, Alipay {@code isp.bill_not_exist}: Alipay documents no
 *     "being generated" answer) or {@link Status#NO_BILL} whatever the day's trades
 * @param hashMismatch WeChat v3: {@code hash_value} is the SHA-1 of another text than the file's
 * @param extraPayments payment lines of orders the gateway was never asked about (an order paynotify lacks)
 * @param amounts a known trade's line with another amount, by out_trade_no (fen)
 * @param refunds refund lines
 */
public record BillScript(
        Status status, boolean hashMismatch, List<Line> extraPayments, Map<String, Long> amounts, List<Line> refunds) {

    /** The bill's answer. */
    public enum Status {
        READY,
        NOT_READY,
        NO_BILL
    }

    /**
     * One extra line.
     *
     * @param outTradeNo the order number
     * @param amountFen the payment's, or the refund's, amount in fen
     * @param transactionId WeChat {@code 微信订单号} / Alipay {@code 支付宝交易号}; null generates one
     * @param outRefundNo a refund line's {@code 商户退款单号} / {@code 退款批次号/请求号} (null on payments)
     */
    public record Line(String outTradeNo, long amountFen, String transactionId, String outRefundNo) {
        public Line {
            Objects.requireNonNull(outTradeNo, "outTradeNo");
            if (amountFen < 0) {
                throw new IllegalArgumentException("amount must not be negative: " + amountFen);
            }
        }
    }

    public BillScript {
        Objects.requireNonNull(status, "status");
        extraPayments = List.copyOf(extraPayments);
        amounts = Map.copyOf(amounts);
        refunds = List.copyOf(refunds);
    }

    /** The bill of the known trades, nothing else. */
    public static BillScript ready() {
        return new BillScript(Status.READY, false, List.of(), Map.of(), List.of());
    }

    public BillScript withStatus(Status s) {
        return new BillScript(s, hashMismatch, extraPayments, amounts, refunds);
    }

    public BillScript withHashMismatch() {
        return new BillScript(status, true, extraPayments, amounts, refunds);
    }

    public BillScript withExtraPayment(String outTradeNo, long amountFen) {
        var more = new java.util.ArrayList<>(extraPayments);
        more.add(new Line(outTradeNo, amountFen, null, null));
        return new BillScript(status, hashMismatch, more, amounts, refunds);
    }

    public BillScript withAmount(String outTradeNo, long amountFen) {
        var more = new java.util.HashMap<>(amounts);
        more.put(outTradeNo, amountFen);
        return new BillScript(status, hashMismatch, extraPayments, more, refunds);
    }

    public BillScript withRefund(String outTradeNo, String outRefundNo, long amountFen) {
        var more = new java.util.ArrayList<>(refunds);
        more.add(new Line(outTradeNo, amountFen, null, Objects.requireNonNull(outRefundNo, "outRefundNo")));
        return new BillScript(status, hashMismatch, extraPayments, amounts, more);
    }
}
