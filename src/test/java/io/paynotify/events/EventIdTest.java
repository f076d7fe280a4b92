package io.paynotify.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Event ids: {@code evt_} + 26 characters of [0-9A-Za-z], unique, every character equally likely. */
@Tag("unit")
class EventIdTest {

    private static final Pattern ID = Pattern.compile("evt_[0-9A-Za-z]{26}");

    @Test
    void idsHaveTheContractShapeAreUniqueAndUseEveryCharacterEvenly() {
        var outbox = new EventOutbox(null, null, null);
        var seen = new HashSet<String>();
        int[] counts = new int[128];
        int ids = 100_000;
        for (int i = 0; i < ids; i++) {
            String id = outbox.newId();
            assertTrue(ID.matcher(id).matches(), id);
            assertTrue(seen.add(id), "unique");
            for (int j = 4; j < id.length(); j++) {
                counts[id.charAt(j)]++;
            }
        }
        int min = Integer.MAX_VALUE;
        int max = 0;
        int used = 0;
        for (int c = 0; c < counts.length; c++) {
            if (counts[c] > 0) {
                used++;
                min = Math.min(min, counts[c]);
                max = Math.max(max, counts[c]);
            }
        }
        assertEquals(62, used, "every character of [0-9A-Za-z] appears");
        // 2.6 million characters, about 41,900 each (one standard deviation is about 0.5 %): a modulo bias would
        // make eight characters 25 % more frequent
        assertTrue(max < min * 1.1, "min " + min + ", max " + max);
    }
}
