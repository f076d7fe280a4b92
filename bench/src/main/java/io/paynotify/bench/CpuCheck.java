package io.paynotify.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A development aid, not the benchmark: the same contenders as {@link VerifyBenchmark}, measured in operations
 * per second of this thread's own CPU time rather than of wall time. On a machine shared with other work, wall-time
 * throughput swings with the neighbours; CPU time per operation barely does, so before/after comparisons of an
 * optimisation stay readable. The published figures come from {@link VerifyReport} (JMH) on a quiet machine.
 *
 * <p>Arguments: seconds of CPU per contender (default 3, after as much warm-up), then a regex of contender names,
 * the number of rounds (default 1; the contenders interleaved, the table shows the last) and a file for the figures
 * ({@code NAME.ROUND=ops per CPU second}, read by {@link Goals}).
 */
public final class CpuCheck {

    private CpuCheck() {}

    interface Op {
        Object run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        var v2 = new VerifyBenchmark.WechatV2();
        v2.signType = "MD5";
        v2.setUp();
        var hmac = new VerifyBenchmark.WechatV2();
        hmac.signType = "HMAC-SHA256";
        hmac.setUp();
        var ali = new VerifyBenchmark.Alipay();
        ali.setUp();
        var v3 = new VerifyBenchmark.WechatV3();
        v3.setUp();
        var b = new VerifyBenchmark();
        Map<String, Op> ops = new LinkedHashMap<>();
        ops.put("v2Paynotify/MD5", () -> b.v2Paynotify(v2));
        ops.put("v2WxJava/MD5", () -> b.v2WxJava(v2));
        ops.put("v2Floor/MD5", () -> b.v2Floor(v2));
        ops.put("v2Paynotify/HMAC-SHA256", () -> b.v2Paynotify(hmac));
        ops.put("v2WxJava/HMAC-SHA256", () -> b.v2WxJava(hmac));
        ops.put("v2Floor/HMAC-SHA256", () -> b.v2Floor(hmac));
        ops.put("alipayPaynotify", () -> b.alipayPaynotify(ali));
        ops.put("alipaySdk", () -> b.alipaySdk(ali));
        ops.put("alipayFloor", () -> b.alipayFloor(ali));
        if (v3.adapter != null) {
            ops.put("v3Paynotify", () -> b.v3Paynotify(v3));
        }
        ops.put("v3Sdk", () -> b.v3Sdk(v3));
        ops.put("v3Floor", () -> b.v3Floor(v3));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, double[]> score = new LinkedHashMap<>();
        String filter = args.length > 1 ? args[1] : ".*";
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        var figures = new Properties();
        for (var e : ops.entrySet()) {
            if (e.getKey().matches(filter)) {
                measure(mx, e.getValue(), seconds); // warm-up
            }
        }
        // the contenders interleaved round by round, so that a neighbour's burst weighs on all of them alike
        for (int r = 1; r <= rounds; r++) {
            for (var e : ops.entrySet()) {
                if (!e.getKey().matches(filter)) {
                    continue;
                }
                double perSecond = measure(mx, e.getValue(), seconds);
                score.put(e.getKey(), new double[] {perSecond, Double.NaN});
                figures.setProperty(e.getKey() + "." + r, Double.toString(perSecond));
                System.out.printf(Locale.ROOT, "%-26s %,12.0f ops per CPU second%s%n", e.getKey(), perSecond,
                        rounds > 1 ? " (round " + r + ")" : "");
            }
        }
        figures.setProperty("rounds", Integer.toString(rounds));
        figures.setProperty("seconds", Double.toString(seconds));
        if (args.length > 3) {
            try (var w = Files.newBufferedWriter(Path.of(args[3]))) {
                figures.store(w, "CpuCheck: ops per CPU second, NAME.ROUND");
            }
        }
        System.out.println();
        System.out.println(VerifyReport.table(score, v3.adapter != null ? null
                : VerifyBenchmark.V3_ADAPTER + " is not on the class path or could not be constructed."));
    }

    private static double measure(ThreadMXBean mx, Op op, double seconds) throws Exception {
        long budget = (long) (seconds * 1e9);
        long start = mx.getCurrentThreadCpuTime();
        long n = 0;
        long used;
        Object sink = null;
        do {
            for (int i = 0; i < 64; i++) {
                sink = op.run();
            }
            n += 64;
            used = mx.getCurrentThreadCpuTime() - start;
        } while (used < budget);
        if (sink == null) {
            throw new IllegalStateException();
        }
        return n / (used / 1e9);
    }
}
