package io.paynotify.core.money;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** WeChat's amounts as compared with the order: ^[0-9]{1,10}$ fen, ASCII only. */
@Tag("unit")
class MinorUnitsTest {

    @ParameterizedTest
    @CsvSource({"1,1", "0,0", "101,101", "0101,101", "9999999999,9999999999", "0000000001,1"})
    void fen(String text, long fen) {
        assertEquals(fen, MinorUnits.parseFen(text));
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
    void fenRefusesAnythingElse(String text) {
        assertNull(MinorUnits.parseFen(text));
    }

    @Test
    void fenRefusesNull() {
        assertNull(MinorUnits.parseFen(null));
    }

    @Test
    void hugeExponentsAreRefused() {
        assertNull(MinorUnits.parseFen("1E+5000000"));
    }

    @Test
    void maximumOrderAmountIsTenBillionFen() {
        assertEquals(10_000_000_000L, MinorUnits.MAX_ORDER_AMOUNT);
        // the WeChat pattern stops one digit short of the maximum
        assertNull(MinorUnits.parseFen(Long.toString(MinorUnits.MAX_ORDER_AMOUNT)));
    }
}
