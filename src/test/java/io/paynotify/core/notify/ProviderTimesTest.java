package io.paynotify.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** CONTRACT.md §1 "times": v2 time_end and Alipay gmt_payment are Beijing time (UTC+08:00), v3 has its offset. */
class ProviderTimesTest {

    @Test
    void wechatV2IsBeijingTime() {
        assertEquals(Instant.parse("2014-09-03T05:15:40Z"), ProviderTimes.wechatV2("20140903131540"));
        // midnight in Beijing is the previous day in UTC
        assertEquals(Instant.parse("2025-12-31T16:00:00Z"), ProviderTimes.wechatV2("20260101000000"));
        assertEquals(Instant.parse("2024-02-28T16:00:00Z"), ProviderTimes.wechatV2("20240229000000"));
    }

    @Test
    void alipayIsBeijingTime() {
        assertEquals(Instant.parse("2016-07-19T06:10:47Z"), ProviderTimes.alipay("2016-07-19 14:10:47"));
        assertEquals(Instant.parse("2026-01-02T03:04:05Z"), ProviderTimes.alipay("2026-01-02 11:04:05"));
    }

    @Test
    void rfc3339KeepsItsOwnOffset() {
        assertEquals(Instant.parse("2015-05-20T05:29:35Z"), ProviderTimes.rfc3339("2015-05-20T13:29:35+08:00"));
        assertEquals(Instant.parse("2015-05-20T13:29:35Z"), ProviderTimes.rfc3339("2015-05-20T13:29:35Z"));
        assertEquals(Instant.parse("2015-05-20T18:29:35Z"), ProviderTimes.rfc3339("2015-05-20T13:29:35-05:00"));
        assertNull(ProviderTimes.rfc3339("2015-05-20T13:29:35"));
        assertNull(ProviderTimes.rfc3339(null));
        assertNull(ProviderTimes.rfc3339("x".repeat(41)));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "2014090313154",
                "201409031315400",
                "20140231131540",
                "20141303131540",
                "20140903251540",
                "2014-09-03 13:15",
                "2014090313154x",
                "２０１４０９０３１３１５４０",
                "20230229000000"
            })
    void malformedWechatV2TimesAreNull(String text) {
        assertNull(ProviderTimes.wechatV2(text));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "2016-07-19",
                "2016-07-19T14:10:47",
                "2016-07-19 14:10:47.0",
                "2016-02-30 14:10:47",
                "2016-07-19 24:10:47",
                "2016/07/19 14:10:47",
                "2016-07-19  14:10:4",
                "20160719141047"
            })
    void malformedAlipayTimesAreNull(String text) {
        assertNull(ProviderTimes.alipay(text));
    }

    @Test
    void nullIsNull() {
        assertNull(ProviderTimes.wechatV2(null));
        assertNull(ProviderTimes.alipay(null));
    }

    @Test
    void theJvmDefaultZoneIsNeverUsed() {
        TimeZone saved = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
            assertEquals(Instant.parse("2014-09-03T05:15:40Z"), ProviderTimes.wechatV2("20140903131540"));
            assertEquals(Instant.parse("2016-07-19T06:10:47Z"), ProviderTimes.alipay("2016-07-19 14:10:47"));
        } finally {
            TimeZone.setDefault(saved);
        }
    }
}
