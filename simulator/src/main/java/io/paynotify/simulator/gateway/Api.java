package io.paynotify.simulator.gateway;

/** The three provider query APIs the gateway imitates. */
public enum Api {
    /** WeChat Pay API v2: {@code POST /pay/orderquery}, signed XML. */
    WECHATPAY_V2,
    /** WeChat Pay API v3: {@code GET /v3/pay/transactions/out-trade-no/{no}?mchid=…}, RSA-signed both ways. */
    WECHATPAY_V3,
    /** Alipay: {@code POST /gateway.do} with {@code method=alipay.trade.query}, RSA2-signed both ways. */
    ALIPAY
}
