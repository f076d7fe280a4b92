package io.paynotify.merchant;

import io.paynotify.http.Problem;

/** A request field, header or path part that breaks a rule: becomes a 400 problem naming it. No stack trace. */
final class InvalidRequest extends Exception {

    final String field;
    final String detail;

    InvalidRequest(String field, String detail) {
        super(field, null, false, false);
        this.field = field;
        this.detail = detail;
    }

    Problem problem() {
        return Problem.invalid(field, detail);
    }
}
