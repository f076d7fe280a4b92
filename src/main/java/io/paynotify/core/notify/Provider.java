package io.paynotify.core.notify;

/** The payment providers a channel can belong to; the names are the configuration values of docs/operations.md "Configuration". */
public enum Provider {
    WECHATPAY_V2,
    WECHATPAY_V3,
    ALIPAY
}
