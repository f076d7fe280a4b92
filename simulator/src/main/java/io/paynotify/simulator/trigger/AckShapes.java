package io.paynotify.simulator.trigger;

import java.util.regex.Pattern;

/** The acknowledgement bodies of docs/api.md#notify-api, recognised exactly where the contract fixes them. */
final class AckShapes {

    /** The one success body a v2 notice may get. */
    static final String V2_SUCCESS =
            "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>";

    /** A v3 failure body: {@code {"code":"FAIL","message":"reason"}}, the reason at most 32 ASCII characters. */
    private static final Pattern V3_FAIL = Pattern.compile(
            "\\{\\s*\"code\"\\s*:\\s*\"FAIL\"\\s*,\\s*\"message\"\\s*:\\s*\"[\\x20-\\x7e&&[^\"\\\\]]{1,32}\"\\s*}");

    private AckShapes() {}

    /** Whether a v2 answer's {@code return_code} is {@code code}, written with or without CDATA. */
    static boolean isV2Code(String body, String code) {
        return body.contains("<return_code><![CDATA[" + code + "]]></return_code>")
                || body.contains("<return_code>" + code + "</return_code>");
    }

    static boolean isV2Failure(String body) {
        return body.startsWith("<xml>") && isV2Code(body, "FAIL");
    }

    static boolean isV3Failure(String body) {
        return V3_FAIL.matcher(body).matches();
    }
}
