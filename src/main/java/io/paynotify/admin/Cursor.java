package io.paynotify.admin;

import io.paynotify.http.KeysetCursor;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;

/** The admin lists' use of {@link KeysetCursor}: an absent cursor starts the list, a bad one is a 400 problem. */
final class Cursor {

    private Cursor() {}

    /** The cursor that continues {@code list} after the row with this id. */
    static String encode(String list, long id) {
        return KeysetCursor.encode(list, id);
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
        long id = KeysetCursor.decode(list, cursor);
        if (id < 1) {
            throw new ProblemException(Problem.invalid("after", "after is not a cursor returned by this list"));
        }
        return id;
    }
}
