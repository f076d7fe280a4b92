package io.paynotify.provider.alipay;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Decodes an Alipay form body from its raw bytes with the body's own {@code charset} field (PROTOCOLS.md §3.1,
 * pitfalls P13, P14, P16, P23): split on {@code &} and {@code =} first, then percent-decode each part exactly once
 * ({@code +} is a space), then decode the bytes strictly in that charset. A parameter given twice, a bad escape
 * or malformed bytes are refused.
 */
final class AlipayForm {

    /** Thrown for anything that is not a well-formed form in a supported charset. */
    static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }

    /** The decoded parameters, in body order, and the charset they were decoded with. */
    record Decoded(Map<String, String> params, Charset charset) {}

    private AlipayForm() {}

    static Decoded decode(byte[] body) throws Malformed {
        String[] parts = new String(body, StandardCharsets.ISO_8859_1).split("&", -1);
        String charsetValue = null;
        for (String part : parts) {
            int eq = part.indexOf('=');
            String key = eq < 0 ? part : part.substring(0, eq);
            if ("charset".equals(key)) {
                if (charsetValue != null) {
                    throw new Malformed();
                }
                charsetValue = new String(unescape(eq < 0 ? "" : part.substring(eq + 1)), StandardCharsets.ISO_8859_1);
            }
        }
        Charset charset = charset(charsetValue);
        var params = new LinkedHashMap<String, String>();
        for (String part : parts) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String key = strict(unescape(eq < 0 ? part : part.substring(0, eq)), charset);
            String value = eq < 0 ? "" : strict(unescape(part.substring(eq + 1)), charset);
            if (key.isEmpty() || params.putIfAbsent(key, value) != null) {
                throw new Malformed();
            }
        }
        return new Decoded(params, charset);
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

    private static byte[] unescape(String s) throws Malformed {
        var out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new Malformed();
                }
                int hi = hex(s.charAt(i + 1));
                int lo = hex(s.charAt(i + 2));
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    private static int hex(char c) throws Malformed {
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

    private static String strict(byte[] bytes, Charset charset) throws Malformed {
        try {
            String s = charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
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
