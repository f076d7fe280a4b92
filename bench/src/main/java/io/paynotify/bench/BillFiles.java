package io.paynotify.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The large bills of the statement benchmark (issue 23 item 2): a WeChat {@code ALL} bill (gzip, as v2
 * {@code downloadbill} with {@code tar_type=GZIP} gives it) and an Alipay zip of GBK CSVs, of {@code n} payment lines
 * of one Beijing day, written streaming to a file, and the paid orders that match every line inserted with one SQL
 * statement, so that reconciling the bill compares every line with a real order and finds no difference. Line
 * {@code i} (1-based) is order {@code prefix + i}, {@code 100 + i % 1000} fen, paid at {@code day} 00:00:00 +
 * {@code i * 86400 / (n + 1)} seconds, Beijing time; its transaction id is {@code 4200} (WeChat) or {@code 2026}
 * (Alipay) and {@code i} padded to 28 digits. The formats are the simulator's ({@code BillFormats}), which its SDK
 * tests check against WxJava's parser and alipay-sdk-java.
 */
final class BillFiles {

    static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);
    private static final Charset GBK = Charset.forName("GBK");
    private static final DateTimeFormatter PLAIN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter CHINESE_DATE = DateTimeFormatter.ofPattern("yyyy年MM月dd日");
    private static final BigDecimal RATE = new BigDecimal("0.006");
    private static final String WECHAT_HEADER = "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,"
            + "付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,"
            + "手续费,费率,订单金额,申请退款金额,费率备注";
    private static final String WECHAT_SUMMARY = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";
    private static final String ALIPAY_HEADER = "支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,"
            + "订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,"
            + "卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注";

    private BillFiles() {}

    static long amount(long i) {
        return 100 + i % 1000;
    }

    static String transactionId(String prefix, long i) {
        String digits = Long.toString(i);
        return prefix + "0".repeat(28 - prefix.length() - digits.length()) + digits;
    }

    static LocalDateTime time(LocalDate day, long i, long n) {
        return day.atStartOfDay().plusSeconds(i * 86400 / (n + 1));
    }

    private static String yuan(long fen) {
        return BigDecimal.valueOf(fen, 2).toPlainString();
    }

    /** The WeChat ALL bill of {@code n} payments, gzipped. */
    static void wechat(Path file, String appId, String mchId, LocalDate day, long n, String prefix) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                var gz = new GZIPOutputStream(raw, 1 << 16);
                var w = new BufferedWriter(new OutputStreamWriter(gz, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("\uFEFF" + WECHAT_HEADER + "\r\n");
            long total = 0;
            BigDecimal fees = BigDecimal.ZERO.setScale(5);
            for (long i = 1; i <= n; i++) {
                long fen = amount(i);
                total += fen;
                BigDecimal fee = BigDecimal.valueOf(fen, 2).multiply(RATE).setScale(5, RoundingMode.HALF_UP);
                fees = fees.add(fee);
                String a = yuan(fen);
                w.write("`" + time(day, i, n).format(PLAIN) + ",`" + appId + ",`" + mchId + ",`0,`,`"
                        + transactionId("4200", i) + ",`" + prefix + i + ",`oPaynotifyBenchPayer000000001,`NATIVE,`SUCCESS"
                        + ",`OTHERS,`CNY,`" + a + ",`0.00,`0,`0,`0.00,`0.00,`,`,`Bench item,`,`" + fee.toPlainString()
                        + ",`0.60%,`" + a + ",`0.00,`\r\n");
            }
            w.write(WECHAT_SUMMARY + "\r\n");
            w.write("`" + n + ",`" + yuan(total) + ",`0.00,`0.00,`" + fees.toPlainString() + ",`" + yuan(total)
                    + ",`0.00\r\n");
        }
    }

    /** Alipay's zip of the detail and summary CSVs of {@code n} payments (GBK names and contents). */
    static void alipay(Path file, String appId, LocalDate day, long n, String prefix) throws IOException {
        String digits = appId.replaceAll("[^0-9]", "");
        String account = "2088" + digits.substring(digits.length() - 12);
        String stem = account + "0156_" + day.format(DateTimeFormatter.BASIC_ISO_DATE);
        long total = 0;
        try (OutputStream raw = Files.newOutputStream(file); var zip = new ZipOutputStream(raw, GBK)) {
            zip.putNextEntry(new ZipEntry(stem + "_业务明细.csv"));
            var w = new BufferedWriter(new OutputStreamWriter(zip, GBK), 1 << 16);
            w.write("#支付宝业务明细查询\r\n#账号：[" + account + "]\r\n");
            w.write("#起始日期：[" + day.format(CHINESE_DATE) + " 00:00:00]   终止日期：["
                    + day.plusDays(1).format(CHINESE_DATE) + " 00:00:00]\r\n");
            w.write("#-----------------------------------------业务明细列表----------------------------------------\r\n");
            w.write(ALIPAY_HEADER + "\r\n");
            for (long i = 1; i <= n; i++) {
                long fen = amount(i);
                total += fen;
                String a = yuan(fen);
                LocalDateTime t = time(day, i, n);
                String fee = BigDecimal.valueOf(fen, 2)
                        .multiply(RATE)
                        .setScale(2, RoundingMode.HALF_UP)
                        .negate()
                        .toPlainString();
                w.write(transactionId("2026", i) + "\t," + prefix + i + "\t,交易,Bench item,"
                        + (t.toLocalTime().toSecondOfDay() >= 10 ? t.minusSeconds(10) : t).format(PLAIN) + ","
                        + t.format(PLAIN) + ",,,,,ben***@example.com," + a + "," + a
                        + ",0.00,0.00,0.00,0.00,0.00,,0.00,0.00,," + fee + ",0.00,\r\n");
            }
            w.write("#-----------------------------------------业务明细列表结束------------------------------------\r\n");
            w.write("#交易合计：" + n + "笔，退款合计：0笔\r\n");
            w.write("#导出时间：[" + day.plusDays(1).format(CHINESE_DATE) + " 09:00:00]\r\n");
            w.flush();
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry(stem + "_业务明细(汇总).csv"));
            zip.write(("#支付宝业务汇总查询\r\n#账号：[" + account + "]\r\n业务类型,笔数,金额（元）\r\n交易," + n + "," + yuan(total)
                            + "\r\n退款,0,-0.00\r\n")
                    .getBytes(GBK));
            zip.closeEntry();
        }
    }

    /** The paid orders matching every line of the bill: one INSERT ... SELECT generate_series, then ANALYZE. */
    static void insertOrders(Connection db, String channel, String provider, String txnPrefix, LocalDate day, long n,
            String prefix) throws SQLException {
        String sql = "INSERT INTO paynotify.orders (channel, out_trade_no, provider, amount_minor, currency, state,"
                + " transaction_id, paid_at, paid_provider_status, created_at, updated_at)"
                + " SELECT ?, ? || g, ?, 100 + g % 1000, 'CNY', 'SUCCESS',"
                + " ? || lpad(g::text, ?, '0'),"
                + " (?::timestamp + make_interval(secs => (g * 86400 / (? + 1))::double precision)) AT TIME ZONE INTERVAL '+08:00',"
                + " 'SUCCESS', now() - interval '3 days', now() - interval '3 days'"
                + " FROM generate_series(1::bigint, ?) g";
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, channel);
            ps.setString(2, prefix);
            ps.setString(3, provider);
            ps.setString(4, txnPrefix);
            ps.setInt(5, 28 - txnPrefix.length());
            ps.setString(6, day.atStartOfDay().format(PLAIN));
            ps.setLong(7, n);
            ps.setLong(8, n);
            ps.executeUpdate();
        }
        try (Statement st = db.createStatement()) {
            st.execute("ANALYZE paynotify.orders");
        }
    }
}
