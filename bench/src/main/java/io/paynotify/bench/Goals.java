package io.paynotify.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * {@code LoadDriver goals single= [dual=] before= after= [hooks=] [jmh=] [out=]}: issue 24's table, every figure
 * of one {@code run.sh} run against its goal, then what the host did during each step and whether the step was too
 * disturbed to judge (see {@link LoadDriver.Host}). Reads the figures that {@code LoadDriver run} ({@code single},
 * {@code dual}), {@code LoadDriver webhooks} ({@code hooks}), {@code run.sh}'s ceilings ({@code before},
 * {@code after}) and {@code CpuCheck} ({@code jmh}) wrote. True when every goal is met.
 */
final class Goals {
    static final double GOAL_CEILING_FACTOR = 1.8;
    static final double GOAL_WEBHOOK_RATE_SHARE = 0.85;
    static final double GOAL_SAME_LOAD_CPU_FACTOR = 1.15;
    static final double GOAL_SERVICE_CPU_US = 110;
    static final double GOAL_POSTGRES_CPU_US = 100;
    static final double GOAL_DELIVERY_US = 60;
    static final double GOAL_P99_MS = 25;
    static final double GOAL_LAG_P99_MS = 250;
    static final double GOAL_FLOOR_SHARE = 0.9;
    /** pgbench's CPU per transaction before and after differing by more than this: the host's speed changed. */
    static final double HOST_SPEED_TOLERANCE = 0.20;
    static final String NO_HOOKS = "not measured (`WEBHOOKS=0`)";

    private Goals() {}

    static double d(Properties p, String key) {
        return LoadDriver.Report.d(p, key);
    }

    /** One step's host figures, as read back. */
    record StepHost(String step, double steal, double otherCores, String load, String extra, boolean disturbed,
            boolean measured) {}

