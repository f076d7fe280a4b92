package io.paynotify.simulator.trigger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AlipayNoticesTest {

    @Test
    void yuanHasTwoDecimals() {
        assertEquals("0.01", AlipayNotices.yuan(1));
        assertEquals("42.00", AlipayNotices.yuan(4200));
        assertEquals("100000000.00", AlipayNotices.yuan(10_000_000_000L));
    }
}
