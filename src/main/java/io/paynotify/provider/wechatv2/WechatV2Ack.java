package io.paynotify.provider.wechatv2;

import io.paynotify.provider.AckResponse;
import io.paynotify.provider.NotifyAdapter;
import java.nio.charset.StandardCharsets;

/** The v2 acknowledgements of docs/api.md "Notify API": 200 with the SUCCESS XML, or the FAIL XML with the status code. */
final class WechatV2Ack {

    static final String CONTENT_TYPE = "application/xml";

    static final AckResponse SUCCESS = new AckResponse(
            200,
            CONTENT_TYPE,
            bytes("<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>"));

    private WechatV2Ack() {}

    static AckResponse failure(int status) {
        return new AckResponse(
                status,
                CONTENT_TYPE,
                bytes("<xml><return_code><![CDATA[FAIL]]></return_code><return_msg><![CDATA["
                        + NotifyAdapter.reasonText(status) + "]]></return_msg></xml>"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
