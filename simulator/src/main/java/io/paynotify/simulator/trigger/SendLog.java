package io.paynotify.simulator.trigger;

import java.io.PrintStream;

/** Prints each send (what went, what came back, whether that is what paynotify should answer) and counts them. */
public final class SendLog {

    private final PrintStream out;
    private final Provider provider;
    private int sends;
    private int asExpected;

    public SendLog(PrintStream out, Provider provider) {
        this.out = out;
        this.provider = provider;
    }

    /** Prints one send and returns whether the answer is the expected one. */
    public boolean record(Notice notice, Answer answer, Expectation expected) {
        sends++;
        boolean ok = expected.matches(provider, answer);
        if (ok) {
            asExpected++;
        }
        out.println("  [" + sends + "] POST " + notice.path() + "  (" + notice.contentType() + ", "
                + notice.body().length + " bytes)");
        out.println("      sent:     " + notice.what());
        out.println("      answer:   " + answer.summary());
        out.println("      " + (ok ? "expected: " : "UNEXPECTED, wanted: ") + expected.describe(provider) + " - "
                + expected.why());
        return ok;
    }

    /** Prints a send whose answer is judged elsewhere (a retry): what went and what came back. */
    public void recordAttempt(Notice notice, Answer answer, boolean conforming, String note) {
        sends++;
        if (conforming) {
            asExpected++;
        }
        out.println("  [" + sends + "] POST " + notice.path() + "  (" + notice.contentType() + ", "
                + notice.body().length + " bytes)");
        out.println("      sent:     " + notice.what());
        out.println("      answer:   " + answer.summary());
        out.println("      " + note);
    }

    public int sends() {
        return sends;
    }

    public boolean allAsExpected() {
        return sends == asExpected;
    }

    /** The closing line. */
    public String summary() {
        return sends + " sent, " + asExpected + " answered as expected";
    }
}
