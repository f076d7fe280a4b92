package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hand-written {@link AlipayFormats#yuanToFen} reads exactly what the regular expression it replaced read. */
@Tag("unit")
class AlipayYuanTest {

    private static final Pattern YUAN = Pattern.compile("([0-9]{1,9})(?:\\.([0-9]{1,2}))?");

    static Long byRegex(String text) {
        if (text == null) {
            return null;
        }
        var m = YUAN.matcher(text);
        if (!m.matches()) {
            return null;
        }
        long yuan = Long.parseLong(m.group(1));
        String frac = m.group(2);
        long fen = 0;
        if (frac != null) {
            fen = frac.length() == 1 ? (frac.charAt(0) - '0') * 10L : Long.parseLong(frac);
        }
        return yuan * 100 + fen;
    }

    @Test
    void sameAsTheRegularExpression() {
        char[] alphabet = {'0', '1', '5', '9', '.', '-', '+', 'e', ' ', '١', '０', 'a'};
        Random random = new Random(3);
        for (int round = 0; round < 300_000; round++) {
            int length = random.nextInt(14);
            var sb = new StringBuilder();
            for (int i = 0; i < length; i++) {
                sb.append(
                        random.nextInt(4) == 0
                                ? alphabet[random.nextInt(alphabet.length)]
                                : (char) ('0' + random.nextInt(10)));
            }
            String s = sb.toString();
            assertEquals(byRegex(s), AlipayFormats.yuanToFen(s), s);
        }
        assertEquals(null, AlipayFormats.yuanToFen(null));
        assertEquals(999_999_999_99L, AlipayFormats.yuanToFen("999999999.99"));
    }
}