    static boolean write(Map<String, String> opt) throws IOException {
        Properties one = LoadDriver.Report.load(opt.get("single"));
        Properties two = LoadDriver.Report.load(opt.get("dual"));
        Properties before = LoadDriver.Report.load(opt.get("before"));
        Properties after = LoadDriver.Report.load(opt.get("after"));
        Properties hooks = LoadDriver.Report.load(opt.get("hooks"));
        Properties jmh = LoadDriver.Report.load(opt.get("jmh"));

        // the host first: the goals' rows say which of their steps were disturbed
        var hosts = new LinkedHashMap<String, StepHost>();
        hosts.put("ceiling-before", ceilingHost("pgbench ceiling before", before));
        hosts.put("max", loadHost("one instance, max confirmation", one, "max."));
        hosts.put("half", loadHost("one instance, 50 % step", one, "at.50."));
        hosts.put("dual", loadHost("two instances, max confirmation", two, "max."));
        hosts.put("ceiling-after", ceilingHost("pgbench ceiling after", after));
        hosts.put("hooks-max", loadHost("webhook, max confirmation", hooks, "max."));
        hosts.put("hooks-half", loadHost("webhook, 50 % lag step", hooks, "half."));
        hosts.put("hooks-same", loadHost("webhook, the same rate as the 50 % step", hooks, "same."));

        var t = new StringBuilder();
        var goals = new ArrayList<Boolean>();
        t.append("| issue 24 figure | this run | goal | | steps disturbed? |\n|---|---|---|---|---|\n");

        double ceilBefore = d(before, "tps");
        double ceilAfter = d(after, "tps");
        double ceiling = Double.isNaN(ceilBefore) ? ceilAfter
                : Double.isNaN(ceilAfter) ? ceilBefore : Math.max(ceilBefore, ceilAfter);
        double max = d(one, "max");
        boolean ok = max >= GOAL_CEILING_FACTOR * ceiling;
        row(t, goals, "max sustained rate, no webhook",
                String.format(Locale.ROOT, "**%,.0f/s** = %.2f x the higher pgbench ceiling (before %,.0f tps at %.0f"
                                + " us PostgreSQL CPU per transaction, after %,.0f tps at %.0f us)",
                        max, max / ceiling, ceilBefore, pgPerTxn(before), ceilAfter, pgPerTxn(after)),
                String.format(Locale.ROOT, ">= %.1f x the higher ceiling (%,.0f/s)", GOAL_CEILING_FACTOR,
                        GOAL_CEILING_FACTOR * ceiling), ok, hosts, "ceiling-before", "max", "ceiling-after");

        double hmax = d(hooks, "max");
        row(t, goals, "max sustained rate, webhook subscribed", hooks.isEmpty() ? NO_HOOKS :
                String.format(Locale.ROOT, "**%,.0f/s** = **%.2f** x the rate without", hmax, hmax / max),
                String.format(Locale.ROOT, ">= %.2f x without", GOAL_WEBHOOK_RATE_SHARE),
                hmax >= GOAL_WEBHOOK_RATE_SHARE * max, hosts, "max", "hooks-max");

        // the same load: the service without its JIT threads (warm-up, not per-notification work), its backends
        double sWithout = d(one, "at.50.cpu.service") - d(one, "at.50.cpu.jit");
        double pWithout = d(one, "at.50.cpu.postgres");
        double sWith = d(hooks, "same.cpu.service") - d(hooks, "same.cpu.jit");
        double pWith = d(hooks, "same.cpu.postgres");
        double factor = (sWith + pWith) / (sWithout + pWithout);
        row(t, goals, String.format(Locale.ROOT, "CPU per notification at the same load (%,.0f/s), without / with"
                        + " webhook", d(one, "at.50.rate")), hooks.isEmpty() ? NO_HOOKS :
                String.format(Locale.ROOT, "service (without JIT) %.0f / %.0f us (x %.2f), PostgreSQL %.0f / %.0f us"
                                + " (x %.2f); together %.0f / %.0f us: **x %.2f**",
                        sWithout, sWith, sWith / sWithout, pWithout, pWith, pWith / pWithout, sWithout + pWithout,
                        sWith + pWith, factor),
                String.format(Locale.ROOT, "with <= %.2f x without", GOAL_SAME_LOAD_CPU_FACTOR),
                factor <= GOAL_SAME_LOAD_CPU_FACTOR, hosts, "half", "hooks-same");

        double sMax = d(one, "max.cpu.service");
        double pMax = d(one, "max.cpu.postgres");
        row(t, goals, "service CPU per notification at the max, no webhook",
                String.format(Locale.ROOT, "**%.0f us** (%.0f of them its JIT threads)", sMax, d(one, "max.cpu.jit")),
                String.format(Locale.ROOT, "<= %.0f us", GOAL_SERVICE_CPU_US), sMax <= GOAL_SERVICE_CPU_US, hosts,
                "max");
        row(t, goals, "PostgreSQL CPU per notification at the max, no webhook",
                String.format(Locale.ROOT, "**%.0f us** (this database's backends; shared processes %.0f us more)",
                        pMax, d(one, "max.cpu.pg-shared")),
                String.format(Locale.ROOT, "<= %.0f us", GOAL_POSTGRES_CPU_US), pMax <= GOAL_POSTGRES_CPU_US, hosts,
                "max");

        double perEvent = d(hooks, "same.delivery-per-event");
        row(t, goals, "delivery threads per delivered event", hooks.isEmpty() ? NO_HOOKS :
                String.format(Locale.ROOT, "**%.0f us** (%,d events at the same load)", perEvent,
                        (long) d(hooks, "same.events")),
                String.format(Locale.ROOT, "<= %.0f us", GOAL_DELIVERY_US), perEvent <= GOAL_DELIVERY_US, hosts,
                "hooks-same");

        double p99 = d(one, "at.50.p99");
        double hp99 = d(hooks, "half.p99");
        row(t, goals, "p99 ack at 50 % of the max, no webhook / webhook",
                String.format(Locale.ROOT, "**%.1f / %.1f ms** (%,.0f/s / %,.0f/s)", p99, hp99, d(one, "at.50.rate"),
                        d(hooks, "half.rate")),
                String.format(Locale.ROOT, "<= %.0f ms both", GOAL_P99_MS), p99 <= GOAL_P99_MS && hp99 <= GOAL_P99_MS,
                hosts, "half", "hooks-half");

        double lag = d(hooks, "lag.p99");
        long missing = (long) d(hooks, "lag.missing");
        row(t, goals, "webhook lag p99 at 50 %", hooks.isEmpty() ? NO_HOOKS :
                String.format(Locale.ROOT, "**%.1f ms** from `events.created_at` (p50 %.1f ms; from the ack p99 %.1f"
                                + " ms); %,d of %,d delivered", lag, d(hooks, "lag.p50"), d(hooks, "lag.ack.p99"),
                        (long) d(hooks, "lag.delivered"), (long) d(hooks, "lag.expected")),
                String.format(Locale.ROOT, "<= %.0f ms, all delivered", GOAL_LAG_P99_MS),
                lag <= GOAL_LAG_P99_MS && missing == 0, hosts, "hooks-half");

        double[] v3 = floorShares(jmh, "v3Paynotify", "v3Floor");
        double[] ali = floorShares(jmh, "alipayPaynotify", "alipayFloor");
        row(t, goals, "JMH, CPU terms: v3 / RSA+GCM floor; Alipay / RSA floor",
                jmh.isEmpty() ? "not measured (`JMH=0`)"
                        : String.format(Locale.ROOT, "**%s; %s** (%s rounds of %s s of CPU each, `CpuCheck`)",
                                range(v3), range(ali), jmh.getProperty("rounds"), jmh.getProperty("seconds")),
                String.format(Locale.ROOT, ">= %.1f both", GOAL_FLOOR_SHARE),
                v3[0] >= GOAL_FLOOR_SHARE && ali[0] >= GOAL_FLOOR_SHARE, hosts);

        if (!two.isEmpty()) {
            double max2 = d(two, "max");
            var each = new ArrayList<String>();
            for (int i = 1; two.containsKey("max.cpu.instance." + i); i++) {
                each.add(String.format(Locale.ROOT, "instance %d %.0f us (%.0f without its JIT threads)", i,
                        d(two, "max.cpu.instance." + i),
                        d(two, "max.cpu.instance." + i) - d(two, "max.cpu.instance." + i + ".jit")));
            }
            t.append(String.format(Locale.ROOT,
                    "| two instances, one database: max sustained rate and CPU per notification | %,.0f/s in all (%.2f"
                            + " x one instance); service CPU per notification each served: %s (%.0f us"
                            + " per notification of the aggregate, JIT included); PostgreSQL %.0f us | | | %s |%n",
                    max2, max2 / max, String.join(", ", each), d(two, "max.cpu.service"), d(two, "max.cpu.postgres"),
                    verdict(hosts, "dual")));
        }
        boolean all = goals.stream().allMatch(Boolean::booleanValue);

        // the host per step
        t.append("\nThe host during each step (/proc/stat; too disturbed to judge: steal > ")
                .append(String.format(Locale.ROOT, "%.0f %% of all CPU time, or other processes than the services,"
                                + " PostgreSQL and the driver > %.2f of a core):%n%n",
                        LoadDriver.STEAL_LIMIT * 100, LoadDriver.OTHER_LIMIT_CORES));
        t.append("| step | steal | other processes (cores) | load average | | verdict |\n|---|---:|---:|---|---|---|\n");
        int disturbed = 0;
        int measured = 0;
        for (StepHost h : hosts.values()) {
            if (!h.measured()) {
                continue;
            }
            measured++;
            if (h.disturbed()) {
                disturbed++;
            }
            t.append(String.format(Locale.ROOT, "| %s | %.1f %% | %.2f | %s | %s | %s |%n", h.step(), h.steal() * 100,
                    h.otherCores(), h.load(), h.extra(), h.disturbed() ? "**too disturbed to judge**" : "quiet"));
        }
        double speed = pgPerTxn(after) / pgPerTxn(before) - 1;
        t.append(String.format(Locale.ROOT, "%npgbench's PostgreSQL CPU per transaction, after / before: %.0f / %.0f us"
                        + " (%+.0f %%)%s. ", pgPerTxn(after), pgPerTxn(before), speed * 100,
                Math.abs(speed) > HOST_SPEED_TOLERANCE
                        ? String.format(Locale.ROOT, ": **the host's speed changed during the run** (more than %.0f %%)",
                                HOST_SPEED_TOLERANCE * 100)
                        : ""));
        t.append(disturbed == 0 ? "No step was disturbed: the verdicts above stand.\n"
                : String.format(Locale.ROOT, "**%d of %d steps were too disturbed to judge**: a goal whose row names"
                        + " one is not judged by this run; measure again on a quiet machine.%n", disturbed, measured));
        t.append(String.format(Locale.ROOT, "%nIssue 24 goals: %s.%n", all ? "all met" : "not all met"));
        System.out.println(t);
        if (opt.containsKey("out")) {
            Files.writeString(Path.of(opt.get("out")), t.toString());
        }
        return all;
    }

