package io.paynotify.provider;

/** A rendered provider acknowledgement: status, content type (null for no body) and the exact body bytes. */
public record AckResponse(int status, String contentType, byte[] body) {}
