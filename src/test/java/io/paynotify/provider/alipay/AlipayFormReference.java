package io.paynotify.provider.alipay;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The form decoder as it was before the notification path moved to byte ranges ({@link AlipayForm}), kept as the
 * reference the differential test holds the new one to. Its text below is unchanged.
 *
 * <p>Decodes an Alipay form body from its raw bytes with the body's own {@code charset} field (Alipay's
 * charset rules, and its known pitfalls: GBK bodies, double decoding, decoding before splitting, {@code +} in
 * {@code sign}): split on {@code &} and {@code =} first, then percent-decode each part exactly once
 * ({@code +} is a space), then decode the bytes strictly in that charset. A parameter given twice, a bad escape
 * or malformed bytes are refused.
 */
final class AlipayFormReference {

    /** Thrown for anything that is not a well-formed form in a supported charset. */
    static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }

    /** The decoded parameters, in body order, and the charset they were decoded with. */
    record Decoded(Map<String, String> params, Charset charset) {}

    private AlipayFormReference() {}

    static Decoded decode(byte[] body) throws Malformed {
        // works on the bytes in place (no String per part, no split): this decoding used to cost as much as the
        // RSA verification itself (JFR, bench/ issue 6). Same rules as ever: parts split on '&', the first '='
        // ends the name, each side percent-decoded once, then decoded strictly in the charset.
        int parts = 1;
        for (byte x : body) {
            if (x == '&') {
                parts++;
            }
        }
        // one scan records where each part ends and where its first '=' is (-1: none)
        int[] ends = new int[parts];
        int[] eqs = new int[parts];
        int p = 0;
        int eq = -1;
        for (int i = 0; i < body.length; i++) {
            byte x = body[i];
            if (x == '&') {
                ends[p] = i;
                eqs[p++] = eq;
                eq = -1;
            } else if (x == '=' && eq < 0) {
                eq = i;
            }
        }
        ends[p] = body.length;
        eqs[p] = eq;

        byte[] scratch = new byte[body.length];
        String charsetValue = null;
        for (int k = 0, start = 0; k < parts; start = ends[k++] + 1) {
            int e = eqs[k];
            if (rawEquals(body, start, e < 0 ? ends[k] : e, CHARSET_NAME)) {
                if (charsetValue != null) {
                    throw new Malformed();
                }
                int n = e < 0 ? 0 : unescape(body, e + 1, ends[k], scratch);
                charsetValue = new String(scratch, 0, n, StandardCharsets.ISO_8859_1);
            }
        }
        Charset charset = charset(charsetValue);
        var params = new LinkedHashMap<String, String>(parts * 2);
        for (int k = 0, start = 0; k < parts; start = ends[k++] + 1) {
            int end = ends[k];
            if (end > start) {
                int e = eqs[k];
                String key = text(body, start, e < 0 ? end : e, scratch, charset);
                String value = e < 0 ? "" : text(body, e + 1, end, scratch, charset);
                if (key.isEmpty() || params.putIfAbsent(key, value) != null) {
                    throw new Malformed();
                }
            }
        }
        if (charsetValue == null && params.containsKey("charset")) {
            // the name was percent-encoded (%63harset), so the pre-pass chose GBK without seeing it: refuse rather
            // than decode every value in a charset the body did not ask for
            throw new Malformed();
        }
        return new Decoded(params, charset);
    }

    private static final byte[] CHARSET_NAME = "charset".getBytes(StandardCharsets.US_ASCII);

    private static boolean rawEquals(byte[] a, int from, int to, byte[] expected) {
        return to - from == expected.length && Arrays.equals(a, from, to, expected, 0, expected.length);
    }

    /** Percent-decodes body[from, to) and decodes the bytes strictly; a NUL anywhere is refused. */
    private static String text(byte[] body, int from, int to, byte[] scratch, Charset charset) throws Malformed {
        int n = 0;
        int or = 0;
        boolean nul = false;
        for (int i = from; i < to; i++) {
            byte c = body[i];
            if (c == '+') {
                c = ' ';
            } else if (c == '%') {
                if (i + 2 >= to) {
                    throw new Malformed();
                }
                c = (byte) (hex(body[i + 1]) << 4 | hex(body[i + 2]));
                i += 2;
            }
            or |= c;
            nul |= c == 0;
            scratch[n++] = c;
        }
        if (nul) {
            throw new Malformed();
        }
        if (or >= 0) {
            // no byte has its high bit set: both accepted charsets (UTF-8, GBK) map ASCII to itself
            return new String(scratch, 0, n, StandardCharsets.ISO_8859_1);
        }
        return strict(scratch, n, charset);
    }

    /** utf-8/utf8 → UTF-8, gbk/gb2312 → GBK, absent → GBK (Alipay's fallback), anything else refused. */
    static Charset charset(String value) throws Malformed {
        if (value == null) {
            return Charset.forName("GBK");
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "utf-8", "utf8" -> StandardCharsets.UTF_8;
            case "gbk", "gb2312" -> Charset.forName("GBK");
            default -> throw new Malformed();
        };
    }

    /** Percent-decodes body[from, to) into out ({@code +} is a space); returns the decoded length. */
    private static int unescape(byte[] body, int from, int to, byte[] out) throws Malformed {
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = body[i];
            if (c == '+') {
                out[n++] = ' ';
            } else if (c == '%') {
                if (i + 2 >= to) {
                    throw new Malformed();
                }
                out[n++] = (byte) (hex(body[i + 1]) << 4 | hex(body[i + 2]));
                i += 2;
            } else {
                out[n++] = c;
            }
        }
        return n;
    }

    private static int hex(byte c) throws Malformed {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        throw new Malformed();
    }

    private static String strict(byte[] bytes, int length, Charset charset) throws Malformed {
        try {
            String s = charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length))
                    .toString();
            if (s.indexOf('\0') >= 0) {
                throw new Malformed();
            }
            return s;
        } catch (CharacterCodingException e) {
            throw new Malformed();
        }
    }
}
