package io.paynotify.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hand-written shape checks decide exactly as the regular expressions they replaced. */
@Tag("unit")
class FieldsTest {

    private static final Pattern TOKEN = Pattern.compile("[\\x21-\\x7E]{1,64}");
    private static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{1,8}");
    private static final char[] ALPHABET = {
        0, 0x1F, ' ', '!', 'A', 'Z', 'a', 'z', '@', '[', '`', '{', '~', 0x7F, 0x80, 'é', '中', '\uD83D', '\uDE00', '0',
        '9'
    };

    @Test
    void sameAnswersAsTheRegularExpressions() {
        Random random = new Random(14);
        for (int round = 0; round < 200_000; round++) {
            int length = random.nextInt(round % 2 == 0 ? 10 : 140);
            var sb = new StringBuilder(length);
            boolean plain = random.nextBoolean();
            for (int i = 0; i < length; i++) {
                sb.append(plain ? (char) ('A' + random.nextInt(26)) : ALPHABET[random.nextInt(ALPHABET.length)]);
            }
            String s = sb.toString();
            assertEquals(TOKEN.matcher(s).matches(), Fields.isToken(s), s);
            assertEquals(s.matches("[\\x21-\\x7E]{1,128}"), Fields.isVisibleAscii(s, 128), s);
            assertEquals(CURRENCY.matcher(s).matches() ? s : "INVALID", Fields.currencyOrInvalid(s), s);
        }
        assertEquals(false, Fields.isToken(null));
        assertEquals("INVALID", Fields.currencyOrInvalid(null));
    }
}