    private static void row(StringBuilder t, List<Boolean> goals, String figure, String value, String goal, boolean ok,
            Map<String, StepHost> hosts, String... steps) {
        goals.add(ok);
        String verdict = verdict(hosts, steps);
        t.append("| ").append(figure).append(" | ").append(value).append(" | ").append(goal).append(" | ")
                .append(LoadDriver.Report.met(ok)).append(verdict.startsWith("**disturbed") ? " (not judged)" : "")
                .append(" | ").append(verdict).append(" |\n");
    }

    private static String verdict(Map<String, StepHost> hosts, String... steps) {
        var bad = new ArrayList<String>();
        boolean any = false;
        for (String s : steps) {
            StepHost h = hosts.get(s);
            if (h != null && h.measured()) {
                any = true;
                if (h.disturbed()) {
                    bad.add(h.step());
                }
            }
        }
        return !any ? "-" : bad.isEmpty() ? "quiet" : "**disturbed**: " + String.join("; ", bad);
    }

    private static double pgPerTxn(Properties c) {
        return d(c, "pg-cpu-us") / d(c, "transactions");
    }

    private static StepHost loadHost(String label, Properties p, String prefix) {
        if (!p.containsKey(prefix + "host.steal")) {
            return new StepHost(label, Double.NaN, Double.NaN, "-", "", false, false);
        }
        return new StepHost(label, d(p, prefix + "host.steal"), d(p, prefix + "host.other-cores"),
                p.getProperty(prefix + "host.load", "?"), String.format(Locale.ROOT, "%,.0f/s", d(p, prefix + "rate")),
                "true".equals(p.getProperty(prefix + "host.disturbed")), true);
    }

