package io.paynotify.core.query;

/** Why a query gave no verified answer; a fixed set, so it can label metrics and logs. */
public enum QueryError {
    /** No answer within the 5 s budget (connect and answer). */
    TIMEOUT,
    /** The connection failed or broke, or the answer was larger than allowed. */
    TRANSPORT,
    /** An HTTP status the provider does not use for an answer (a 5xx, an unexpected 4xx). */
    HTTP_STATUS,
    /** The answer's signature or ids failed their check (the answer is never applied). */
    VERIFICATION,
    /** The answer could not be read, or lacks a field this section requires. */
    MALFORMED,
    /** A well-formed error answer of the provider (WeChat return_code FAIL, Alipay error_response, …). */
    PROVIDER_ERROR,
    /**
     * Nothing was sent: the channel holds no confirmed credential for the order (an Alipay ISV merchant without an
     * {@code app_auth_token} that Alipay confirmed valid for it).
     */
    CREDENTIALS
}
