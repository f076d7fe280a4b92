package io.paynotify.simulator.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The bill files as the providers write them: WeChat Pay's {@code ALL} trade bill (the same text from v2
 * {@code downloadbill} and v3 {@code tradebill}: a BOM, 27 columns, every detail value prefixed with a backtick,
 * {@code \r\n}, then the summary) and Alipay's zip of GBK CSVs ({@code …_业务明细.csv} with its {@code #} comments, and
 * {@code …_业务明细(汇总).csv}).
 */
final class BillFormats {

    static final String WECHAT_HEADER = "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,"
            + "付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,"
            + "手续费,费率,订单金额,申请退款金额,费率备注";
    static final String WECHAT_SUMMARY = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";
    static final String ALIPAY_HEADER = "支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,"
            + "订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,"
            + "卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注";
    static final Charset GBK = Charset.forName("GBK");

    /** Both providers' fee rate in the simulator: 0.6 %. */
    private static final BigDecimal RATE = new BigDecimal("0.006");

    private static final DateTimeFormatter PLAIN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter CHINESE_DATE = DateTimeFormatter.ofPattern("yyyy年MM月dd日");

    private BillFormats() {}

    static String yuan(long fen) {
        return BigDecimal.valueOf(fen, 2).toPlainString();
    }

    /** WeChat's fee: 5 decimals, negative on a refund line. */
    private static BigDecimal wechatFee(long fen, boolean refund) {
        BigDecimal fee = BigDecimal.valueOf(fen, 2).multiply(RATE).setScale(5, RoundingMode.HALF_UP);
        return refund ? fee.negate() : fee;
    }

    /** The WeChat {@code ALL} bill of these lines. */
    static String wechat(String appId, String mchId, List<Bills.Entry> lines) {
        var sb = new StringBuilder("\uFEFF").append(WECHAT_HEADER).append("\r\n");
        long payments = 0;
        long refunds = 0;
        BigDecimal fees = BigDecimal.ZERO.setScale(5);
        for (Bills.Entry e : lines) {
            BigDecimal fee = wechatFee(e.amountFen(), e.refund());
            fees = fees.add(fee);
            String amount = e.refund() ? "0.00" : yuan(e.amountFen());
            String refund = e.refund() ? yuan(e.amountFen()) : "0.00";
            if (e.refund()) {
                refunds += e.amountFen();
            } else {
                payments += e.amountFen();
            }
            String[] f = {
                e.time().format(PLAIN),
                appId,
                mchId,
                e.subMerchant() == null ? "0" : e.subMerchant(),
                "",
                e.transactionId(),
                e.outTradeNo(),
                "oPaynotifySimulatorPayer0001",
                "NATIVE",
                e.refund() ? "REFUND" : "SUCCESS",
                "OTHERS",
                "CNY",
                amount,
                "0.00",
                e.refund() ? Bills.id("5000", e.time().toLocalDate(), e.outRefundNo()) : "0",
                e.refund() ? e.outRefundNo() : "0",
                refund,
                "0.00",
                e.refund() ? "ORIGINAL" : "",
                e.refund() ? "SUCCESS" : "",
                "Simulated item",
                "",
                fee.toPlainString(),
                "0.60%",
                amount,
                refund,
                ""
            };
            for (int i = 0; i < f.length; i++) {
                sb.append(i == 0 ? "`" : ",`").append(f[i]);
            }
            sb.append("\r\n");
        }
        sb.append(WECHAT_SUMMARY).append("\r\n");
        sb.append('`')
                .append(lines.size())
                .append(",`")
                .append(yuan(payments))
                .append(",`")
                .append(yuan(refunds))
                .append(",`0.00,`")
                .append(fees.toPlainString())
                .append(",`")
                .append(yuan(payments))
                .append(",`")
                .append(yuan(refunds))
                .append("\r\n");
        return sb.toString();
    }

