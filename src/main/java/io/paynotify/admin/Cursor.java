package io.paynotify.admin;

import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The opaque {@code next}/{@code after} cursor of the admin lists: base64url (no padding) of
 * {@code v1:<list>:<last id>}. Keyset pagination on the identity column: a newest-first list continues with
 * {@code id < after}, an oldest-first list with {@code id > after}, so rows that arrive between two pages neither
 * repeat nor push older rows out of the walk. The version prefix lets a later format coexist with old cursors; the
 * list name keeps a cursor of one list from being replayed on another.
 */
final class Cursor {

    /** Longer input is refused before decoding (a cursor of this format is at most ~40 characters). */
    private static final int MAX_LENGTH = 64;

    private static final Pattern FORMAT = Pattern.compile("v1:([a-z]{1,16}):([1-9][0-9]{0,18})");

    private Cursor() {}

    /** The cursor that continues {@code list} after the row with this id. */
    static String encode(String list, long id) {
        String text = "v1:" + list + ":" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The id a cursor continues after, or null when none was given.
     *
     * @throws ProblemException 400 when the cursor is malformed or belongs to another list
     */
    static Long decode(String list, String cursor) {
        if (cursor == null) {
            return null;
        }
        if (cursor.isEmpty() || cursor.length() > MAX_LENGTH) {
            throw malformed();
        }
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            throw malformed();
        }
        Matcher m = FORMAT.matcher(text);
        if (!m.matches() || !m.group(1).equals(list)) {
            throw malformed();
        }
        try {
            return Long.parseLong(m.group(2));
        } catch (NumberFormatException e) {
            throw malformed();
        }
    }

    private static ProblemException malformed() {
        return new ProblemException(Problem.invalid("after", "after is not a cursor returned by this list"));
    }
}
