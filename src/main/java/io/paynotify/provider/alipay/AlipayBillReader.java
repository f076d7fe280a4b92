package io.paynotify.provider.alipay;

import io.paynotify.core.statement.BillAmounts;
import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.BoundedLines;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementError;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * Reads an Alipay trade bill (PROTOCOLS.md §10.5, CONTRACT.md §11 "Reading a bill"): a zip whose entry names and
 * contents are GBK, of which exactly one entry's name ends with {@code 业务明细.csv}; that CSV is read streaming,
 * its columns by their header names, {@code #} lines as comments up to the one holding {@code 业务明细列表结束},
 * after which {@code #交易合计：N笔} and {@code #退款合计：M笔} must equal the counts of {@code 交易} and {@code 退款}
 * lines, else {@code TRUNCATED}.
 */
public final class AlipayBillReader {

    static final Charset GBK = Charset.forName("GBK");
    static final String DETAIL_SUFFIX = "业务明细.csv";
    static final String SUMMARY_SUFFIX = "业务明细(汇总).csv";

    private static final Pattern START_DATE =
            Pattern.compile("起始日期[：:]\\s*\\[([0-9]{4})年([0-9]{2})月([0-9]{2})日 00:00:00\\]");
    private static final Pattern ACCOUNT = Pattern.compile("账号[：:]\\s*\\[([0-9]+)\\]");
    private static final Pattern PAYMENTS = Pattern.compile("交易合计[：:]\\s*([0-9]{1,10})\\s*笔");
    private static final Pattern REFUNDS = Pattern.compile("退款合计[：:]\\s*([0-9]{1,10})\\s*笔");
    private static final Pattern LEADING_ACCOUNT = Pattern.compile("^([0-9]{16})[0-9]*_.*");
    private static final DateTimeFormatter COMPACT = DateTimeFormatter.ofPattern("uuuuMMdd", Locale.ROOT);

    private AlipayBillReader() {}

    /** What a read bill held besides its lines. */
    public record Summary(long payments, long refunds, String entryName) {}

    /**
     * Reads the zip as downloaded or uploaded.
     *
     * @param request the day of the bill, and the {@code seller-id} its account must be (when set)
     * @throws BillProblem {@code UNPARSEABLE}, {@code TRUNCATED}, {@code TOO_LARGE}, {@code WRONG_DAY} or
     *     {@code WRONG_ACCOUNT}; whatever the sink throws is passed on
     */
    public static Summary read(InputStream zipBytes, BillRequest request, BillSink sink) throws Exception {
        Summary found = null;
        try (var zip = new ZipInputStream(zipBytes, GBK)) {
            ZipEntry entry;
            while ((entry = nextEntry(zip)) != null) {
                String name = entry.getName();
                String base = name.substring(name.lastIndexOf('/') + 1);
                if (!base.endsWith(DETAIL_SUFFIX) || base.endsWith(SUMMARY_SUFFIX)) {
                    continue;
                }
                if (found != null) {
                    throw new BillProblem(StatementError.UNPARSEABLE, "more than one 业务明细.csv entry");
                }
                if (!base.contains(request.billDate().format(COMPACT))) {
                    throw new BillProblem(StatementError.WRONG_DAY, "the entry name is of another day");
                }
                Matcher m = LEADING_ACCOUNT.matcher(base);
                if (request.account() != null && m.matches() && !m.group(1).equals(request.account())) {
                    throw new BillProblem(StatementError.WRONG_ACCOUNT, "the entry name is of another account");
                }
                found = csv(new Unclosed(zip), request, sink, base);
            }
        } catch (ZipException e) {
            throw new BillProblem(StatementError.UNPARSEABLE, "not a zip file");
        }
        if (found == null) {
            throw new BillProblem(StatementError.UNPARSEABLE, "no 业务明细.csv entry");
        }
        return found;
    }

    private static ZipEntry nextEntry(ZipInputStream zip) throws IOException, BillProblem {
        try {
            return zip.getNextEntry();
        } catch (IllegalArgumentException e) {
            // a name that is not GBK
            throw new BillProblem(StatementError.UNPARSEABLE, "an entry name is not GBK");
        }
    }

    private static Summary csv(InputStream in, BillRequest request, BillSink sink, String entryName) throws Exception {
        var lines = new BoundedLines(in, GBK);
        Columns columns = null;
        long payments = 0;
        long refunds = 0;
        boolean ended = false;
        Long paymentTotal = null;
        Long refundTotal = null;
        String line;
        while ((line = lines.next()) != null) {
            if (line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            if (line.startsWith("#")) {
                if (line.contains("业务明细列表结束")) {
                    ended = true;
                }
                Matcher start = START_DATE.matcher(line);
                if (start.find()) {
                    LocalDate d = LocalDate.of(
                            Integer.parseInt(start.group(1)),
                            Integer.parseInt(start.group(2)),
                            Integer.parseInt(start.group(3)));
                    if (!d.equals(request.billDate())) {
                        throw new BillProblem(StatementError.WRONG_DAY, "起始日期 is another day");
                    }
                }
                Matcher account = ACCOUNT.matcher(line);
                if (request.account() != null
                        && account.find()
                        && !account.group(1).startsWith(request.account())) {
                    throw new BillProblem(StatementError.WRONG_ACCOUNT, "账号 is another account");
                }
                Matcher p = PAYMENTS.matcher(line);
                if (ended && p.find()) {
                    paymentTotal = Long.parseLong(p.group(1));
                }
                Matcher r = REFUNDS.matcher(line);
                if (ended && r.find()) {
                    refundTotal = Long.parseLong(r.group(1));
                }
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            if (ended) {
                throw new BillProblem(
                        StatementError.UNPARSEABLE, "line " + lines.lineNumber() + " after the end of the details");
            }
            List<String> fields = fields(line, lines.lineNumber());
            if (columns == null) {
                columns = new Columns(fields);
                continue;
            }
            if (fields.size() != columns.count) {
                throw new BillProblem(
                        StatementError.UNPARSEABLE,
                        "line " + lines.lineNumber() + " has " + fields.size() + " fields, the header "
                                + columns.count);
            }
            BillLine l = columns.line(fields, lines.lineNumber());
            if (l.type() == LineType.PAYMENT) {
                payments++;
            } else if (l.type() == LineType.REFUND) {
                refunds++;
            }
            sink.line(l);
        }
        if (!ended || paymentTotal == null || refundTotal == null) {
            throw new BillProblem(StatementError.TRUNCATED, "no end of the details with its totals");
        }
        if (paymentTotal != payments || refundTotal != refunds) {
            throw new BillProblem(
                    StatementError.TRUNCATED,
                    "交易合计 " + paymentTotal + "/" + payments + ", 退款合计 " + refundTotal + "/" + refunds);
        }
        if (columns == null) {
            throw new BillProblem(StatementError.UNPARSEABLE, "no header line");
        }
        return new Summary(payments, refunds, entryName);
    }

    /** RFC 4180 fields, each trimmed of spaces and tabs. */
    static List<String> fields(String line, long lineNumber) throws BillProblem {
        var out = new ArrayList<String>(32);
        var sb = new StringBuilder();
        int i = 0;
        int n = line.length();
        while (true) {
            sb.setLength(0);
            // leading blanks before a quote
            int j = i;
            while (j < n && (line.charAt(j) == ' ' || line.charAt(j) == '\t')) {
                j++;
            }
            if (j < n && line.charAt(j) == '"') {
                j++;
                while (true) {
                    if (j >= n) {
                        throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": an unclosed quote");
                    }
                    char c = line.charAt(j++);
                    if (c == '"') {
                        if (j < n && line.charAt(j) == '"') {
                            sb.append('"');
                            j++;
                        } else {
                            break;
                        }
                    } else {
                        sb.append(c);
                    }
                }
                while (j < n && line.charAt(j) != ',') {
                    char c = line.charAt(j++);
                    if (c != ' ' && c != '\t') {
                        throw new BillProblem(
                                StatementError.UNPARSEABLE, "line " + lineNumber + ": text after a quoted field");
                    }
                }
                out.add(trim(sb.toString()));
            } else {
                int comma = line.indexOf(',', i);
                int e = comma < 0 ? n : comma;
                out.add(trim(line.substring(i, e)));
                j = e;
            }
            if (j >= n) {
                return out;
            }
            i = j + 1;
            if (i == n) {
                out.add("");
                return out;
            }
        }
    }

    private static String trim(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
            a++;
        }
        while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t')) {
            b--;
        }
        return s.substring(a, b);
    }

    private static final class Columns {
        final int count;
        final int transactionId;
        final int outTradeNo;
        final int type;
        final int amount;
        final int refundNo;
        final int fee;
        final int finished;

        Columns(List<String> names) throws BillProblem {
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                index.putIfAbsent(names.get(i), i);
            }
            count = names.size();
            transactionId = required(index, "支付宝交易号");
            outTradeNo = required(index, "商户订单号");
            type = required(index, "业务类型");
            amount = required(index, "订单金额（元）");
            refundNo = index.getOrDefault("退款批次号/请求号", -1);
            fee = index.getOrDefault("服务费（元）", -1);
            finished = index.getOrDefault("完成时间", -1);
        }

        private static int required(Map<String, Integer> index, String name) throws BillProblem {
            Integer i = index.get(name);
            if (i == null) {
                throw new BillProblem(StatementError.UNPARSEABLE, "the header has no " + name + " column");
            }
            return i;
        }

        BillLine line(List<String> f, long lineNumber) throws BillProblem {
            String kind = f.get(type);
            LineType t = switch (kind) {
                case "交易" -> LineType.PAYMENT;
                case "退款" -> LineType.REFUND;
                default -> LineType.OTHER;
            };
            long a = 0;
            if (t != LineType.OTHER) {
                Long parsed = BillAmounts.yuanToFen(f.get(amount), t == LineType.REFUND);
                if (parsed == null) {
                    throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": 订单金额（元） is malformed");
                }
                a = parsed;
                if (f.get(outTradeNo).isEmpty()) {
                    throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": no 商户订单号");
                }
            }
            String refund =
                    t == LineType.REFUND && refundNo >= 0 && !f.get(refundNo).isEmpty() ? f.get(refundNo) : null;
            LocalDateTime at = null;
            if (finished >= 0) {
                var instant = AlipayFormats.time(f.get(finished));
                at = instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.ofHours(8));
            }
            return new BillLine(
                    t,
                    f.get(outTradeNo),
                    f.get(transactionId),
                    refund,
                    a,
                    fee < 0 ? null : BillAmounts.fee(f.get(fee)),
                    at,
                    null,
                    null,
                    kind);
        }
    }

    /** The current entry's stream, which the CSV reader may not close. */
    private static final class Unclosed extends FilterInputStream {
        Unclosed(InputStream in) {
            super(in);
        }

        @Override
        public void close() {}
    }
}
