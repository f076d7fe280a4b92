package io.paynotify.simulator.gateway;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One query request the gateway received, whatever became of it.
 *
 * @param api which query API it came to
 * @param outTradeNo the out_trade_no it asked about, or null when the request did not name one readably
 * @param accepted whether it passed the provider's checks (merchant or app known, signature, freshness, headers)
 * @param rejection why it was refused, null when accepted
 * @param headers the request headers, names lower-case (several values of one name joined with ", ")
 * @param params v2: the XML fields; v3: the query parameters; Alipay: the URL query and form parameters together
 * @param receivedAt when the request was read
 */
public record RecordedRequest(
        Api api,
        String outTradeNo,
        boolean accepted,
        String rejection,
        Map<String, String> headers,
        Map<String, String> params,
        Instant receivedAt) {

    public RecordedRequest {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(receivedAt, "receivedAt");
        headers = Map.copyOf(headers);
        params = Map.copyOf(params);
    }
}
