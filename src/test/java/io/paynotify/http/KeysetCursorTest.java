package io.paynotify.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one cursor codec of every list: round trips, and anything else is refused (-1), never an exception. */
@Tag("unit")
class KeysetCursorTest {

    static String b64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aCursorRoundTripsOnItsOwnListOnly() {
        for (long id : new long[] {0, 1, 42, Long.MAX_VALUE}) {
            assertEquals(id, KeysetCursor.decode("orders", KeysetCursor.encode("orders", id)));
            assertEquals(-1, KeysetCursor.decode("events", KeysetCursor.encode("orders", id)));
        }
        assertEquals("djE6ZXZlbnRzOjA", KeysetCursor.encode("events", 0), "the merchants' stored cursors stay valid");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "v1:orders:",
                "v1:orders:01",
                "v1:orders:-1",
                "v1:orders:+1",
                "v1:orders:1a",
                "v2:orders:1",
                "v1:orders:9223372036854775808",
                "v1:orders:99999999999999999999",
                "v1:orders:1:2",
                "V1:orders:1"
            })
    void anythingElseIsRefused(String text) {
        assertEquals(-1, KeysetCursor.decode("orders", b64(text)), text);
    }

    @Test
    void malformedBase64AndOversizedInputAreRefused() {
        assertEquals(-1, KeysetCursor.decode("orders", "!!!"));
        assertEquals(-1, KeysetCursor.decode("orders", ""));
        assertEquals(-1, KeysetCursor.decode("orders", null));
        assertEquals(-1, KeysetCursor.decode("orders", "A".repeat(65)));
    }
}