    /**
     * A pgbench run's host: the measured processes are this database's backends, PostgreSQL's shared processes,
     * pgbench itself (bash's {@code time}) and the sampler that reads them.
     */
    private static StepHost ceilingHost(String label, Properties c) {
        if (!c.containsKey("host.busy-us")) {
            return new StepHost(label, Double.NaN, Double.NaN, "-", "", false, false);
        }
        double measured = d(c, "pg-cpu-us") + d(c, "pg-shared-us") + d(c, "sampler-us") + d(c, "pgbench-us");
        double steal = d(c, "host.steal-us") / d(c, "host.total-us");
        double other = Math.max(0, (d(c, "host.busy-us") - measured) / d(c, "elapsed-us"));
        boolean disturbed = !(steal <= LoadDriver.STEAL_LIMIT) || !(other <= LoadDriver.OTHER_LIMIT_CORES);
        return new StepHost(label, steal, other, c.getProperty("loadavg", "?"),
                String.format(Locale.ROOT, "%,.0f tps, %.0f us PostgreSQL + %.0f us pgbench CPU per transaction",
                        d(c, "tps"), pgPerTxn(c), d(c, "pgbench-us") / d(c, "transactions")),
                disturbed, true);
    }

    /** paynotify / floor in each round: {min, max}; NaN when not measured. */
    private static double[] floorShares(Properties jmh, String ours, String floor) {
        double lo = Double.NaN;
        double hi = Double.NaN;
        int rounds = (int) LoadDriver.Report.l(jmh, "rounds");
        for (int r = 1; r <= rounds; r++) {
            double share = d(jmh, ours + "." + r) / d(jmh, floor + "." + r);
            if (!Double.isNaN(share)) {
                lo = Double.isNaN(lo) ? share : Math.min(lo, share);
                hi = Double.isNaN(hi) ? share : Math.max(hi, share);
            }
        }
        return new double[] {lo, hi};
    }

    private static String range(double[] r) {
        return Double.isNaN(r[0]) ? "not measured" : String.format(Locale.ROOT, "%.2f–%.2f", r[0], r[1]);
    }
}
