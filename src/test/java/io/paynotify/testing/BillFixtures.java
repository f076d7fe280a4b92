package io.paynotify.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Bills as the providers write them (PROTOCOLS.md §10.4, §10.5), for the readers' tests and the uploads of the admin
 * tests: a WeChat {@code ALL} bill (27 columns, or the older 24), an Alipay zip of GBK CSVs.
 */
public final class BillFixtures {

    public static final String WECHAT_HEADER = "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,"
            + "付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,"
            + "手续费,费率,订单金额,申请退款金额,费率备注";
    public static final String WECHAT_OLD_HEADER = "交易时间,公众账号ID,商户号,子商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,"
            + "付款银行,货币种类,总金额,企业红包金额,微信退款单号,商户退款单号,退款金额,企业红包退款金额,退款类型,退款状态,商品名称,商户数据包,"
            + "手续费,费率";
    public static final String WECHAT_SUMMARY = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";
    public static final String ALIPAY_HEADER = "支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,"
            + "订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,"
            + "卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注";
    public static final Charset GBK = Charset.forName("GBK");

    private BillFixtures() {}

    /** A WeChat bill under construction. */
    public static final class Wechat {
        private final LocalDate day;
        private final String appId;
        private final String mchId;
        private final List<String> lines = new ArrayList<>();
        private boolean old;
        private Integer summaryCount;
        private boolean noSummary;

        public Wechat(LocalDate day, String appId, String mchId) {
            this.day = day;
            this.appId = appId;
            this.mchId = mchId;
        }

        public Wechat old() {
            old = true;
            return this;
        }

        /** The summary states this many lines. */
        public Wechat summaryCount(int n) {
            summaryCount = n;
            return this;
        }

        /** The file ends after the detail lines. */
        public Wechat noSummary() {
            noSummary = true;
            return this;
        }

        public Wechat payment(String outTradeNo, String transactionId, String yuan) {
            return payment(outTradeNo, transactionId, yuan, appId, "0");
        }

        public Wechat payment(String outTradeNo, String transactionId, String yuan, String app, String subMch) {
            return line(
                    day + " 10:15:30",
                    app,
                    mchId,
                    subMch,
                    transactionId,
                    outTradeNo,
                    "SUCCESS",
                    yuan,
                    "",
                    "",
                    "0.00",
                    "",
                    "0.60000");
        }

        public Wechat revoked(String outTradeNo, String transactionId, String yuan) {
            return line(
                    day + " 11:00:00",
                    appId,
                    mchId,
                    "0",
                    transactionId,
                    outTradeNo,
                    "REVOKED",
                    yuan,
                    "",
                    "",
                    "0.00",
                    "",
                    "0.00000");
        }

        public Wechat refund(String outTradeNo, String transactionId, String outRefundNo, String yuan, String status) {
            return line(
                    day + " 18:40:02",
                    appId,
                    mchId,
                    "0",
                    transactionId,
                    outTradeNo,
                    "REFUND",
                    "0.00",
                    "5000000001" + outRefundNo,
                    outRefundNo,
                    yuan,
                    status,
                    "-0.18000");
        }

        /** A line with every field chosen. */
        public Wechat line(
                String time,
                String app,
                String mch,
                String subMch,
                String transactionId,
                String outTradeNo,
                String state,
                String amount,
                String refundId,
                String outRefundNo,
                String refundAmount,
                String refundStatus,
                String fee) {
            String l;
            if (old) {
                l = String.join(
                        ",`",
                        time,
                        app,
                        mch,
                        subMch,
                        "",
                        transactionId,
                        outTradeNo,
                        "oUser",
                        "JSAPI",
                        state,
                        "OTHERS",
                        "CNY",
                        amount,
                        "0.00",
                        refundId,
                        outRefundNo,
                        refundAmount,
                        "0.00",
                        refundId.isEmpty() ? "" : "ORIGINAL",
                        refundStatus,
                        "Item, with comma",
                        "",
                        fee,
                        "0.60%");
            } else {
                l = String.join(
                        ",`",
                        time,
                        app,
                        mch,
                        subMch,
                        "",
                        transactionId,
                        outTradeNo,
                        "oUser",
                        "JSAPI",
                        state,
                        "OTHERS",
                        "CNY",
                        amount,
                        "0.00",
                        refundId,
                        outRefundNo,
                        refundAmount,
                        "0.00",
                        refundId.isEmpty() ? "" : "ORIGINAL",
                        refundStatus,
                        "Item, with comma",
                        "",
                        fee,
                        "0.60%",
                        state.equals("REFUND") ? "0.00" : amount,
                        refundAmount,
                        "");
            }
            lines.add("`" + l);
            return this;
        }

        /** A raw line. */
        public Wechat raw(String line) {
            lines.add(line);
            return this;
        }

