package io.paynotify.simulator.gateway;

/**
 * What goes wrong with an answer. A fault that makes no sense for an API (e.g. {@link #WRONG_MCH} on Alipay, whose
 * answer carries no merchant id) is ignored there and the answer is normal.
 */
public enum Fault {
    NONE,
    /** The answer is signed, but with a freshly generated key (v2: another api key) that nobody configured. */
    BAD_SIGNATURE,
    /** No signature at all: no v2 {@code sign}, no v3 {@code Wechatpay-*} headers, no Alipay {@code sign}. */
    UNSIGNED,
    /** HTTP 500 with the HTML error page a provider's front proxy answers with; never signed. */
    HTTP_500,
    /** The normal answer, after {@link ScriptedTrade#delay()}; other requests are answered meanwhile. */
    SLOW,
    /** WeChat: the (correctly signed) answer names another {@code mch_id} / {@code mchid}. */
    WRONG_MCH,
    /** Alipay: the body writes '/' as {@code \/}, while the signature covers the unescaped text, as Alipay does. */
    ESCAPED_SLASHES,
    /** WeChat: a paid (SUCCESS or REFUND) answer without transaction_id, amount and the other payment fields. */
    OMIT_PAYMENT,
    /**
     * The provider's own error format: Alipay {@code error_response} (unsigned), WeChat v2 {@code return_code FAIL},
     * WeChat v3 500 {@code SYSTEM_ERROR} JSON (signed).
     */
    ERROR_RESPONSE
}