    static byte[] gzip(byte[] bytes) {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The Alipay account (PID) the simulator gives an app: {@code 2088} and the app id's last 12 digits. */
    static String alipayAccount(String appId) {
        String digits = appId.replaceAll("[^0-9]", "");
        String tail = digits.length() >= 12 ? digits.substring(digits.length() - 12) : "0".repeat(12 - digits.length()) + digits;
        return "2088" + tail;
    }

    /** The entry name's stem: the account, {@code 0156}, and the day ({@code 20880000000000010156_20260301}). */
    static String alipayStem(String account, LocalDate day) {
        return account + "0156_" + day.format(DateTimeFormatter.BASIC_ISO_DATE);
    }

    /** Alipay's service fee: 2 decimals, negative on a payment (taken), positive on a refund (given back). */
    private static String alipayFee(long fen, boolean refund) {
        BigDecimal fee = BigDecimal.valueOf(fen, 2).multiply(RATE).setScale(2, RoundingMode.HALF_UP);
        return (refund ? fee : fee.negate()).toPlainString();
    }

    /** The detail CSV of these lines. */
    static String alipayDetail(String account, LocalDate day, List<Bills.Entry> lines) {
        var sb = new StringBuilder();
        sb.append("#支付宝业务明细查询\r\n#账号：[").append(account).append("]\r\n");
        sb.append("#起始日期：[")
                .append(day.format(CHINESE_DATE))
                .append(" 00:00:00]   终止日期：[")
                .append(day.plusDays(1).format(CHINESE_DATE))
                .append(" 00:00:00]\r\n");
        sb.append("#-----------------------------------------业务明细列表----------------------------------------\r\n");
        sb.append(ALIPAY_HEADER).append("\r\n");
        long payments = 0;
        long refunds = 0;
        for (Bills.Entry e : lines) {
            String amount = (e.refund() ? "-" : "") + yuan(e.amountFen());
            LocalDateTime created = e.refund() ? e.time().minusHours(1) : e.time().minusSeconds(10);
            sb.append(e.transactionId())
                    .append("\t,")
                    .append(e.outTradeNo())
                    .append("\t,")
                    .append(e.refund() ? "退款" : "交易")
                    .append(",Simulated item,")
                    .append(created.format(PLAIN))
                    .append(',')
                    .append(e.time().format(PLAIN))
                    .append(",,,,,sim***@example.com,")
                    .append(amount)
                    .append(',')
                    .append(amount)
                    .append(",0.00,0.00,0.00,0.00,0.00,,0.00,0.00,")
                    .append(e.refund() ? e.outRefundNo() + "\t" : "")
                    .append(',')
                    .append(alipayFee(e.amountFen(), e.refund()))
                    .append(",0.00,\r\n");
            if (e.refund()) {
                refunds++;
            } else {
                payments++;
            }
        }
        sb.append("#-----------------------------------------业务明细列表结束------------------------------------\r\n");
        sb.append("#交易合计：")
                .append(payments)
                .append("笔，退款合计：")
                .append(refunds)
                .append("笔\r\n");
        sb.append("#导出时间：[").append(day.plusDays(1).format(CHINESE_DATE)).append(" 09:00:00]\r\n");
        return sb.toString();
    }

    /** The zip Alipay's download link answers: the detail and the summary CSV, names and contents in GBK. */
    static byte[] alipayZip(String account, LocalDate day, List<Bills.Entry> lines) {
        String stem = alipayStem(account, day);
        long paid = lines.stream().filter(e -> !e.refund()).mapToLong(Bills.Entry::amountFen).sum();
        long refunded = lines.stream().filter(Bills.Entry::refund).mapToLong(Bills.Entry::amountFen).sum();
        String summary = "#支付宝业务汇总查询\r\n#账号：[" + account + "]\r\n业务类型,笔数,金额（元）\r\n交易,"
                + lines.stream().filter(e -> !e.refund()).count() + "," + yuan(paid) + "\r\n退款,"
                + lines.stream().filter(Bills.Entry::refund).count() + ",-" + yuan(refunded) + "\r\n";
        var out = new ByteArrayOutputStream();
        try (var zip = new ZipOutputStream(out, GBK)) {
            zip.putNextEntry(new ZipEntry(stem + "_业务明细.csv"));
            zip.write(alipayDetail(account, day, lines).getBytes(GBK));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry(stem + "_业务明细(汇总).csv"));
            zip.write(summary.getBytes(GBK));
            zip.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
