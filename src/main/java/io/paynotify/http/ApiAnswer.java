package io.paynotify.http;

/**
 * One complete answer of {@code /api}: status, content type and the exact body bytes. The idempotency layer stores
 * and replays answers in this form, byte for byte.
 *
 * @param status the HTTP status code
 * @param contentType the Content-Type header value
 * @param body the body bytes, never null
 */
public record ApiAnswer(int status, String contentType, byte[] body) {

    /** An answer with a JSON body. */
    public static ApiAnswer json(int status, byte[] body) {
        return new ApiAnswer(status, "application/json", body);
    }

    @Override
    public String toString() {
        // bodies may carry personal data: never in a log line
        return "ApiAnswer[" + status + ", " + contentType + ", " + body.length + " bytes]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ApiAnswer a
                && a.status == status
                && a.contentType.equals(contentType)
                && java.util.Arrays.equals(a.body, body);
    }

    @Override
    public int hashCode() {
        return 31 * status + java.util.Arrays.hashCode(body);
    }
}
