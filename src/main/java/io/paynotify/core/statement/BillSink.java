package io.paynotify.core.statement;

/** Where a reader hands each detail line, in the bill's order, as it reads them. */
@FunctionalInterface
public interface BillSink {

    /** One detail line; an exception thrown here stops the reading. */
    void line(BillLine line) throws Exception;
}
