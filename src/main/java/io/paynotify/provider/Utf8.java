package io.paynotify.provider;

/**
 * Well-formed UTF-8 (RFC 3629: no overlong form, no encoded surrogate, nothing above U+10FFFF), checked on bytes.
 * For such bytes, {@code new String(bytes, UTF_8)} is exactly what a strict ({@code REPORT}) decoder returns, without
 * a decoder object per call.
 */
public final class Utf8 {

    private Utf8() {}

    /**
     * The code point of the well-formed sequence of two to four bytes starting at {@code b[i]} (a byte with its
     * high bit set) and ending before {@code end}, or -1.
     */
    public static int codePoint(byte[] b, int i, int end) {
        int c = b[i] & 0xFF;
        if (c >= 0xC2 && c <= 0xDF) {
            return i + 1 < end && cont(b[i + 1]) ? (c & 0x1F) << 6 | (b[i + 1] & 0x3F) : -1;
        }
        if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= end || !cont(b[i + 1]) || !cont(b[i + 2])) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F)) {
                return -1;
            }
            return (c & 0x0F) << 12 | (c1 & 0x3F) << 6 | (b[i + 2] & 0x3F);
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= end || !cont(b[i + 1]) || !cont(b[i + 2]) || !cont(b[i + 3])) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F)) {
                return -1;
            }
            return (c & 0x07) << 18 | (c1 & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | (b[i + 3] & 0x3F);
        }
        return -1;
    }

    /** The byte length of the sequence whose code point {@link #codePoint} returned. */
    public static int length(int codePoint) {
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }

    /** True when {@code b[off, off + len)} is well-formed UTF-8. */
    public static boolean isWellFormed(byte[] b, int off, int len) {
        int end = off + len;
        for (int i = off; i < end; ) {
            if (b[i] >= 0) {
                i++;
                continue;
            }
            int cp = codePoint(b, i, end);
            if (cp < 0) {
                return false;
            }
            i += length(cp);
        }
        return true;
    }

    private static boolean cont(byte x) {
        return (x & 0xC0) == 0x80;
    }
}
