package io.paynotify.http;

/**
 * Thrown by a JAX-RS resource of {@code /admin} (or {@code /api}) to answer with a problem; {@link ProblemMappers}
 * renders it. Carries no cause and no stack trace: it is a control-flow value, not an error.
 */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.title(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
