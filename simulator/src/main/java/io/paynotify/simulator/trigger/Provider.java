package io.paynotify.simulator.trigger;

import java.time.Duration;
import java.util.List;

/**
 * The three provider protocols a channel speaks, with the path paynotify receives each on (docs/api.md#notify-api) and the
 * schedule on which the provider re-sends a notice that was not acknowledged (the providers' documented retry schedules).
 */
public enum Provider {
    WECHATPAY_V2("wechatpay", "WeChat Pay v2", Schedules.WECHAT),
    WECHATPAY_V3("wechatpay-v3", "WeChat Pay v3", Schedules.WECHAT),
    ALIPAY("alipay", "Alipay", Schedules.ALIPAY);

    private final String pathSegment;
    private final String displayName;
    private final List<Duration> retrySchedule;

    Provider(String pathSegment, String displayName, List<Duration> retrySchedule) {
        this.pathSegment = pathSegment;
        this.displayName = displayName;
        this.retrySchedule = retrySchedule;
    }

    /** paynotify's notification path for a channel of this provider. */
    public String notifyPath(String channel) {
        return "/notify/" + pathSegment + "/" + channel;
    }

    public String displayName() {
        return displayName;
    }

    /** The waits before the 2nd, 3rd, ... delivery of a notice that was not acknowledged. */
    public List<Duration> retrySchedule() {
        return retrySchedule;
    }

    /**
     * Whether the provider takes this answer as an acknowledgement (and stops re-sending): WeChat v2 wants a 200 with
     * {@code return_code} SUCCESS, WeChat v3 any 200 or 204 (the status decides, not the body), Alipay the body
     * {@code success}.
     */
    public boolean acknowledges(Answer answer) {
        return switch (this) {
            case WECHATPAY_V2 -> answer.status() == 200 && AckShapes.isV2Code(answer.body(), "SUCCESS");
            case WECHATPAY_V3 -> answer.status() == 200 || answer.status() == 204;
            case ALIPAY -> answer.status() == 200 && answer.body().equals("success");
        };
    }

    /** Parses a channel's {@code provider} value as the service's configuration spells it. */
    public static Provider parse(String value) {
        return Provider.valueOf(value.trim());
    }

    private static final class Schedules {
        /** 15s/15s/30s/3m/10m/20m/30m/30m/30m/60m/3h/3h/3h/6h/6h, 24 h 4 min in all (WeChat Pay's documented retry schedule). */
        static final List<Duration> WECHAT = List.of(
                Duration.ofSeconds(15),
                Duration.ofSeconds(15),
                Duration.ofSeconds(30),
                Duration.ofMinutes(3),
                Duration.ofMinutes(10),
                Duration.ofMinutes(20),
                Duration.ofMinutes(30),
                Duration.ofMinutes(30),
                Duration.ofMinutes(30),
                Duration.ofMinutes(60),
                Duration.ofHours(3),
                Duration.ofHours(3),
                Duration.ofHours(3),
                Duration.ofHours(6),
                Duration.ofHours(6));

        /** 4m,10m,10m,1h,2h,6h,15h: 8 deliveries in about 25 h (Alipay's documented retry schedule). */
        static final List<Duration> ALIPAY = List.of(
                Duration.ofMinutes(4),
                Duration.ofMinutes(10),
                Duration.ofMinutes(10),
                Duration.ofHours(1),
                Duration.ofHours(2),
                Duration.ofHours(6),
                Duration.ofHours(15));

        private Schedules() {}
    }
}
