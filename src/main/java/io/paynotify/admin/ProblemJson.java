package io.paynotify.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An RFC 9457 {@code application/problem+json} body of the admin API.
 *
 * @param type always {@code about:blank}: the status says it all
 * @param title the status text
 * @param status the HTTP status
 * @param detail a fixed text naming the offending parameter, never echoing a value
 * @param field the offending query parameter, when there is one
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProblemJson(String type, String title, int status, String detail, String field) {

    /** The media type of every problem answer. */
    public static final String MEDIA_TYPE = "application/problem+json";
}
