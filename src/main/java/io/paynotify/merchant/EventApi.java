package io.paynotify.merchant;

import io.paynotify.config.ClientCredentials;
import io.paynotify.http.ApiAnswer;
import io.paynotify.http.KeysetCursor;
import io.paynotify.idempotency.IdempotencyKeys;
import io.paynotify.persistence.EventRow;
import io.paynotify.persistence.Events;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code GET /api/v1/events?after=&limit=} (docs/api.md "Pulling events"): the merchant events of this client's channels, oldest
 * first, for merchants who poll instead of receiving webhooks. {@code 200 {"items":[event…],"next":cursor}}: the
 * items are the stored event JSON bytes verbatim, and {@code next} is never null — at the end it is the cursor to
 * poll with later, and the items stay empty until new events exist.
 *
 * <p>The list never skips an event: one is listed only once every transaction that could still insert an earlier
 * one (a lower id) has ended ({@link Events#pull}), so a cursor that went past an id never has an event with a lower
 * id commit behind it.
 *
 * <p>The query is parsed strictly: only {@code after} and {@code limit}, each at most once, each with a value;
 * anything else is 400 (naming the parameter, or {@code query}). A GET carries no body (400 naming {@code body}).
 */
@ApplicationScoped
public class EventApi {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final Transactions transactions;

    @Inject
    public EventApi(Transactions transactions) {
        this.transactions = transactions;
    }

    /** The parsed query: continue after this internal id (0: from the beginning), at most this many items. */
    record Query(long after, int limit) {

        /** Parses the raw query string (as on the request line, without the {@code ?}), or null for none. */
        static Query parse(String raw) throws InvalidRequest {
            long after = 0;
            int limit = DEFAULT_LIMIT;
            if (raw == null || raw.isEmpty()) {
                return new Query(after, limit);
            }
            boolean seenAfter = false;
            boolean seenLimit = false;
            for (String part : raw.split("&", -1)) {
                int eq = part.indexOf('=');
                String name = eq < 0 ? part : part.substring(0, eq);
                String value = eq < 0 ? null : ApiPaths.decode(part.substring(eq + 1));
                switch (name) {
                    case "after" -> {
                        if (seenAfter) {
                            throw new InvalidRequest("after", "after may be given once");
                        }
                        seenAfter = true;
                        after = EventCursor.decode(value);
                    }
                    case "limit" -> {
                        if (seenLimit) {
                            throw new InvalidRequest("limit", "limit may be given once");
                        }
                        seenLimit = true;
                        limit = limit(value);
                    }
                    default -> throw new InvalidRequest("query", "the query takes only after and limit");
                }
            }
            return new Query(after, limit);
        }

        private static int limit(String value) throws InvalidRequest {
            if (value == null || !value.matches("[0-9]{1,4}")) {
                throw new InvalidRequest("limit", "limit must be an integer from 1 to " + MAX_LIMIT);
            }
            int limit = Integer.parseInt(value);
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new InvalidRequest("limit", "limit must be an integer from 1 to " + MAX_LIMIT);
            }
            return limit;
        }
    }

    /**
     * The events list's {@link KeysetCursor} ({@code v1:events:<last internal id>}); {@code v1:events:0} is the
     * beginning.
     */
    static final class EventCursor {

        private EventCursor() {}

        static String encode(long id) {
            return KeysetCursor.encode("events", id);
        }

        static long decode(String cursor) throws InvalidRequest {
            long id = KeysetCursor.decode("events", cursor);
            if (id < 0) {
                throw new InvalidRequest("after", "after is not a cursor returned by this list");
            }
            return id;
        }
    }

    /** {@code GET /api/v1/events}: 200 page, 400 naming the bad parameter. */
    IdempotencyKeys.Outcome pull(ClientCredentials client, String rawQuery, byte[] body) {
        ApiAnswer answer;
        try {
            if (body.length > 0) {
                throw new InvalidRequest("body", "this call takes no body");
            }
            Query q = Query.parse(rawQuery);
            List<String> channels = List.copyOf(client.channels());
            List<EventRow> rows =
                    transactions.autoCommit(c -> Events.pull(c, channels, client.subMerchants(), q.after(), q.limit()));
            long last = rows.isEmpty() ? q.after() : rows.get(rows.size() - 1).id();
            answer = ApiAnswer.json(200, page(rows, EventCursor.encode(last)));
        } catch (InvalidRequest e) {
            answer = e.problem().toAnswer();
        }
        return new IdempotencyKeys.Outcome(answer, false, null);
    }

    /** {@code {"items":[…],"next":"…"}} with each item the stored event bytes, unchanged. */
    static byte[] page(List<EventRow> rows, String next) {
        int size = 32 + next.length();
        for (EventRow r : rows) {
            size += r.body().length + 1;
        }
        var out = new ByteArrayOutputStream(size);
        out.writeBytes("{\"items\":[".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(rows.get(i).body());
        }
        // the cursor is base64url: nothing in it needs escaping
        out.writeBytes(("],\"next\":\"" + next + "\"}").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
