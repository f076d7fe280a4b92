package io.paynotify.admin;

/**
 * An RFC 9457 problem answered by the admin API (rendered by {@link AdminProblemMapper}). Its detail is a fixed
 * text naming a parameter, never a value from the request.
 */
public final class AdminProblem extends RuntimeException {

    private final int status;
    private final String title;
    private final String detail;
    private final String field;

    AdminProblem(int status, String title, String detail, String field) {
        super(title, null, false, false);
        this.status = status;
        this.title = title;
        this.detail = detail;
        this.field = field;
    }

    /** 400 naming the offending query parameter. */
    static AdminProblem badRequest(String field, String what) {
        return new AdminProblem(400, "Bad Request", field + " " + what, field);
    }

    /** 404 for a resource that does not exist. */
    static AdminProblem notFound(String detail) {
        return new AdminProblem(404, "Not Found", detail, null);
    }

    /** 503: PostgreSQL did not answer in time. */
    static AdminProblem unavailable() {
        return new AdminProblem(503, "Service Unavailable", "the database did not answer in time", null);
    }

    int status() {
        return status;
    }

    ProblemJson toJson() {
        return new ProblemJson("about:blank", title, status, detail, field);
    }
}
