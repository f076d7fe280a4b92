package io.paynotify.provider.alipay;

import io.paynotify.provider.Utf8;
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
 * Decodes an Alipay form body from its raw bytes with the body's own {@code charset} field (Alipay's
 * charset rules, and its known pitfalls: GBK bodies, double decoding, decoding before splitting, {@code +} in
 * {@code sign}): split on {@code &} and {@code =} first, then percent-decode each part exactly once
 * ({@code +} is a space), then decode the bytes strictly in that charset. A parameter given twice, a bad escape
 * or malformed bytes are refused.
 *
 * <p>The parameters stay byte ranges of one percent-decoded buffer, sorted by name: the signed content is assembled
 * from those ranges ({@link Decoded#signedContent()}), and a {@code String} is made only for a value the mapping
 * asks for ({@link Decoded#get}). Only a non-ASCII part is decoded to text up front, because strict decoding is
 * what refuses malformed bytes.
 */
final class AlipayForm {

    /** Thrown for anything that is not a well-formed form in a supported charset. */
    static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }

    private static final Charset GBK = Charset.forName("GBK");
    private static final byte[] CHARSET_NAME = "charset".getBytes(StandardCharsets.US_ASCII);

    private AlipayForm() {}

    /**
     * The decoded parameters and the charset they were decoded with. Parameter {@code i} (in body order) has its
     * name at {@code buf[keyOff[i], keyOff[i] + keyLen[i])} and its value likewise; {@code keyText}/{@code valText}
     * hold the strictly decoded text of a non-ASCII part (and cache the values made on demand).
     */
    static final class Decoded {
        private final byte[] buf;
        private final int count;
        private final int[] keyOff;
        private final int[] keyLen;
        private final int[] valOff;
        private final int[] valLen;
        /** Non-null for a non-ASCII name; for every name when {@link #asciiKeys} is false. */
        private final String[] keyText;
        /** Non-null for a non-ASCII value, or once {@link #get} has made it. */
        private final String[] valText;
        /** The name / value had a byte above 0x7F (it enters the signed content as its text encoded). */
        private final boolean[] keyWide;

        private final boolean[] valWide;
        /** Parameter indexes sorted by name (String order, which is byte order for ASCII names). */
        private final int[] sorted;
        /** Every name is ASCII: names compare as bytes. */
        private final boolean asciiKeys;
        /** With ASCII names, each name's first 8 bytes, big-endian. */
        private final long[] prefix;

        private final Charset charset;

        private Decoded(
                byte[] buf,
                int count,
                int[] keyOff,
                int[] keyLen,
                int[] valOff,
                int[] valLen,
                String[] keyText,
                String[] valText,
                boolean[] keyWide,
                boolean[] valWide,
                boolean asciiKeys,
                Charset charset)
                throws Malformed {
            this.buf = buf;
            this.count = count;
            this.keyOff = keyOff;
            this.keyLen = keyLen;
            this.valOff = valOff;
            this.valLen = valLen;
            this.keyText = keyText;
            this.valText = valText;
            this.keyWide = keyWide;
            this.valWide = valWide;
            this.asciiKeys = asciiKeys;
            this.charset = charset;
            if (!asciiKeys) {
                for (int i = 0; i < count; i++) {
                    if (keyText[i] == null) {
                        keyText[i] = new String(buf, keyOff[i], keyLen[i], StandardCharsets.ISO_8859_1);
                    }
                }
            }
            long[] prefix = null;
            if (asciiKeys) {
                // the first 8 bytes of each name as one number (zero-padded: ASCII names hold no NUL, so a shorter
                // name sorts first, as in String order): most comparisons end there, although names share prefixes
                prefix = new long[count];
                for (int i = 0; i < count; i++) {
                    long v = 0;
                    int n = Math.min(8, keyLen[i]);
                    for (int j = 0; j < 8; j++) {
                        v = v << 8 | (j < n ? buf[keyOff[i] + j] : 0);
                    }
                    prefix[i] = v;
                }
            }
            this.prefix = prefix;
            int[] order = new int[count];
            // insertion sort: a notice has about 25 parameters, already partly in order
            for (int i = 0; i < count; i++) {
                int j = i;
                while (j > 0 && compareKeys(order[j - 1], i) > 0) {
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = i;
            }
            for (int i = 1; i < count; i++) {
                if (compareKeys(order[i - 1], order[i]) == 0) {
                    throw new Malformed(); // a parameter given twice (after decoding)
                }
            }
            this.sorted = order;
        }

        Charset charset() {
            return charset;
        }

        /** The parameter's value, or null when absent. */
        String get(String name) {
            int i = find(name);
            return i < 0 ? null : value(i);
        }

        private String value(int i) {
            String v = valText[i];
            if (v == null) {
                v = new String(buf, valOff[i], valLen[i], StandardCharsets.ISO_8859_1);
                valText[i] = v;
            }
            return v;
        }

        /** Every parameter by name, in body order. */
        Map<String, String> params() {
            var out = new LinkedHashMap<String, String>(count * 2);
            for (int i = 0; i < count; i++) {
                String k = keyText[i] != null
                        ? keyText[i]
                        : new String(buf, keyOff[i], keyLen[i], StandardCharsets.ISO_8859_1);
                out.put(k, value(i));
            }
            return out;
        }

        /**
         * The V1 signed content as bytes, exactly {@code AlipaySignature.content(params()).getBytes(charset())}:
         * every parameter but {@code sign} and {@code sign_type}, empty values dropped, sorted by name, joined
         * {@code k=v&...}. ASCII parts are copied from the decoded buffer; a non-ASCII part is its text encoded in
         * the charset, as before.
         */
        byte[] signedContent() {
            // a non-ASCII name or value enters as its text encoded in the charset (as the String content did);
            // encoded[2i] / encoded[2i + 1] hold those of parameter i, made once
            byte[][] encoded = null;
            int sign = find("sign");
            int signType = find("sign_type");
            int length = -1;
            for (int s = 0; s < count; s++) {
                int i = sorted[s];
                if (valLen[i] == 0 || i == sign || i == signType) {
                    continue; // the V1 content: no empty value, neither sign nor sign_type
                }
                if (keyWide[i] || valWide[i]) {
                    if (encoded == null) {
                        encoded = new byte[2 * count][];
                    }
                    encoded[2 * i] = keyWide[i] ? keyText[i].getBytes(charset) : null;
                    encoded[2 * i + 1] = valWide[i] ? valText[i].getBytes(charset) : null;
                }
                length += 2 + pieceLength(encoded, 2 * i, keyLen[i]) + pieceLength(encoded, 2 * i + 1, valLen[i]);
            }
            byte[] out = new byte[Math.max(0, length)];
            int at = 0;
            for (int s = 0; s < count; s++) {
                int i = sorted[s];
                if (valLen[i] == 0 || i == sign || i == signType) {
                    continue; // the V1 content: no empty value, neither sign nor sign_type
                }
                if (at > 0) {
                    out[at++] = '&';
                }
                at = copy(encoded, 2 * i, keyOff[i], keyLen[i], out, at);
                out[at++] = '=';
                at = copy(encoded, 2 * i + 1, valOff[i], valLen[i], out, at);
            }
            return out;
        }

        private static int pieceLength(byte[][] encoded, int slot, int decodedLength) {
            byte[] e = encoded == null ? null : encoded[slot];
            return e == null ? decodedLength : e.length;
        }

        private int copy(byte[][] encoded, int slot, int off, int len, byte[] out, int at) {
            byte[] e = encoded == null ? null : encoded[slot];
            if (e != null) {
                System.arraycopy(e, 0, out, at, e.length);
                return at + e.length;
            }
            System.arraycopy(buf, off, out, at, len);
            return at + len;
        }

        /** The index of the parameter with this name, or -1 (binary search over the sorted names). */
        private int find(String name) {
            long p = asciiKeys ? prefix(name) : 0;
            int lo = 0;
            int hi = count - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int i = sorted[mid];
                int c = !asciiKeys
                        ? keyText[i].compareTo(name)
                        : prefix[i] != p ? (prefix[i] < p ? -1 : 1) : compareKey(i, name);
                if (c < 0) {
                    lo = mid + 1;
                } else if (c > 0) {
                    hi = mid - 1;
                } else {
                    return i;
                }
            }
            return -1;
        }

        /** A name's first 8 chars as {@link #prefix} holds them; 0xFF..., above every ASCII prefix, for others. */
        private static long prefix(String name) {
            long v = 0;
            int n = Math.min(8, name.length());
            for (int j = 0; j < 8; j++) {
                char c = j < n ? name.charAt(j) : 0;
                if (c > 0x7F) {
                    return -1L >>> 1; // a non-ASCII name sorts after every ASCII one and matches none
                }
                v = v << 8 | c;
            }
            return v;
        }

        /** An ASCII name against a name, in String order. */
        private int compareKey(int i, String name) {
            int off = keyOff[i];
            int len = keyLen[i];
            int n = Math.min(len, name.length());
            for (int j = 0; j < n; j++) {
                int d = buf[off + j] - name.charAt(j);
                if (d != 0) {
                    return d;
                }
            }
            return len - name.length();
        }

        private int compareKeys(int a, int b) {
            if (!asciiKeys) {
                return keyText[a].compareTo(keyText[b]);
            }
            if (prefix[a] != prefix[b]) {
                return prefix[a] < prefix[b] ? -1 : 1; // ASCII: the sign bit is never set
            }
            int oa = keyOff[a];
            int ob = keyOff[b];
            int n = Math.min(keyLen[a], keyLen[b]);
            for (int j = 0; j < n; j++) {
                int d = buf[oa + j] - buf[ob + j];
                if (d != 0) {
                    return d;
                }
            }
            return keyLen[a] - keyLen[b];
        }
    }

    static Decoded decode(byte[] body) throws Malformed {
        // works on the bytes in place (no String per part, no split): this decoding used to cost as much as the
        // RSA verification itself (JFR, bench/ issue 6). Same rules as ever: parts split on '&', the first '='
        // ends the name, each side percent-decoded once, then decoded strictly in the charset.
        // one scan records where each part ends, where its first '=' is (-1: none) and whether it needs more than
        // a copy (an escape, a '+' or a byte with its high bit set); a NUL byte anywhere is refused (every byte but
        // the separators belongs to a name or a value)
        int[] ends = new int[32];
        int[] eqs = new int[32];
        boolean[] plain = new boolean[32];
        int p = 0;
        int eq = -1;
        int special = 0;
        boolean nul = false;
        for (int i = 0; i < body.length; i++) {
            byte x = body[i];
            if (x == '&') {
                if (p + 1 == ends.length) {
                    ends = Arrays.copyOf(ends, 2 * p);
                    eqs = Arrays.copyOf(eqs, 2 * p);
                    plain = Arrays.copyOf(plain, 2 * p);
                }
                ends[p] = i;
                eqs[p] = eq;
                plain[p++] = special == 0;
                eq = -1;
                special = 0;
            } else if (x == '=' && eq < 0) {
                eq = i;
            } else if (x == '%' || x == '+' || x <= 0) {
                special = 1;
                nul |= x == 0;
            }
        }
        ends[p] = body.length;
        eqs[p] = eq;
        plain[p] = special == 0;
        int parts = p + 1;
        if (nul) {
            throw new Malformed();
        }

        byte[] buf = new byte[body.length];
        String charsetValue = null;
        for (int k = 0, start = 0; k < parts; start = ends[k++] + 1) {
            int e = eqs[k];
            if (rawEquals(body, start, e < 0 ? ends[k] : e, CHARSET_NAME)) {
                if (charsetValue != null) {
                    throw new Malformed();
                }
                int n = e < 0 ? 0 : unescape(body, e + 1, ends[k], buf, 0);
                charsetValue = new String(buf, 0, n, StandardCharsets.ISO_8859_1);
            }
        }
        Charset charset = charset(charsetValue);

        int[] keyOff = new int[parts];
        int[] keyLen = new int[parts];
        int[] valOff = new int[parts];
        int[] valLen = new int[parts];
        String[] keyText = new String[parts];
        String[] valText = new String[parts];
        boolean[] keyWide = new boolean[parts];
        boolean[] valWide = new boolean[parts];
        boolean asciiKeys = true;
        int count = 0;
        int pos = 0;
        for (int k = 0, start = 0; k < parts; start = ends[k++] + 1) {
            int end = ends[k];
            if (end > start) {
                int e = eqs[k];
                if (plain[k]) {
                    // ASCII without escapes: the decoded part is the raw part
                    int keyEnd = e < 0 ? end : e;
                    if (keyEnd == start) {
                        throw new Malformed(); // an empty name
                    }
                    keyOff[count] = pos;
                    keyLen[count] = keyEnd - start;
                    System.arraycopy(body, start, buf, pos, keyEnd - start);
                    pos += keyEnd - start;
                    int valueStart = e < 0 ? end : e + 1;
                    valOff[count] = pos;
                    valLen[count] = end - valueStart;
                    System.arraycopy(body, valueStart, buf, pos, end - valueStart);
                    pos += end - valueStart;
                    count++;
                    continue;
                }
                int n = unescapeChecked(body, start, e < 0 ? end : e, buf, pos);
                if (n == 0) {
                    throw new Malformed(); // an empty name
                }
                keyOff[count] = pos;
                keyLen[count] = n;
                if (n < 0) {
                    n = -n;
                    keyLen[count] = n;
                    keyText[count] = strict(buf, pos, n, charset);
                    keyWide[count] = true;
                    asciiKeys = false;
                }
                pos += n;
                n = e < 0 ? 0 : unescapeChecked(body, e + 1, end, buf, pos);
                valOff[count] = pos;
                valLen[count] = Math.abs(n);
                if (n < 0) {
                    n = -n;
                    valText[count] = strict(buf, pos, n, charset);
                    valWide[count] = true;
                }
                pos += n;
                count++;
            }
        }
        var decoded = new Decoded(
                buf, count, keyOff, keyLen, valOff, valLen, keyText, valText, keyWide, valWide, asciiKeys, charset);
        if (charsetValue == null && decoded.find("charset") >= 0) {
            // the name was percent-encoded (%63harset), so the pre-pass chose GBK without seeing it: refuse rather
            // than decode every value in a charset the body did not ask for
            throw new Malformed();
        }
        return decoded;
    }

    private static boolean rawEquals(byte[] a, int from, int to, byte[] expected) {
        return to - from == expected.length && Arrays.equals(a, from, to, expected, 0, expected.length);
    }

    /**
     * Percent-decodes body[from, to) into out at {@code at}; a NUL anywhere is refused. Returns the decoded length,
     * negated when a byte has its high bit set (the part must then be decoded strictly; both accepted charsets,
     * UTF-8 and GBK, map ASCII to itself).
     */
    private static int unescapeChecked(byte[] body, int from, int to, byte[] out, int at) throws Malformed {
        // the scan has refused a raw NUL already: only an escape can still make one
        int n = at;
        int or = 0;
        for (int i = from; i < to; i++) {
            byte c = body[i];
            if (c == '%') {
                if (i + 2 >= to) {
                    throw new Malformed();
                }
                c = (byte) (hex(body[i + 1]) << 4 | hex(body[i + 2]));
                if (c == 0) {
                    throw new Malformed();
                }
                i += 2;
            } else if (c == '+') {
                c = ' ';
            }
            or |= c;
            out[n++] = c;
        }
        return or >= 0 ? n - at : at - n;
    }

    /** utf-8/utf8 → UTF-8, gbk/gb2312 → GBK, absent → GBK (Alipay's fallback), anything else refused. */
    static Charset charset(String value) throws Malformed {
        if (value == null) {
            return GBK;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "utf-8", "utf8" -> StandardCharsets.UTF_8;
            case "gbk", "gb2312" -> GBK;
            default -> throw new Malformed();
        };
    }

    /** Percent-decodes body[from, to) into out at {@code at} ({@code +} is a space); returns the decoded length. */
    private static int unescape(byte[] body, int from, int to, byte[] out, int at) throws Malformed {
        int n = at;
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
        return n - at;
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

    private static String strict(byte[] bytes, int offset, int length, Charset charset) throws Malformed {
        if (charset == StandardCharsets.UTF_8) {
            // well-formed UTF-8 decodes to exactly what the strict decoder returns; no decoder object per part.
            // The bytes hold no NUL (refused before), and only a NUL byte decodes to U+0000 in UTF-8.
            if (!Utf8.isWellFormed(bytes, offset, length)) {
                throw new Malformed();
            }
            return new String(bytes, offset, length, StandardCharsets.UTF_8);
        }
        try {
            String s = charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length))
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
