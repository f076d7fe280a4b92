package io.paynotify.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code next}/{@code after} cursor of every list of the APIs (the admin lists and the merchant's
 * {@code GET /api/v1/events}): base64url (no padding) of {@code v1:<list>:<last id>}. Keyset pagination on an
 * identity column: a list continues after the row of that id, so rows that arrive between two pages neither repeat
 * nor push older rows out of the walk. The version prefix lets a later format coexist with cursors clients have
 * stored; the list name keeps a cursor of one list from being replayed on another.
 */
public final class KeysetCursor {

    /** Longer input is refused before decoding (a cursor of this format is at most ~40 characters). */
    private static final int MAX_LENGTH = 64;

    private KeysetCursor() {}

    /** The cursor that continues {@code list} (lower-case letters) after the row with this id. */
    public static String encode(String list, long id) {
        String text = "v1:" + list + ":" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The id a cursor of {@code list} continues after (0 and up, written without leading zeros), or -1 when the
     * text is not such a cursor: each API answers that with its own 400 naming {@code after}.
     */
    public static long decode(String list, String cursor) {
        if (cursor == null || cursor.isEmpty() || cursor.length() > MAX_LENGTH) {
            return -1;
        }
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            return -1;
        }
        String prefix = "v1:" + list + ":";
        if (!text.startsWith(prefix)) {
            return -1;
        }
        String digits = text.substring(prefix.length());
        if (digits.isEmpty() || digits.length() > 19 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return -1;
        }
        long id = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (id > (Long.MAX_VALUE - (c - '0')) / 10) {
                return -1;
            }
            id = id * 10 + (c - '0');
        }
        return id;
    }
}
