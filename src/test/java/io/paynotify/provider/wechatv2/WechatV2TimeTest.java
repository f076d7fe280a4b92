package io.paynotify.provider.wechatv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.TimeZone;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** WeChat Pay v2 times: time_end is Beijing time (UTC+08:00), whatever the JVM's zone. */
@Tag("unit")
class WechatV2TimeTest {

    @Test
    void timeEndIsBeijingTime() {
        assertEquals(Instant.parse("2014-09-03T05:15:40Z"), WechatV2Adapter.time("20140903131540"));
        // midnight in Beijing is the previous day in UTC
        assertEquals(Instant.parse("2025-12-31T16:00:00Z"), WechatV2Adapter.time("20260101000000"));
        assertEquals(Instant.parse("2024-02-28T16:00:00Z"), WechatV2Adapter.time("20240229000000"));
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
    void malformedTimesAreNull(String text) {
        assertNull(WechatV2Adapter.time(text));
    }

    @Test
    void nullIsNull() {
        assertNull(WechatV2Adapter.time(null));
    }

    @Test
    void theJvmDefaultZoneIsNeverUsed() {
        TimeZone saved = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
            assertEquals(Instant.parse("2014-09-03T05:15:40Z"), WechatV2Adapter.time("20140903131540"));
        } finally {
            TimeZone.setDefault(saved);
        }
    }
}
