package io.paynotify.simulator.gateway;

/**
 * A scripted trade's state, provider-neutral. Each API names it in its own words:
 *
 * <table>
 *   <caption>Provider state strings</caption>
 *   <tr><th>state</th><th>WeChat {@code trade_state}</th><th>Alipay {@code trade_status}</th></tr>
 *   <tr><td>NOTPAY</td><td>NOTPAY</td><td>WAIT_BUYER_PAY</td></tr>
 *   <tr><td>USERPAYING</td><td>USERPAYING</td><td>WAIT_BUYER_PAY</td></tr>
 *   <tr><td>PAYERROR</td><td>PAYERROR</td>
 *       <td>WAIT_BUYER_PAY (Alipay has no failed state; the trade still waits)</td></tr>
 *   <tr><td>PAID</td><td>SUCCESS</td><td>TRADE_SUCCESS</td></tr>
 *   <tr><td>FINISHED</td><td>SUCCESS</td><td>TRADE_FINISHED</td></tr>
 *   <tr><td>CLOSED</td><td>CLOSED</td><td>TRADE_CLOSED, no send_pay_date</td></tr>
 *   <tr><td>REVOKED</td><td>REVOKED</td><td>TRADE_CLOSED, no send_pay_date</td></tr>
 *   <tr><td>REFUND</td><td>REFUND</td><td>TRADE_CLOSED with send_pay_date (paid, then fully refunded)</td></tr>
 *   <tr><td>NOT_FOUND</td><td>ORDERNOTEXIST / 404 ORDER_NOT_EXIST</td><td>40004 ACQ.TRADE_NOT_EXIST</td></tr>
 * </table>
 */
public enum TradeState {
    NOTPAY,
    USERPAYING,
    PAYERROR,
    PAID,
    /** Alipay {@code TRADE_FINISHED} (no refund possible any more); WeChat {@code SUCCESS}. */
    FINISHED,
    CLOSED,
    REVOKED,
    /** Paid, then refunded: WeChat {@code REFUND}, Alipay {@code TRADE_CLOSED} with {@code send_pay_date}. */
    REFUND,
    /** The provider does not know the out_trade_no (also what an unscripted one answers). */
    NOT_FOUND;

    /** Whether the answer proves a payment happened and so carries the payment's id, amount and time. */
    boolean paid() {
        return this == PAID || this == FINISHED || this == REFUND;
    }

    /** WeChat's {@code trade_state} (v2 and v3 use the same names). */
    String wechatName() {
        return switch (this) {
            case PAID, FINISHED -> "SUCCESS";
            case NOT_FOUND -> throw new IllegalStateException("NOT_FOUND has no trade_state");
            default -> name();
        };
    }

    /** WeChat's {@code trade_state_desc}, as its documentation words them. */
    String wechatDescription() {
        return switch (this) {
            case NOTPAY -> "订单未支付";
            case USERPAYING -> "用户支付中";
            case PAYERROR -> "支付失败";
            case PAID, FINISHED -> "支付成功";
            case CLOSED -> "订单已关闭";
            case REVOKED -> "已撤销";
            case REFUND -> "转入退款";
            case NOT_FOUND -> "订单不存在";
        };
    }

    /** Alipay's {@code trade_status}. */
    String alipayName() {
        return switch (this) {
            case NOTPAY, USERPAYING, PAYERROR -> "WAIT_BUYER_PAY";
            case PAID -> "TRADE_SUCCESS";
            case FINISHED -> "TRADE_FINISHED";
            case CLOSED, REVOKED, REFUND -> "TRADE_CLOSED";
            case NOT_FOUND -> throw new IllegalStateException("NOT_FOUND has no trade_status");
        };
    }
}