        public String text() {
            var sb = new StringBuilder("\uFEFF")
                    .append(old ? WECHAT_OLD_HEADER : WECHAT_HEADER)
                    .append("\r\n");
            lines.forEach(l -> sb.append(l).append("\r\n"));
            if (!noSummary) {
                sb.append(WECHAT_SUMMARY).append("\r\n");
                sb.append('`')
                        .append(summaryCount == null ? lines.size() : summaryCount)
                        .append(",`0.00,`0.00,`0.00,`0.00000,`0.00,`0.00")
                        .append("\r\n");
            }
            return sb.toString();
        }

        public byte[] bytes() {
            return text().getBytes(StandardCharsets.UTF_8);
        }

        public byte[] gzip() {
            return BillFixtures.gzip(bytes());
        }
    }

    /** An Alipay bill under construction. */
    public static final class Alipay {
        private final LocalDate day;
        private final String account;
        private final List<String> lines = new ArrayList<>();
        private Integer payments;
        private Integer refunds;
        private boolean noEnd;
        private String entryName;
        private LocalDate startDate;
        private boolean twoDetails;

        public Alipay(LocalDate day, String account) {
            this.day = day;
            this.account = account;
            this.startDate = day;
        }

        public Alipay payment(String outTradeNo, String tradeNo, String yuan) {
            lines.add(tradeNo + "\t," + outTradeNo + "\t,交易,Test item,\"" + day + " 10:15:20\"," + day
                    + " 10:15:30,,,,,buy***@example.com," + yuan + "," + yuan
                    + ",0.00,0.00,0.00,0.00,0.00,,0.00,0.00,,-0.60,0.00,");
            return this;
        }

        public Alipay refund(String outTradeNo, String tradeNo, String requestNo, String yuan) {
            lines.add(
                    tradeNo + "\t," + outTradeNo + "\t,退款,\"Item, with comma\"," + day.minusDays(1) + " 09:00:00," + day
                            + " 18:40:02,,,,,buy***@example.com,-" + yuan + ",-" + yuan
                            + ",0.00,0.00,0.00,0.00,0.00,,0.00,0.00," + requestNo
                            + "\t,0.18,0.00,");
            return this;
        }

        public Alipay raw(String line) {
            lines.add(line);
            return this;
        }

        public Alipay totals(int payments, int refunds) {
            this.payments = payments;
            this.refunds = refunds;
            return this;
        }

        public Alipay noEnd() {
            noEnd = true;
            return this;
        }

        public Alipay entryName(String name) {
            entryName = name;
            return this;
        }

        public Alipay startDate(LocalDate d) {
            startDate = d;
            return this;
        }

        public Alipay twoDetails() {
            twoDetails = true;
            return this;
        }

        public String csv() {
            var sb = new StringBuilder();
            sb.append("#支付宝业务明细查询\r\n#账号：[").append(account).append("]\r\n");
            sb.append("#起始日期：[")
                    .append(startDate.format(DateTimeFormatter.ofPattern("yyyy年MM月dd日")))
                    .append(" 00:00:00]   终止日期：[")
                    .append(startDate.plusDays(1).format(DateTimeFormatter.ofPattern("yyyy年MM月dd日")))
                    .append(" 00:00:00]\r\n");
            sb.append("#-----------------------------------------业务明细列表----------------------------------------\r\n");
            sb.append(ALIPAY_HEADER).append("\r\n");
            lines.forEach(l -> sb.append(l).append("\r\n"));
            if (!noEnd) {
                long p = lines.stream().filter(l -> l.contains(",交易,")).count();
                long r = lines.stream().filter(l -> l.contains(",退款,")).count();
                sb.append("#-----------------------------------------业务明细列表结束------------------------------------\r\n");
                sb.append("#交易合计：")
                        .append(payments == null ? p : payments)
                        .append("笔，退款合计：")
                        .append(refunds == null ? r : refunds)
                        .append("笔\r\n");
                sb.append("#导出时间：[").append(day.plusDays(1)).append(" 09:00:00]\r\n");
            }
            return sb.toString();
        }

        public byte[] zip() {
            String compact = day.format(DateTimeFormatter.BASIC_ISO_DATE);
            String name = entryName != null ? entryName : account + "0156_" + compact + "_业务明细.csv";
            var out = new ByteArrayOutputStream();
            try (var zip = new ZipOutputStream(out, GBK)) {
                zip.putNextEntry(new ZipEntry(account + "0156_" + compact + "_业务明细(汇总).csv"));
                zip.write("#支付宝业务汇总查询\r\n".getBytes(GBK));
                zip.closeEntry();
                zip.putNextEntry(new ZipEntry(name));
                zip.write(csv().getBytes(GBK));
                zip.closeEntry();
                if (twoDetails) {
                    zip.putNextEntry(new ZipEntry("other_" + compact + "_业务明细.csv"));
                    zip.write(csv().getBytes(GBK));
                    zip.closeEntry();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }
    }

    public static byte[] gzip(byte[] bytes) {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
