package io.paynotify.simulator.trigger;

/**
 * What paynotify answered to one notification: status, Content-Type (empty when absent) and body as text; or, with
 * status 0, the transport error that kept any answer from arriving.
 */
public record Answer(int status, String contentType, String body, String error) {

    public static Answer of(int status, String contentType, String body) {
        return new Answer(status, contentType == null ? "" : contentType, body == null ? "" : body, null);
    }

    public static Answer failed(String error) {
        return new Answer(0, "", "", error);
    }

    public boolean arrived() {
        return error == null;
    }

    /** One line for a terminal: status, type and the body cut to 160 characters. */
    public String summary() {
        if (!arrived()) {
            return "no answer: " + error;
        }
        String shown = body.length() > 160 ? body.substring(0, 160) + "..." : body;
        return status
                + (contentType.isEmpty() ? "" : " " + contentType)
                + (shown.isEmpty() ? " (empty body)" : "  " + shown);
    }
}
