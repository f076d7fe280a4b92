package io.paynotify.core.statement;

import java.math.BigDecimal;

/**
 * A bill's totals as its lines are read (CONTRACT.md §11 admin statement JSON): the channel's payments and refunds
 * (count and fen), the lines of trades that are not the channel's ({@code foreign}), and the fees of every line,
 * summed exactly with their signs. Not thread-safe: one reader fills it.
 */
public final class StatementTotals {

    public long paymentCount;
    public long paymentAmount;
    public long refundCount;
    public long refundAmount;
    public long foreignCount;
    public long foreignAmount;
    public long otherCount;
    public BigDecimal fees = BigDecimal.ZERO.setScale(5);

    /** Counts one line: foreign lines only in {@code foreign}; every readable fee in {@code fees}. */
    public void add(BillLine line, boolean foreign) {
        if (line.fee() != null) {
            fees = fees.add(line.fee());
        }
        if (foreign) {
            foreignCount++;
            foreignAmount += line.amount();
            return;
        }
        switch (line.type()) {
            case PAYMENT -> {
                paymentCount++;
                paymentAmount += line.amount();
            }
            case REFUND -> {
                refundCount++;
                refundAmount += line.amount();
            }
            case OTHER -> otherCount++;
        }
    }
}
