package io.paynotify.core.money;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CONTRACT.md §1 "amount compared": WeChat ^[0-9]{1,10}$ fen, Alipay ^[0-9]{1,9}(\.[0-9]{1,2})?$ yuan, ASCII only. */
class MinorUnitsTest {

    @ParameterizedTest
    @CsvSource({"1,1", "0,0", "101,101", "0101,101", "9999999999,9999999999", "0000000001,1"})
    void wechatFen(String text, long fen) {
        assertEquals(fen, MinorUnits.parseWechatFen(text));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " 1",
                "1 ",
                "+1",
                "-1",
                "1.0",
                "1E+5000000",
                "1e3",
                "１００",
                "١٠٠",
                "0x10",
                "10000000000",
                "99999999999",
                "1_000",
                "1,000",
                "\u00a01"
            })
    void wechatFenRefusesAnythingElse(String text) {
        assertNull(MinorUnits.parseWechatFen(text));
    }

    @Test
    void wechatFenRefusesNull() {
        assertNull(MinorUnits.parseWechatFen(null));
    }

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
        assertEquals(fen, MinorUnits.parseAlipayYuan(text));
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
        assertNull(MinorUnits.parseAlipayYuan(text));
    }

    @Test
    void alipayYuanRefusesNull() {
        assertNull(MinorUnits.parseAlipayYuan(null));
    }

    @Test
    void hugeExponentsAreRefusedWithoutScaling() {
        // BigDecimal("1E+5000000").setScale(2) takes seconds (THREATS.md AMT-04); the pattern runs first
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            for (int i = 0; i < 1000; i++) {
                assertNull(MinorUnits.parseAlipayYuan("1E+5000000"));
                assertNull(MinorUnits.parseWechatFen("1E+5000000"));
            }
        });
    }

    @Test
    void maximumOrderAmountIsTenBillionFen() {
        assertEquals(10_000_000_000L, MinorUnits.MAX_ORDER_AMOUNT);
        // the Alipay maximum expresses it exactly; the WeChat pattern stops one digit short
        assertEquals(MinorUnits.MAX_ORDER_AMOUNT, MinorUnits.parseAlipayYuan("100000000.00"));
        assertNull(MinorUnits.parseWechatFen(Long.toString(MinorUnits.MAX_ORDER_AMOUNT)));
    }
}
