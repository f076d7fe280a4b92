package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementError;
import io.paynotify.testing.BillFixtures;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Alipay bill reader (PROTOCOLS.md §10.5, CONTRACT.md §11 "Reading a bill"). */
@Tag("unit")
class AlipayBillReaderTest {

    static final LocalDate DAY = LocalDate.of(2026, 1, 2);
    static final String ACCOUNT = "2088000000000000";

    private static List<BillLine> read(byte[] zip, String account) throws Exception {
        var lines = new ArrayList<BillLine>();
        AlipayBillReader.read(new ByteArrayInputStream(zip), new BillRequest(DAY, account), lines::add);
        return lines;
    }

    private static BillFixtures.Alipay bill() {
        return new BillFixtures.Alipay(DAY, ACCOUNT);
    }

    private static StatementError error(byte[] zip) {
        return assertThrows(BillProblem.class, () -> read(zip, ACCOUNT)).error();
    }

    @Test
    void readsTheDetailEntryByColumnName() throws Exception {
        var lines = read(
                bill().payment("ORD1", "2026010222001400000000000001", "100.00")
                        .refund("ORD0", "2026010122001400000000000007", "RF1", "30.00")
                        .zip(),
                ACCOUNT);
        assertEquals(2, lines.size());
        BillLine p = lines.get(0);
        assertEquals(LineType.PAYMENT, p.type());
        assertEquals("ORD1", p.outTradeNo());
        assertEquals("2026010222001400000000000001", p.transactionId());
        assertEquals(10000, p.amount());
        assertEquals(new BigDecimal("-0.60"), p.fee());
        assertNull(p.outRefundNo());
        BillLine r = lines.get(1);
        assertEquals(LineType.REFUND, r.type());
        assertEquals(3000, r.amount());
        assertEquals("RF1", r.outRefundNo());
        assertEquals(DAY, r.time().toLocalDate());
    }

    @Test
    void theAccountIsOnlyCheckedWhenTheChannelNamesOne() throws Exception {
        assertEquals(1, read(bill().payment("ORD1", "1", "1.00").zip(), null).size());
        assertEquals(
                StatementError.WRONG_ACCOUNT,
                assertThrows(BillProblem.class, () -> read(bill().zip(), "2088999999999999"))
                        .error());
    }

    @Test
    void totalsThatDisagreeOrAMissingEndAreTruncated() {
        assertEquals(
                StatementError.TRUNCATED,
                error(bill().payment("ORD1", "1", "1.00").totals(2, 0).zip()));
        assertEquals(
                StatementError.TRUNCATED,
                error(bill().payment("ORD1", "1", "1.00").totals(1, 1).zip()));
        assertEquals(
                StatementError.TRUNCATED,
                error(bill().payment("ORD1", "1", "1.00").noEnd().zip()));
    }

    @Test
    void anotherDayIsRefused() {
        assertEquals(
                StatementError.WRONG_DAY,
                error(bill().startDate(DAY.minusDays(1)).zip()));
        assertEquals(
                StatementError.WRONG_DAY,
                error(bill().entryName(ACCOUNT + "_20260101_业务明细.csv").zip()));
    }

    @Test
    void notExactlyOneDetailEntryOrNotAZipIsUnparseable() {
        assertEquals(StatementError.UNPARSEABLE, error(bill().twoDetails().zip()));
        assertEquals(
                StatementError.UNPARSEABLE,
                error(bill().entryName("20260102_other.csv").zip()));
        assertEquals(StatementError.UNPARSEABLE, error("not a zip".getBytes()));
        assertEquals(StatementError.UNPARSEABLE, error(bill().raw("1,2,3").zip()));
        assertEquals(
                StatementError.UNPARSEABLE, error(bill().raw("\"unclosed,交易").zip()));
    }

    @Test
    void quotedFields() throws Exception {
        assertEquals(List.of("a", "b,c", "d\"e", "", ""), AlipayBillReader.fields(" a\t,\"b,c\" ,\"d\"\"e\",,", 1));
    }
}
