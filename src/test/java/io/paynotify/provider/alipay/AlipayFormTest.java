package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The form decoder on its own: the body's charset decides, whichever way its name is written. */
@Tag("unit")
class AlipayFormTest {

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void decodesEachPartOnceInTheBodysCharset() throws Exception {
        var d = AlipayForm.decode(ascii("charset=utf-8&subject=%E6%B5%8B+a%2Bb%26c%3D&sign=ab%2B%3D%3D"));
        assertEquals(StandardCharsets.UTF_8, d.charset());
        assertEquals("测 a+b&c=", d.params().get("subject"));
        assertEquals("ab+==", d.params().get("sign"));
    }

    @Test
    void aPercentEncodedCharsetNameIsRefusedNotSilentlyReadAsGbk() {
        assertThrows(AlipayForm.Malformed.class, () -> AlipayForm.decode(ascii("%63harset=utf-8&subject=x")));
        assertThrows(AlipayForm.Malformed.class, () -> AlipayForm.decode(ascii("charset=utf-8&%63harset=gbk")));
    }

    @Test
    void absentCharsetMeansGbk() throws Exception {
        var d = AlipayForm.decode(ascii("subject=%B2%E2%CA%D4"));
        assertEquals("GBK", d.charset().name());
        assertEquals("测试", d.params().get("subject"));
    }
}
