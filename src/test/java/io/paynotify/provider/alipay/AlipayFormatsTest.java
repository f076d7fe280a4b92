package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.paynotify.core.money.MinorUnits;
import java.time.Duration;
import java.time.Instant;
import java.util.TimeZone;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Alipay amounts ^[0-9]{1,9}(\.[0-9]{1,2})?$ yuan to fen exactly, ASCII only; times in Beijing. */
@Tag("unit")
class AlipayFormatsTest {

    @ParameterizedTest
    @CsvSource({
        "0.01,1",
        "0.1,10",
        "1,100",
        "178,17800",
        "178.2,17820",
        "42.00,4200",
        "460.00,46000",
        "100000000.00,10000000000",
        "999999999.99,99999999999",
        "0,0",
        "0.00,0",
        "000000001.01,101"
    })
    void alipayYuan(String text, long fen) {
        assertEquals(fen, AlipayFormats.yuanToFen(text));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                ".5",
                "1.",
                "1.001",
                "1,000.00",
                "1e2",
                "1E+5000000",
                "-1.00",
                "+1.00",
                " 1.00",
                "1.00 ",
                "１.00",
                "1.０",
                "1000000000.00",
                "NaN",
                "Infinity",
                "0x1.0p0",
                "1..0",
                "1.0.0"
            })
    void alipayYuanRefusesAnythingElse(String text) {
        assertNull(AlipayFormats.yuanToFen(text));
    }

    @Test
    void alipayYuanRefusesNull() {
        assertNull(AlipayFormats.yuanToFen(null));
    }

    @Test
    void hugeExponentsAreRefusedWithoutScaling() {
        // BigDecimal("1E+5000000").setScale(2) takes seconds of CPU (an amount-format denial of service); the pattern
        // runs first
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            for (int i = 0; i < 1000; i++) {
                assertNull(AlipayFormats.yuanToFen("1E+5000000"));
            }
        });
    }

    @Test
    void theMaximumOrderAmountIsExpressedExactly() {
        assertEquals(MinorUnits.MAX_ORDER_AMOUNT, AlipayFormats.yuanToFen("100000000.00"));
    }

    @Test
    void gmtPaymentIsBeijingTime() {
        assertEquals(Instant.parse("2016-07-19T06:10:47Z"), AlipayFormats.time("2016-07-19 14:10:47"));
        assertEquals(Instant.parse("2026-01-02T03:04:05Z"), AlipayFormats.time("2026-01-02 11:04:05"));
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
    void malformedTimesAreNull(String text) {
        assertNull(AlipayFormats.time(text));
    }

    @Test
    void theJvmDefaultZoneIsNeverUsed() {
        TimeZone saved = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
            assertEquals(Instant.parse("2016-07-19T06:10:47Z"), AlipayFormats.time("2016-07-19 14:10:47"));
        } finally {
            TimeZone.setDefault(saved);
        }
        assertNull(AlipayFormats.time(null));
    }
}
