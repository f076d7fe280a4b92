package io.paynotify.core.statement;

import java.math.BigDecimal;
import java.time.LocalDateTime;

/**
 * One detail line of a bill, provider-neutral, as a reader found it by its column names.
 *
 * @param type payment, refund or other
 * @param outTradeNo {@code 商户订单号}
 * @param transactionId {@code 微信订单号} / {@code 支付宝交易号}
 * @param outRefundNo on a refund line {@code 商户退款单号} / {@code 退款批次号/请求号}, else null
 * @param amount fen: a payment's {@code 订单金额} (older {@code 总金额}; Alipay {@code 订单金额（元）}), a refund's
 *     {@code 申请退款金额} (older {@code 退款金额}; Alipay the refund line's amount), without its sign; 0 on other lines
 * @param fee the line's fee in yuan with its sign, null when unreadable
 * @param time {@code 交易时间} / {@code 完成时间} in Beijing time, null when the bill has none
 * @param appId WeChat {@code 公众账号ID}, null on Alipay
 * @param subMerchantId WeChat {@code 特约商户号} (null for {@code 0}, a direct trade), null on Alipay
 * @param status {@code 交易状态} or, on a WeChat refund line, {@code 退款状态}; Alipay {@code 业务类型}
 */
public record BillLine(
        LineType type,
        String outTradeNo,
        String transactionId,
        String outRefundNo,
        long amount,
        BigDecimal fee,
        LocalDateTime time,
        String appId,
        String subMerchantId,
        String status) {}
