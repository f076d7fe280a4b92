package io.paynotify.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * An RFC 9457 problem detail for {@code /api} and {@code /admin}, rendered as {@code application/problem+json}.
 * {@code detail} and {@code field} are fixed texts written by this service: never an exception message, a class
 * name, a stack trace, a secret or a request body. {@code field} names the offending field, header or path part
 * (an extension member; RFC 9457 §3.2).
 *
 * @param type a URI identifying the problem type ({@code about:blank} when the status says it all)
 * @param title a short summary of the problem type
 * @param status the HTTP status code
 * @param detail what went wrong with this request, or null
 * @param field the offending field, header or path parameter, or null
 */
public record Problem(String type, String title, int status, String detail, String field) {

    /** The media type of every problem answer. */
    public static final String MEDIA_TYPE = "application/problem+json";

    private static final String TYPE_BASE = "https://paynotify.io/problems/";
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * The one 401 answer of {@code /api}, whatever failed: unknown client, stale or future timestamp, bad
     * signature, missing or repeated header. Fixed bytes, so that no check can be told from another.
     */
    public static final Problem UNAUTHENTICATED = new Problem(
            TYPE_BASE + "unauthenticated", "Unauthorized", 401, "The request is not correctly signed.", null);

    /** The one 401 answer of {@code /admin}: no valid bearer token, whatever was wrong with it. */
    public static final Problem ADMIN_UNAUTHENTICATED = new Problem(
            TYPE_BASE + "unauthenticated", "Unauthorized", 401, "A valid admin bearer token is required.", null);

    /** 400: a field, header or path parameter is invalid; {@code field} names it. */
    public static Problem invalid(String field, String detail) {
        return new Problem(TYPE_BASE + "invalid-request", "Invalid request", 400, detail, field);
    }

    /** 403: the client may not use this channel. */
    public static Problem forbidden(String field, String detail) {
        return new Problem(TYPE_BASE + "forbidden", "Forbidden", 403, detail, field);
    }

    /** 404: no such resource. */
    public static Problem notFound(String detail) {
        return new Problem(TYPE_BASE + "not-found", "Not Found", 404, detail, null);
    }

    /** 409: the resource's state forbids the operation. */
    public static Problem conflict(String type, String detail, String field) {
        return new Problem(TYPE_BASE + type, "Conflict", 409, detail, field);
    }

    /** 409: another request with the same Idempotency-Key is still running (never stored). */
    public static Problem inFlight() {
        return new Problem(
                TYPE_BASE + "idempotency-key-in-use",
                "Conflict",
                409,
                "A request with this Idempotency-Key is still running; retry later.",
                "Idempotency-Key");
    }

    /** 422: the Idempotency-Key was first used with another body (never stored). */
    public static Problem mismatch() {
        return new Problem(
                TYPE_BASE + "idempotency-key-reused",
                "Unprocessable Content",
                422,
                "This Idempotency-Key was used with another request body.",
                "Idempotency-Key");
    }

    /**
     * 400 naming {@code body}: the body is over the limit. docs/api.md "Merchant API" answers an invalid request with 400 and the
     * offending field, the body size included; there is no 413 in the merchant API.
     */
    public static Problem tooLarge(int limit) {
        return new Problem(
                TYPE_BASE + "body-too-large", "Bad Request", 400, "The body exceeds " + limit + " bytes.", "body");
    }

    /** 503: the database could not be reached in time; sent with {@code Retry-After}. */
    public static Problem unavailable() {
        return new Problem(
                TYPE_BASE + "unavailable",
                "Service Unavailable",
                503,
                "The database could not be reached in time; retry later.",
                null);
    }

    /** A problem with only a status and its reason phrase. */
    public static Problem status(int status, String title) {
        return new Problem("about:blank", title, status, null, null);
    }

    /** The JSON document, members in a fixed order, UTF-8. */
    public byte[] toJson() {
        var out = new ByteArrayOutputStream(192);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("type", type);
            g.writeStringField("title", title);
            g.writeNumberField("status", status);
            if (detail != null) {
                g.writeStringField("detail", detail);
            }
            if (field != null) {
                g.writeStringField("field", field);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** This problem as an answer. */
    public ApiAnswer toAnswer() {
        return new ApiAnswer(status, MEDIA_TYPE, toJson());
    }
}
