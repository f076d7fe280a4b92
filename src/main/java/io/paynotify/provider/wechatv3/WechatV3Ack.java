package io.paynotify.provider.wechatv3;

import io.paynotify.provider.AckResponse;
import io.paynotify.provider.NotifyAdapter;
import java.nio.charset.StandardCharsets;

/**
 * The v3 acknowledgements of docs/api.md "Notify API": {@code 204} with no body and no content type, or
 * {@code {"code":"FAIL","message":"<reason>"}} as {@code application/json} with the status code. WeChat decides on
 * the status alone (a 200 with FAIL counts as received by WeChat Pay v3), so a failure is never a 2xx.
 */
final class WechatV3Ack {

    static final String CONTENT_TYPE = "application/json";

    static final AckResponse SUCCESS = new AckResponse(204, null, new byte[0]);

    private WechatV3Ack() {}

    static AckResponse failure(int status) {
        // the reason texts are fixed ASCII without quotes or backslashes: no escaping needed
        String body = "{\"code\":\"FAIL\",\"message\":\"" + NotifyAdapter.reasonText(status) + "\"}";
        return new AckResponse(status, CONTENT_TYPE, body.getBytes(StandardCharsets.US_ASCII));
    }
}
