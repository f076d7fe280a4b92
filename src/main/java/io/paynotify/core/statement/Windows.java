package io.paynotify.core.statement;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Beijing days and the windows of the missing-at-provider rules (CONTRACT.md §11): a payment of day D is looked for
 * in the bills of D−1 … D+hold, a WeChat refund that succeeded on day D in D … D+hold; each is evaluated once every
 * day of its window is settled, so bills reconciled in any order give the same differences.
 */
public final class Windows {

    /** UTC+08:00, fixed. */
    public static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);

    /** 23:30 Beijing time: a day's retries stop, and a NO_BILL with local activity stops counting as NOT_READY. */
    public static final LocalTime RETRIES_END = LocalTime.of(23, 30);

    private Windows() {}

    /** The Beijing day of an instant. */
    public static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, BEIJING);
    }

    /** 00:00 Beijing time of a day. */
    public static Instant start(LocalDate day) {
        return day.atStartOfDay().toInstant(BEIJING);
    }

    /** 23:30 Beijing time of a day. */
    public static Instant retriesEnd(LocalDate day) {
        return day.atTime(RETRIES_END).toInstant(BEIJING);
    }

    /** The days whose bills a payment of day {@code d} may appear in: D−1 … D+hold. */
    public static List<LocalDate> paymentWindow(LocalDate d, int hold) {
        return range(d.minusDays(1), d.plusDays(hold));
    }

    /** The days whose bills a WeChat refund that succeeded on day {@code d} may appear in: D … D+hold. */
    public static List<LocalDate> refundWindow(LocalDate d, int hold) {
        return range(d, d.plusDays(hold));
    }

    /** The payment days D whose window holds {@code reconciled}: reconciling it may settle them. */
    public static List<LocalDate> paymentDaysDependingOn(LocalDate reconciled, int hold) {
        return range(reconciled.minusDays(hold), reconciled.plusDays(1));
    }

    /** The refund days D whose window holds {@code reconciled}. */
    public static List<LocalDate> refundDaysDependingOn(LocalDate reconciled, int hold) {
        return range(reconciled.minusDays(hold), reconciled);
    }

    /** {@code from} … {@code to}, both included. */
    public static List<LocalDate> range(LocalDate from, LocalDate to) {
        var days = new ArrayList<LocalDate>();
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            days.add(d);
        }
        return days;
    }
}
