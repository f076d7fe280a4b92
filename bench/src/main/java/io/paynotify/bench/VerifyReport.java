package io.paynotify.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link VerifyBenchmark} and prints one Markdown table: ops/s of paynotify, of the official SDK and of the
 * crypto floor for each provider, with paynotify/SDK and paynotify/floor, against the goals of issue 6.
 *
 * <p>Arguments (all optional): {@code forks=1 warmups=3 iterations=5 seconds=2 filter=regex}. The v3 row is
 * measured only when {@code io.paynotify.provider.wechatv3.WechatV3Adapter} is on the class path; otherwise the
 * table says it was skipped.
 */
public final class VerifyReport {

    private VerifyReport() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>(Map.of("forks", "1", "warmups", "3", "iterations", "5",
                "seconds", "2", "filter", ""));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        boolean v3;
        String v3Skipped = VerifyBenchmark.V3_ADAPTER + " is not on the class path.";
        try {
            v3 = VerifyBenchmark.loadV3Adapter() != null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // present but with a constructor this cannot fill: say so instead of failing the other rows
            v3 = false;
            v3Skipped = VerifyBenchmark.V3_ADAPTER + " could not be constructed (" + e + ").";
        }
        int seconds = Integer.parseInt(a.get("seconds"));
        ChainedOptionsBuilder opt = new OptionsBuilder()
                .include(VerifyBenchmark.class.getName() + "\\." + (a.get("filter").isEmpty() ? ".*" : a.get("filter")))
                .forks(Integer.parseInt(a.get("forks")))
                .warmupIterations(Integer.parseInt(a.get("warmups")))
                .warmupTime(TimeValue.seconds(seconds))
                .measurementIterations(Integer.parseInt(a.get("iterations")))
                .measurementTime(TimeValue.seconds(seconds))
                .threads(1)
                .jvmArgsAppend("-Xms512m", "-Xmx512m")
                .shouldFailOnError(true);
        if (!v3) {
            opt.exclude("v3Paynotify");
        }
        Collection<RunResult> results = new Runner(opt.build()).run();

        Map<String, double[]> score = new LinkedHashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1);
            String signType = r.getParams().getParam("signType");
            String key = signType == null ? name : name + "/" + signType;
            score.put(key, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
        }
        System.out.println();
        System.out.println(table(score, v3 ? null : v3Skipped));
    }

    /** The Markdown table; {@code v3Skipped} says why the v3 row has no paynotify figure, or is null. */
    static String table(Map<String, double[]> s, String v3Skipped) {
        boolean v3 = v3Skipped == null;
        List<String> rows = new ArrayList<>();
        rows.add("| notification | paynotify ops/s | official SDK | SDK ops/s | crypto floor | floor ops/s"
                + " | paynotify / SDK | paynotify / floor | goal |");
        rows.add("|---|---:|---|---:|---|---:|---:|---:|---|");
        row(rows, s, "WeChat v2, MD5", "v2Paynotify/MD5", "WxJava 4.7.0 parseOrderNotifyResult", "v2WxJava/MD5",
                "JDK MD5", "v2Floor/MD5", "≥ 15× WxJava");
        row(rows, s, "WeChat v2, HMAC-SHA256", "v2Paynotify/HMAC-SHA256", "WxJava 4.7.0 parseOrderNotifyResult",
                "v2WxJava/HMAC-SHA256", "JDK HmacSHA256", "v2Floor/HMAC-SHA256", "≥ 15× WxJava");
        row(rows, s, "Alipay, RSA2", "alipayPaynotify", "alipay-sdk-java 4.40.734 rsaCheckV1", "alipaySdk",
                "JDK SHA256withRSA", "alipayFloor", "≥ 1.25× SDK, ≥ 0.9 floor");
        row(rows, s, "WeChat v3", v3 ? "v3Paynotify" : null, "wechatpay-java 0.2.17 NotificationParser.parse",
                "v3Sdk", "JDK SHA256withRSA + AES-256-GCM", "v3Floor", "≥ 0.9 floor");
        if (!v3) {
            rows.add("");
            rows.add("WeChat v3 paynotify: skipped, " + v3Skipped);
        }
        return String.join("\n", rows);
    }

    private static void row(List<String> rows, Map<String, double[]> s, String label, String ours, String sdkName,
            String sdk, String floorName, String floor, String goal) {
        double[] o = ours == null ? null : s.get(ours);
        double[] k = s.get(sdk);
        double[] f = s.get(floor);
        if (o == null && k == null && f == null) {
            return;
        }
        rows.add("| " + label + " | " + ops(o, ours == null ? "skipped" : "—") + " | " + sdkName + " | "
                + ops(k, "—") + " | " + floorName + " | " + ops(f, "—") + " | " + ratio(o, k) + " | " + ratio(o, f)
                + " | " + goal + " |");
    }

    private static String ops(double[] v, String missing) {
        return v == null ? missing : String.format(Locale.ROOT, "%,.0f ± %,.0f", v[0], Double.isNaN(v[1]) ? 0 : v[1]);
    }

    private static String ratio(double[] a, double[] b) {
        return a == null || b == null ? "—" : String.format(Locale.ROOT, "%.2f", a[0] / b[0]);
    }
}
