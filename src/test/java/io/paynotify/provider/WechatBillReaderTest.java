package io.paynotify.provider;

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
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The WeChat bill reader (PROTOCOLS.md §10.4, CONTRACT.md §11 "Reading a bill"). */
@Tag("unit")
class WechatBillReaderTest {

    static final LocalDate DAY = LocalDate.of(2026, 1, 2);
    static final BillRequest REQUEST = new BillRequest(DAY, "10000100");

    private static List<BillLine> read(String text) throws Exception {
        var lines = new ArrayList<BillLine>();
        WechatBillReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), REQUEST, lines::add);
        return lines;
    }

    private static BillFixtures.Wechat bill() {
        return new BillFixtures.Wechat(DAY, "wx2421b1c4370ec43b", "10000100");
    }

    private static StatementError error(String text) {
        return assertThrows(BillProblem.class, () -> read(text)).error();
    }

    @Test
    void readsPaymentsRefundsAndOtherLinesByColumnName() throws Exception {
        var lines = read(bill().payment("ORD1", "4200001", "100.00")
                .refund("ORD0", "4200000", "RF1", "30.00", "SUCCESS")
                .revoked("ORD2", "4200002", "5.00")
                .text());
        assertEquals(3, lines.size());
        BillLine p = lines.get(0);
        assertEquals(LineType.PAYMENT, p.type());
        assertEquals("ORD1", p.outTradeNo());
        assertEquals("4200001", p.transactionId());
        assertEquals(10000, p.amount());
        assertEquals(new BigDecimal("0.60000"), p.fee());
        assertEquals("wx2421b1c4370ec43b", p.appId());
        assertNull(p.subMerchantId());
        assertNull(p.outRefundNo());
        BillLine r = lines.get(1);
        assertEquals(LineType.REFUND, r.type());
        assertEquals("RF1", r.outRefundNo());
        assertEquals(3000, r.amount());
        assertEquals("SUCCESS", r.status());
        assertEquals(new BigDecimal("-0.18000"), r.fee());
        assertEquals(LineType.OTHER, lines.get(2).type());
    }

    @Test
    void readsTheOlderFormat() throws Exception {
        var lines = read(bill().old()
                .payment("ORD1", "4200001", "12.34", "wx2421b1c4370ec43b", "1900000109")
                .refund("ORD0", "4200000", "RF1", "1.50", "PROCESSING")
                .text());
        assertEquals(1234, lines.get(0).amount());
        assertEquals("1900000109", lines.get(0).subMerchantId());
        assertEquals(150, lines.get(1).amount());
    }

    @Test
    void aValueWithACommaSurvives() throws Exception {
        assertEquals(1, read(bill().payment("ORD1", "4200001", "1.00").text()).size());
    }

    @Test
    void anEmptyBillHasOnlyItsHeaderAndSummary() throws Exception {
        assertEquals(0, read(bill().text()).size());
    }

    @Test
    void plainLfLinesAndNoBom() throws Exception {
        String text = bill().payment("ORD1", "4200001", "1.00")
                .text()
                .replace("\r\n", "\n")
                .substring(1);
        assertEquals(1, read(text).size());
    }

    @Test
    void aSummaryThatCountsOtherLinesIsTruncated() {
        assertEquals(
                StatementError.TRUNCATED,
                error(bill().payment("ORD1", "4200001", "1.00").summaryCount(2).text()));
        assertEquals(
                StatementError.TRUNCATED,
                error(bill().payment("ORD1", "4200001", "1.00").noSummary().text()));
        assertEquals(StatementError.TRUNCATED, error(""));
        String cut = bill().payment("ORD1", "4200001", "1.00")
                .payment("ORD2", "4200002", "1.00")
                .text();
        assertEquals(
                StatementError.TRUNCATED, error(cut.substring(0, cut.indexOf("`2026-01-02", cut.indexOf("ORD1")))));
    }

    @Test
    void aLineWithAnotherFieldCountIsUnparseable() {
        assertEquals(
                StatementError.UNPARSEABLE,
                error(bill().raw("`2026-01-02 10:00:00,`wx,`10000100").text()));
        assertEquals(StatementError.UNPARSEABLE, error(bill().raw("no backtick").text()));
        assertEquals(StatementError.UNPARSEABLE, error("<xml><return_code>FAIL</return_code></xml>"));
        assertEquals(
                StatementError.UNPARSEABLE,
                error(bill().line(
                                "2026-01-02 10:00:00",
                                "wx",
                                "10000100",
                                "0",
                                "42",
                                "ORD1",
                                "SUCCESS",
                                "1.0.0",
                                "",
                                "",
                                "0",
                                "",
                                "0")
                        .text()));
        assertEquals(
                StatementError.UNPARSEABLE,
                error(bill().line(
                                "2026-01-02T10:00:00",
                                "wx",
                                "10000100",
                                "0",
                                "42",
                                "ORD1",
                                "SUCCESS",
                                "1.00",
                                "",
                                "",
                                "0",
                                "",
                                "0")
                        .text()));
        assertEquals(StatementError.UNPARSEABLE, error(bill().text() + "`more\r\n"));
        assertEquals(StatementError.UNPARSEABLE, error(BillFixtures.WECHAT_HEADER.replace("交易状态", "状态") + "\n"));
    }

    @Test
    void anUnreadableFeeIsNullNotAnError() throws Exception {
        var lines = read(bill().line(
                        "2026-01-02 10:00:00",
                        "wx",
                        "10000100",
                        "0",
                        "42",
                        "ORD1",
                        "SUCCESS",
                        "1.00",
                        "",
                        "",
                        "0",
                        "",
                        "1e5")
                .text());
        assertNull(lines.get(0).fee());
    }

    @Test
    void anotherDayOrAccountIsRefused() {
        assertEquals(
                StatementError.WRONG_DAY,
                error(bill().line(
                                "2026-01-03 00:00:00",
                                "wx",
                                "10000100",
                                "0",
                                "42",
                                "ORD1",
                                "SUCCESS",
                                "1.00",
                                "",
                                "",
                                "0",
                                "",
                                "0")
                        .text()));
        assertEquals(
                StatementError.WRONG_ACCOUNT,
                error(bill().line(
                                "2026-01-02 10:00:00",
                                "wx",
                                "10000999",
                                "0",
                                "42",
                                "ORD1",
                                "SUCCESS",
                                "1.00",
                                "",
                                "",
                                "0",
                                "",
                                "0")
                        .text()));
        // a SUCCESS bill (no refund columns) is not an ALL bill
        assertEquals(StatementError.WRONG_ACCOUNT, error(BillFixtures.WECHAT_HEADER.replace("商户退款单号", "x") + "\n"));
    }

    @Test
    void malformedUtf8IsUnparseable() {
        byte[] bytes = bill().payment("ORD1", "4200001", "1.00").bytes();
        int i = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("ORD1");
        bytes[i] = (byte) 0xC3;
        assertEquals(
                StatementError.UNPARSEABLE,
                assertThrows(
                                BillProblem.class,
                                () -> WechatBillReader.read(new ByteArrayInputStream(bytes), REQUEST, l -> {}))
                        .error());
    }

    @Test
    void aMillionLinesInBoundedMemory() throws Exception {
        int n = 1_000_000;
        String prefix = "\uFEFF" + BillFixtures.WECHAT_HEADER + "\r\n";
        String detail = bill().payment("ORD00000001", "4200000001202601020000000001", "100.00")
                        .text()
                        .split("\r\n")[1] + "\r\n";
        String suffix = BillFixtures.WECHAT_SUMMARY + "\r\n`" + n + ",`0,`0,`0,`0,`0,`0\r\n";
        InputStream generated = new InputStream() {
            final byte[] head = prefix.getBytes(StandardCharsets.UTF_8);
            final byte[] line = detail.getBytes(StandardCharsets.UTF_8);
            final byte[] tail = suffix.getBytes(StandardCharsets.UTF_8);
            int part = 0;
            int count = 0;
            int pos = 0;

            @Override
            public int read() {
                byte[] cur = current();
                if (cur == null) {
                    return -1;
                }
                int b = cur[pos++] & 0xFF;
                advance(cur);
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                byte[] cur = current();
                if (cur == null) {
                    return -1;
                }
                int k = Math.min(len, cur.length - pos);
                System.arraycopy(cur, pos, b, off, k);
                pos += k;
                advance(cur);
                return k;
            }

            private byte[] current() {
                return part == 0 ? head : part == 1 ? line : part == 2 ? tail : null;
            }

            private void advance(byte[] cur) {
                if (pos == cur.length) {
                    pos = 0;
                    if (part != 1 || ++count == n) {
                        part++;
                    }
                }
            }
        };
        long[] amount = {0};
        var summary = WechatBillReader.read(generated, REQUEST, l -> amount[0] += l.amount());
        assertEquals(n, summary.detailLines());
        assertEquals(10000L * n, amount[0]);
    }
}
