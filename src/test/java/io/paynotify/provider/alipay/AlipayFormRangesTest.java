package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The byte-range decoder ({@link AlipayForm}) against the decoder it replaced ({@link AlipayFormReference}) over
 * random bodies: the same bodies refused; the same parameters, in the same order; every lookup the same; and the
 * signed content assembled from the ranges byte-for-byte the old {@code AlipaySignature.content(params)} in the
 * charset.
 */
@Tag("unit")
class AlipayFormRangesTest {

    private static final String[] PIECES = {
        "charset=utf-8",
        "charset=UTF8",
        "charset=gbk",
        "charset=latin1",
        "charset=",
        "%63harset=gbk",
        "sign=ab%2B%3D%3D",
        "sign_type=RSA2",
        "sign_typ=x",
        "signa=1",
        "sig=2",
        "a=",
        "=b",
        "",
        "a",
        "%",
        "%4",
        "%41=%41",
        "%E6%B5%8B=1",
        "k=%E6%B5%8B+x",
        "k2=%B2%E2%CA%D4",
        "k3=%FF%FE",
        "k4=%00",
        "k5=a%00",
        "%00=1",
        "k6=+",
        "k7=%2B%26%3D",
        "out_trade_no=A1",
        "out%5Ftrade_no=A2",
        "out_trade_no=",
        "trade_status=TRADE_SUCCESS",
        "total_amount=1.00",
        "notify_id=n1",
        "Z=1",
        "_=2",
        "a b=3",
        "%C3%A9=4",
        "%EF%BF%BF=5",
        "%F0%9F%98%80=6",
        "%ED%A0%80=7",
        "%E4%B8%AD%E6%96%87=8",
        "\u4e2d=raw",
        "v=\u00e9",
        "x=1=2",
        "%7E=t",
        "~=u"
    };

    @Test
    void sameAnswersAsTheDecoderItReplaced() throws Exception {
        Random random = new Random(1403);
        int accepted = 0;
        for (int round = 0; round < 30_000; round++) {
            int parts = random.nextInt(8);
            var body = new ByteArrayOutputStream();
            List<String> chosen = new ArrayList<>();
            for (int i = 0; i < parts; i++) {
                chosen.add(PIECES[random.nextInt(PIECES.length)]);
            }
            if (random.nextInt(3) > 0) {
                chosen.add(random.nextInt(chosen.size() + 1), random.nextBoolean() ? "charset=utf-8" : "charset=gbk");
            }
            for (int i = 0; i < chosen.size(); i++) {
                if (i > 0) {
                    body.writeBytes(
                            random.nextInt(20) == 0 ? "&&".getBytes(StandardCharsets.US_ASCII) : new byte[] {'&'});
                }
                body.writeBytes(chosen.get(i)
                        .getBytes(
                                random.nextBoolean()
                                        ? StandardCharsets.UTF_8
                                        : java.nio.charset.Charset.forName("GBK")));
            }
            accepted += compare(body.toByteArray()) ? 1 : 0;
        }
        assertTrue(accepted > 3000, "enough bodies must decode: " + accepted);
    }

    @Test
    void theDocumentedNoticeAndTheEdgeCases() throws Exception {
        for (String body : List.of(
                "charset=utf-8&subject=%E6%B5%8B+a%2Bb%26c%3D&sign=ab%2B%3D%3D",
                "%63harset=utf-8&subject=x",
                "charset=utf-8&%63harset=gbk",
                "subject=%B2%E2%CA%D4",
                "",
                "&",
                "sign=x&sign_type=RSA2",
                "b=2&a=1&c=&sign=s&%E6%B5%8B=%E6%B5%8B&charset=utf-8")) {
            compare(body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** True when the old decoder accepted the body. */
    private static boolean compare(byte[] body) throws Exception {
        String at = new String(body, StandardCharsets.ISO_8859_1);
        AlipayFormReference.Decoded old;
        try {
            old = AlipayFormReference.decode(body);
        } catch (AlipayFormReference.Malformed e) {
            assertThrows(AlipayForm.Malformed.class, () -> AlipayForm.decode(body), at);
            return false;
        }
        AlipayForm.Decoded now;
        try {
            now = AlipayForm.decode(body);
        } catch (AlipayForm.Malformed e) {
            throw new AssertionError("refused what the old decoder read: " + at);
        }
        assertEquals(old.charset(), now.charset(), at);
        assertEquals(
                new ArrayList<>(old.params().entrySet()),
                new ArrayList<>(now.params().entrySet()),
                at);
        for (Map.Entry<String, String> e : old.params().entrySet()) {
            assertEquals(e.getValue(), now.get(e.getKey()), at);
        }
        for (String absent : List.of("", "a0", "out_trade_no", "sign", "zz", "\u4e2d", "charset")) {
            assertEquals(old.params().get(absent), now.get(absent), at);
        }
        assertArrayEquals(AlipaySignature.content(old.params()).getBytes(old.charset()), now.signedContent(), at);
        return true;
    }
}
