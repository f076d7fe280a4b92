package io.paynotify.provider;

import io.paynotify.core.statement.BillAmounts;
import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.BoundedLines;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a WeChat Pay trade bill, the same text from API v2 {@code downloadbill} and v3 {@code tradebill}
 * (PROTOCOLS.md §10.4, CONTRACT.md §11 "Reading a bill"), streaming: each detail line goes to the sink as it is
 * read. Columns are found by their header names, the older 24-column format included ({@code 子商户号},
 * {@code 总金额}, {@code 退款金额}). A detail line drops its leading backtick and is split on {@code ,`}; the summary
 * line's {@code 总交易单数} must equal the number of detail lines, else the bill is {@code TRUNCATED}. Shared by
 * {@code provider.wechatv2} and {@code provider.wechatv3}, which may not import each other.
 */
public final class WechatBillReader {

    static final String SUMMARY_HEADER = "总交易单数";

    private WechatBillReader() {}

    /** What a read bill held besides its lines. */
    public record Summary(long detailLines) {}

    /**
     * Reads the decompressed bill.
     *
     * @param request the day every {@code 交易时间} must be on and the {@code mch-id} every {@code 商户号} must be
     * @throws BillProblem {@code UNPARSEABLE}, {@code TRUNCATED}, {@code TOO_LARGE}, {@code WRONG_DAY} or
     *     {@code WRONG_ACCOUNT}; whatever the sink throws is passed on
     */
    public static Summary read(InputStream text, BillRequest request, BillSink sink) throws Exception {
        var lines = new BoundedLines(text, StandardCharsets.UTF_8);
        String header = lines.next();
        if (header == null) {
            throw new BillProblem(StatementError.TRUNCATED, "empty bill");
        }
        if (header.startsWith("\uFEFF")) {
            header = header.substring(1);
        }
        if (header.startsWith("<")) {
            throw new BillProblem(StatementError.UNPARSEABLE, "an XML answer, not a bill");
        }
        Columns c = new Columns(header.split(",", -1));
        long details = 0;
        String line;
        while ((line = lines.next()) != null) {
            if (line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            if (line.startsWith(SUMMARY_HEADER)) {
                return new Summary(summary(lines, details));
            }
            if (line.isEmpty()) {
                continue;
            }
            if (line.charAt(0) != '`') {
                throw new BillProblem(
                        StatementError.UNPARSEABLE, "line " + lines.lineNumber() + " is not a detail line");
            }
            String[] f = line.substring(1).split(",`", -1);
            if (f.length != c.count) {
                throw new BillProblem(
                        StatementError.UNPARSEABLE,
                        "line " + lines.lineNumber() + " has " + f.length + " fields, the header " + c.count);
            }
            sink.line(c.line(f, request, lines.lineNumber()));
            details++;
        }
        throw new BillProblem(StatementError.TRUNCATED, "no summary line after " + details + " detail lines");
    }

    private static long summary(BoundedLines lines, long details) throws IOException, BillProblem {
        String line;
        while ((line = lines.next()) != null && line.isEmpty()) {
            // blank lines between the summary header and its line
        }
        if (line == null) {
            throw new BillProblem(StatementError.TRUNCATED, "no summary line");
        }
        String first = line.split(",", -1)[0].strip();
        if (first.startsWith("`")) {
            first = first.substring(1);
        }
        if (!first.matches("[0-9]{1,10}")) {
            throw new BillProblem(StatementError.UNPARSEABLE, "the summary line's 总交易单数 is not a number");
        }
        long count = Long.parseLong(first);
        if (count != details) {
            throw new BillProblem(StatementError.TRUNCATED, "总交易单数 " + count + ", detail lines " + details);
        }
        while ((line = lines.next()) != null) {
            if (!line.isBlank()) {
                throw new BillProblem(StatementError.UNPARSEABLE, "text after the summary line");
            }
        }
        return details;
    }

    /** The header's columns by name. */
    private static final class Columns {
        final int count;
        final int time;
        final int appId;
        final int mchId;
        final int subMchId;
        final int transactionId;
        final int outTradeNo;
        final int tradeState;
        final int amount;
        final int outRefundNo;
        final int refundAmount;
        final int refundStatus;
        final int fee;

        Columns(String[] names) throws BillProblem {
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                String n = names[i].strip();
                if (n.startsWith("`")) {
                    n = n.substring(1).strip();
                }
                index.putIfAbsent(n, i);
            }
            count = names.length;
            if (!index.containsKey("商户退款单号")) {
                throw new BillProblem(StatementError.WRONG_ACCOUNT, "not an ALL bill: no 商户退款单号 column");
            }
            time = required(index, "交易时间");
            appId = required(index, "公众账号ID");
            mchId = required(index, "商户号");
            subMchId = index.getOrDefault("特约商户号", index.getOrDefault("子商户号", -1));
            transactionId = required(index, "微信订单号");
            outTradeNo = required(index, "商户订单号");
            tradeState = required(index, "交易状态");
            amount = index.containsKey("订单金额") ? index.get("订单金额") : required(index, "总金额");
            outRefundNo = index.get("商户退款单号");
            refundAmount = index.containsKey("申请退款金额") ? index.get("申请退款金额") : required(index, "退款金额");
            refundStatus = required(index, "退款状态");
            fee = index.getOrDefault("手续费", -1);
        }

        private static int required(Map<String, Integer> index, String name) throws BillProblem {
            Integer i = index.get(name);
            if (i == null) {
                throw new BillProblem(StatementError.UNPARSEABLE, "the header has no " + name + " column");
            }
            return i;
        }

        BillLine line(String[] f, BillRequest request, long lineNumber) throws BillProblem {
            if (!f[mchId].strip().equals(request.account())) {
                throw new BillProblem(StatementError.WRONG_ACCOUNT, "line " + lineNumber + ": another 商户号");
            }
            LocalDateTime at = time(f[time].strip());
            if (at == null) {
                throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": 交易时间 is malformed");
            }
            if (!at.toLocalDate().equals(request.billDate())) {
                throw new BillProblem(StatementError.WRONG_DAY, "line " + lineNumber + ": 交易时间 is on another day");
            }
            String state = f[tradeState].strip();
            LineType type = switch (state) {
                case "SUCCESS" -> LineType.PAYMENT;
                case "REFUND" -> LineType.REFUND;
                default -> LineType.OTHER;
            };
            String outTradeNo = f[this.outTradeNo].strip();
            long amount = 0;
            String refundNo = null;
            String status = state;
            if (type == LineType.PAYMENT) {
                Long a = BillAmounts.yuanToFen(f[this.amount].strip(), false);
                if (a == null) {
                    throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": 订单金额 is malformed");
                }
                amount = a;
            } else if (type == LineType.REFUND) {
                Long a = BillAmounts.yuanToFen(f[refundAmount].strip(), true);
                if (a == null) {
                    throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": 申请退款金额 is malformed");
                }
                amount = a;
                refundNo = f[outRefundNo].strip();
                if (refundNo.isEmpty()) {
                    throw new BillProblem(
                            StatementError.UNPARSEABLE, "line " + lineNumber + ": a refund line without 商户退款单号");
                }
                status = f[refundStatus].strip();
            }
            if (outTradeNo.isEmpty() && type != LineType.OTHER) {
                throw new BillProblem(StatementError.UNPARSEABLE, "line " + lineNumber + ": no 商户订单号");
            }
            String sub = subMchId < 0 ? null : f[subMchId].strip();
            if (sub != null && (sub.isEmpty() || sub.equals("0"))) {
                sub = null;
            }
            return new BillLine(
                    type,
                    outTradeNo,
                    f[transactionId].strip(),
                    refundNo,
                    amount,
                    fee < 0 ? null : BillAmounts.fee(f[fee].strip()),
                    at,
                    f[appId].strip(),
                    sub,
                    status);
        }

        private static LocalDateTime time(String t) {
            if (t.length() != 19) {
                return null;
            }
            var at = BeijingTime.dashed(t);
            if (at == null) {
                return null;
            }
            try {
                return LocalDateTime.ofInstant(at, BeijingTime.OFFSET);
            } catch (DateTimeException e) {
                return null;
            }
        }
    }
}
