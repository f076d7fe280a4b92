package io.paynotify.simulator.trigger;

/**
 * What paynotify should answer to one notification, per docs/api.md#notify-api: its success ack, or a failure ack with a
 * given status; {@code why} names the rule, for the person reading the output.
 */
public record Expectation(boolean success, int status, String why) {

    /** The provider's success ack. */
    public static Expectation successAck(String why) {
        return new Expectation(true, 0, why);
    }

    /** The provider's failure ack with this status (400, 401, 404, 413, 422 or 503). */
    public static Expectation failureAck(int status, String why) {
        return new Expectation(false, status, why);
    }

    /** The expected answer as the provider's wire format spells it. */
    public String describe(Provider provider) {
        if (success) {
            return switch (provider) {
                case WECHATPAY_V2 -> "200 with the SUCCESS XML";
                case WECHATPAY_V3 -> "204 with an empty body";
                case ALIPAY -> "200 with the body 'success'";
            };
        }
        return switch (provider) {
            case WECHATPAY_V2 -> status + " with a FAIL XML";
            case WECHATPAY_V3 -> status + " with {\"code\":\"FAIL\",...}";
            case ALIPAY -> status + " with the body 'fail'";
        };
    }

    /** Whether {@code answer} is exactly this expectation for {@code provider}. */
    public boolean matches(Provider provider, Answer answer) {
        if (!answer.arrived()) {
            return false;
        }
        String type = answer.contentType().toLowerCase(java.util.Locale.ROOT);
        String body = answer.body();
        if (success) {
            return switch (provider) {
                case WECHATPAY_V2 ->
                    answer.status() == 200 && type.startsWith("application/xml") && body.equals(AckShapes.V2_SUCCESS);
                case WECHATPAY_V3 -> answer.status() == 204 && body.isEmpty();
                case ALIPAY -> answer.status() == 200 && type.startsWith("text/plain") && body.equals("success");
            };
        }
        if (answer.status() != status) {
            return false;
        }
        return switch (provider) {
            case WECHATPAY_V2 -> AckShapes.isV2Failure(body);
            case WECHATPAY_V3 -> type.startsWith("application/json") && AckShapes.isV3Failure(body);
            case ALIPAY -> body.equals("fail");
        };
    }
}
