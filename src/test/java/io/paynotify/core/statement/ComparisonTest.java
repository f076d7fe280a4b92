package io.paynotify.core.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.paynotify.core.order.OrderState;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The comparison rules, amounts and windows of CONTRACT.md §11. */
@Tag("unit")
class ComparisonTest {

    static BillLine payment(String sub, String tx, long amount) {
        return new BillLine(
                LineType.PAYMENT, "ORD1", tx, null, amount, null, LocalDateTime.now(), "wx", sub, "SUCCESS");
    }

    static BillLine refund(String status, long amount) {
        return new BillLine(
                LineType.REFUND, "ORD1", "42", "RF1", amount, null, LocalDateTime.now(), "wx", null, status);
    }

    @Test
    void theFirstKindThatAppliesInTheTablesOrder() {
        var paid = new LedgerOrder(OrderState.SUCCESS, 100, "42", "SUB_A");
        assertEquals(DifferenceKind.UNKNOWN_ORDER, Comparison.payment(payment("SUB_A", "42", 100), null, true));
        assertEquals(DifferenceKind.ACCOUNT_MISMATCH, Comparison.payment(payment("SUB_B", "43", 1), paid, true));
        assertEquals(
                DifferenceKind.MISSING_LOCALLY,
                Comparison.payment(
                        payment(null, "43", 1), new LedgerOrder(OrderState.PENDING, 100, null, null), false));
        assertEquals(
                DifferenceKind.MISSING_LOCALLY,
                Comparison.payment(payment(null, "43", 1), new LedgerOrder(OrderState.CLOSED, 100, null, null), false));
        assertEquals(DifferenceKind.TRANSACTION_MISMATCH, Comparison.payment(payment("SUB_A", "43", 1), paid, true));
        assertEquals(DifferenceKind.AMOUNT_MISMATCH, Comparison.payment(payment("SUB_A", "42", 1), paid, true));
        assertNull(Comparison.payment(payment("SUB_A", "42", 100), paid, true));
        assertNull(Comparison.payment(
                payment(null, "42", 100), new LedgerOrder(OrderState.PARTIALLY_REFUNDED, 100, "42", null), false));
    }

    @Test
    void refunds() {
        assertEquals(DifferenceKind.REFUND_MISSING_LOCALLY, Comparison.wechatRefund(refund("SUCCESS", 30), null));
        assertEquals(DifferenceKind.REFUND_MISSING_LOCALLY, Comparison.wechatRefund(refund("PROCESSING", 30), 20L));
        assertNull(Comparison.wechatRefund(refund("SUCCESS", 30), 30L));
        assertNull(Comparison.wechatRefund(refund(Comparison.REFUND_CLOSED, 30), null));
        assertEquals(DifferenceKind.REFUND_MISSING_LOCALLY, Comparison.alipayRefunds(50, 30, false));
        assertEquals(DifferenceKind.REFUND_MISSING_AT_PROVIDER, Comparison.alipayRefunds(10, 30, true));
        assertNull(Comparison.alipayRefunds(10, 30, false));
        assertNull(Comparison.alipayRefunds(30, 30, true));
    }

    @Test
    void amounts() {
        assertEquals(4200L, BillAmounts.yuanToFen("42.00", false));
        assertEquals(10L, BillAmounts.yuanToFen("0.1", false));
        assertEquals(17800L, BillAmounts.yuanToFen("178", false));
        assertEquals(3000L, BillAmounts.yuanToFen("-30.00", true));
        assertNull(BillAmounts.yuanToFen("-30.00", false));
        for (String bad : new String[] {"", "1.", ".5", "1.234", "1e5", "１", "1234567890", "--1", "+1"}) {
            assertNull(BillAmounts.yuanToFen(bad, true), bad);
        }
        assertEquals(new BigDecimal("-0.02000"), BillAmounts.fee("-0.02000"));
        assertEquals(new BigDecimal("12.345678"), BillAmounts.fee("12.345678"));
        for (String bad : new String[] {"", "0.1234567", "1e5", "-", "1.", "0.60%"}) {
            assertNull(BillAmounts.fee(bad), bad);
        }
    }

    @Test
    void totalsCountForeignLinesApart() {
        var t = new StatementTotals();
        t.add(
                new BillLine(LineType.PAYMENT, "A", "1", null, 100, new BigDecimal("0.60000"), null, null, null, "交易"),
                false);
        t.add(
                new BillLine(LineType.REFUND, "A", "1", "R", 30, new BigDecimal("-0.18000"), null, null, null, "退款"),
                false);
        t.add(
                new BillLine(LineType.PAYMENT, "B", "2", null, 7, new BigDecimal("0.00001"), null, null, null, "交易"),
                true);
        assertEquals(1, t.paymentCount);
        assertEquals(100, t.paymentAmount);
        assertEquals(30, t.refundAmount);
        assertEquals(1, t.foreignCount);
        assertEquals(7, t.foreignAmount);
        assertEquals("0.42001", t.fees.toPlainString());
    }

    @Test
    void windows() {
        LocalDate d = LocalDate.of(2026, 1, 10);
        assertEquals(List.of(d.minusDays(1), d, d.plusDays(1), d.plusDays(2)), Windows.paymentWindow(d, 2));
        assertEquals(List.of(d, d.plusDays(1), d.plusDays(2)), Windows.refundWindow(d, 2));
        // every payment day whose window holds the reconciled day, and no other
        for (LocalDate p : Windows.range(d.minusDays(10), d.plusDays(10))) {
            assertEquals(
                    Windows.paymentWindow(p, 2).contains(d),
                    Windows.paymentDaysDependingOn(d, 2).contains(p),
                    p.toString());
            assertEquals(
                    Windows.refundWindow(p, 2).contains(d),
                    Windows.refundDaysDependingOn(d, 2).contains(p),
                    p.toString());
        }
        assertEquals(d, Windows.day(Windows.start(d)));
        assertEquals(d.minusDays(1), Windows.day(Windows.start(d).minusSeconds(1)));
        assertEquals("2026-01-10T15:30:00Z", Windows.retriesEnd(d).toString());
    }
}
