package io.paynotify.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Staged lines travel in COPY's text format: every value that could break a row or a column is escaped. */
@Tag("unit")
class StatementLinesTest {

    @Test
    void copyValuesEscapeBackslashTabNewlineAndReturnAndNullIsBackslashN() {
        assertEquals("\\N", StatementLines.value(null));
        assertEquals("", StatementLines.value(""));
        assertEquals("ST123", StatementLines.value("ST123"));
        assertEquals("a\\\\b\\tc\\nd\\re", StatementLines.value("a\\b\tc\nd\re"));
        assertEquals("\\\\N", StatementLines.value("\\N"), "the text \\N is not a null");
        assertEquals("退款\\t成功", StatementLines.value("退款\t成功"));
    }
}
