package io.paynotify.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The end-to-end load driver of issue 6: registers orders with direct SQL, then sends correctly signed notifications
 * over real HTTP to a running paynotify, first deliveries and exact duplicates mixed, across every provider the
 * service serves, in an <em>open loop</em>: request i is due at {@code start + i / rate} whatever the answers do,
 * and its latency is measured from that intended time (no coordinated omission), into an HdrHistogram. Requests
 * go out over {@code connections} (64) keep-alive HTTP/1.1 connections of a small blocking client ({@link
 * #sendLoop}); each step also reports the CPU per notification of the service, its PostgreSQL backends and itself.
 *
 * <p>It searches the highest sustained rate (see {@link #sustained}), measures the latency at 25, 50 and 75 % of
 * it, checks the database (every order that got a success ack is SUCCESS with exactly one APPLIED notification)
 * and prints the result table.
 *
 * <p>With a merchant subscribed to a webhook ({@link #webhooks()}), the same search again, and the lag of the
 * {@code order.paid} webhooks from the commit to a receiver in this JVM ({@link WebhookReceiver}).
 *
 * <pre>
 *   LoadDriver config DIR [PORT]     writes DIR/service.properties (channels, fresh test keys), DIR/webhooks.properties
 *                                    (a merchant whose webhook is 127.0.0.1:PORT, default 18090) and DIR/driver.keys
 *   LoadDriver run key=value...      url= jdbc= keys= [pgbench-tps= service-pid= out= baseline-out= dup=0.5
 *                                    connections=64 step-seconds=15 probe-seconds=5 start-rate=250 max-rate=20000]
 *   LoadDriver webhooks key=value... the same keys, and webhook-port=18090 baseline=FILE (run's baseline-out);
 *                                    appends its rows to out=, writes its figures to figures=
 *   LoadDriver goals key=value...    single= dual= before= after= hooks= jmh= out=: issue 24's table ({@link Goals})
 *   (run and webhooks: attribute=1 attribution-out=FILE adds the {@link Attribution} of the 50 % / same-rate step)
 *   LoadDriver bills key=value...    url= jdbc= keys= admin-token= mgmt= dir= [lines=1000000 rate=200 step-seconds=15
 *                                    service-pid= out=]: a WeChat and an Alipay bill of that many lines uploaded and
 *                                    reconciled, timed, the service's heap sampled, notifications' p99 at rate= while
 *                                    each is reconciled and without (see {@link #bills()})
 * </pre>
 */
public final class LoadDriver {

    /**
     * A step is sustained when nothing failed and the latency shows no queue building up: the median at most
     * {@link #SUSTAINED_P50_MICROS} and the p99 at most {@link #SUSTAINED_P99_MICROS}. An overloaded service's
     * backlog grows for the whole step, so its median climbs to hundreds of milliseconds within seconds; these bounds
     * stay loose enough that a shared machine's scheduling hiccups alone do not fail a step.
     */
    static final long SUSTAINED_P50_MICROS = 50_000;
    static final long SUSTAINED_P99_MICROS = 500_000;
    /** The providers' own deadline: an answer later than this is a lost ack. */
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(5);
    /** The webhook receiver's port when none is given. */
    static final int DEFAULT_WEBHOOK_PORT = 18090;
    /** The merchant client of the webhook run. */
    static final String WEBHOOK_CLIENT = "bench-merchant";
    /** The goals of the webhook run (the issue): p99 lag from commit to the receiver, and the throughput given up. */
    static final double GOAL_LAG_P99_MS = 250;
    static final double GOAL_COST = 0.15;
    /** How long the webhook run waits for the last deliveries of a step, at most (a failed attempt retries in 5 s). */
    static final Duration STRAGGLER_DEADLINE = Duration.ofSeconds(60);

    private final Map<String, String> opt;
    private final HttpClient http;
    /** The first (or only) service's base URL: provider detection and the webhook run talk to it. */
    private final String url;
    /** Every service instance the load goes to, round-robin by request ({@code url=} is a comma-separated list). */
    private final List<URI> targets = new ArrayList<>();
    private final int connections;
    private final String jdbc;
    private final double dupShare;
    private final PrivateKey alipayKey;
    private final PrivateKey wechatV3Key;
    private final String webhookSecret;
    /**
     * While the lag step runs: channel|outTradeNo → epoch microseconds of the order's earliest success ack, an upper
     * bound of its commit (the service acks after it). Null otherwise.
     */
    private volatile Map<String, Long> ackMicros;
    /** The next step's attribution window ({@code attribute=1}: pg_stat_statements and friends), taken by it. */
    private Attribution attributeNext;
    private final List<Provider> providers = new ArrayList<>();
    private final String runTag = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36).toUpperCase(Locale.ROOT);
    private final AtomicLong orderSeq = new AtomicLong();
    /** Every first delivery generated so far: duplicates are exact copies of these. */
    private final List<Delivery> firsts = new ArrayList<>();
    /** Orders that got a success ack, for the final database check: key channel|outTradeNo. */
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> acked = new ConcurrentHashMap<>();
    private final SplittableRandom random = new SplittableRandom(42);
    private long totalSent;
    private long totalErrors;
    private long totalLost;

    enum Provider {
        WECHAT_V2("wechatpay", Fixtures.WX_CHANNEL, "WECHATPAY_V2"),
        ALIPAY("alipay", Fixtures.ALI_CHANNEL, "ALIPAY"),
        WECHAT_V3("wechatpay-v3", Fixtures.WX3_CHANNEL, "WECHATPAY_V3");

        final String path;
        final String channel;
        final String dbName;

        Provider(String path, String channel, String dbName) {
            this.path = path;
            this.channel = channel;
            this.dbName = dbName;
        }
    }

    /** One notification as sent: a first delivery of a new order, or a byte-identical duplicate. */
    record Delivery(Provider provider, String outTradeNo, long signedAt, byte[] wire) {}

    /** One scheduled send: the delivery and the time it was due (latency counts from there). */
    record Task(Delivery delivery, long intended) {}

    /** What one step measured. */
    record StepResult(double rate, double seconds, long sent, long ok, long errors, long lost, Histogram latency,
            Cpu cpu, String load, Host host) {
        StepResult(double rate, double seconds, long sent, long ok, long errors, long lost, Histogram latency, Cpu cpu,
                String load) {
            this(rate, seconds, sent, ok, errors, lost, latency, cpu, load, null);
        }

        double p(double percentile) {
            return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("config")) {
            writeConfig(Path.of(args[1]), args.length >= 3 ? Integer.parseInt(args[2]) : DEFAULT_WEBHOOK_PORT);
            return;
        }
        if (args.length >= 1 && args[0].equals("pgsample")) {
            var opt = new LinkedHashMap<String, String>();
            for (int i = 1; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                opt.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
            pgCluster = opt.get("pg-cluster");
            pgSample(opt.get("db"), Path.of(opt.get("out")), Path.of(opt.get("ready")));
            return;
        }
        if (args.length >= 1 && args[0].equals("report")) {
            var opt = new LinkedHashMap<String, String>();
            for (int i = 1; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                opt.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
            System.exit(Report.write(opt) ? 0 : 1);
        }
        if (args.length >= 1 && args[0].equals("goals")) {
            var opt = new LinkedHashMap<String, String>();
            for (int i = 1; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                opt.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
            System.exit(Goals.write(opt) ? 0 : 1);
        }
        if (args.length >= 1 && args[0].equals("bills")) {
            var opt = new LinkedHashMap<String, String>();
            for (int i = 1; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                opt.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
            System.exit(new LoadDriver(opt).bills() ? 0 : 1);
        }
        if (args.length >= 1 && (args[0].equals("run") || args[0].equals("webhooks"))) {
            var opt = new LinkedHashMap<String, String>();
            for (int i = 1; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                opt.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
            var driver = new LoadDriver(opt);
            System.exit((args[0].equals("run") ? driver.run() : driver.webhooks()) ? 0 : 1);
        }
        System.err.println("usage: LoadDriver config DIR [webhook-port] | LoadDriver run|webhooks url=... jdbc=... keys=FILE [...]");
        System.exit(2);
    }

    // ================================================================== config

    /**
     * Fresh test keys for this run only; the service gets the public halves, the driver the private ones. Also
     * {@code webhooks.properties}: a merchant client subscribed to every bench channel, whose {@code webhook-url} is
     * the driver's {@link WebhookReceiver} on 127.0.0.1 (hence {@code allow-loopback}), with a fresh
     * {@code whsec_} secret that the driver gets too. The service reads it only in the webhook run.
     */
    static void writeConfig(Path dir, int webhookPort) throws IOException {
        Files.createDirectories(dir);
        KeyPair alipay = Fixtures.rsaPair();
        KeyPair v3 = Fixtures.rsaPair();
        var b64 = Base64.getEncoder();
        String props = String.join("\n",
                "# generated by bench/run.sh for one benchmark run: test keys only",
                "paynotify.channels.\"" + Fixtures.WX_CHANNEL + "\".provider=WECHATPAY_V2",
                "paynotify.channels.\"" + Fixtures.WX_CHANNEL + "\".app-id=" + Fixtures.WX_APPID,
                "paynotify.channels.\"" + Fixtures.WX_CHANNEL + "\".mch-id=" + Fixtures.WX_MCH,
                "paynotify.channels.\"" + Fixtures.WX_CHANNEL + "\".api-key=" + Fixtures.WX_KEY,
                "paynotify.channels.\"" + Fixtures.WX_CHANNEL + "\".sign-types=MD5,HMAC-SHA256",
                "paynotify.channels.\"" + Fixtures.ALI_CHANNEL + "\".provider=ALIPAY",
                "paynotify.channels.\"" + Fixtures.ALI_CHANNEL + "\".app-id=" + Fixtures.ALI_APPID,
                "paynotify.channels.\"" + Fixtures.ALI_CHANNEL + "\".alipay-public-key="
                        + b64.encodeToString(alipay.getPublic().getEncoded()),
                "paynotify.channels.\"" + Fixtures.WX3_CHANNEL + "\".provider=WECHATPAY_V3",
                "paynotify.channels.\"" + Fixtures.WX3_CHANNEL + "\".app-id=" + Fixtures.WX3_APPID,
                "paynotify.channels.\"" + Fixtures.WX3_CHANNEL + "\".mch-id=" + Fixtures.WX3_MCH,
                "paynotify.channels.\"" + Fixtures.WX3_CHANNEL + "\".api-v3-key=" + Fixtures.WX3_API_V3_KEY,
                "paynotify.channels.\"" + Fixtures.WX3_CHANNEL + "\".platform-keys.\"" + Fixtures.WX3_SERIAL + "\"="
                        + b64.encodeToString(v3.getPublic().getEncoded()),
                "");
        Files.writeString(dir.resolve("service.properties"), props);
        var random = new SecureRandom();
        byte[] apiSecret = new byte[32];
        random.nextBytes(apiSecret);
        byte[] hookSecret = new byte[32];
        random.nextBytes(hookSecret);
        String whsec = "whsec_" + b64.encodeToString(hookSecret);
        String client = "paynotify.clients.\"" + WEBHOOK_CLIENT + "\".";
        String hooks = String.join("\n",
                "# generated by bench/run.sh for the webhook run: a merchant subscribed to every bench channel",
                client + "secret=" + b64.encodeToString(apiSecret),
                client + "channels=" + Fixtures.WX_CHANNEL + "," + Fixtures.ALI_CHANNEL + "," + Fixtures.WX3_CHANNEL,
                client + "webhook-url=http://127.0.0.1:" + webhookPort + "/webhooks/paynotify",
                client + "webhook-secret=" + whsec,
                "# the receiver is the load driver on this machine",
                "paynotify.webhooks.allow-loopback=true",
                "");
        Files.writeString(dir.resolve("webhooks.properties"), hooks);
        var keys = new Properties();
        keys.setProperty("alipay", b64.encodeToString(alipay.getPrivate().getEncoded()));
        keys.setProperty("wechat-v3", b64.encodeToString(v3.getPrivate().getEncoded()));
        keys.setProperty("webhook-secret", whsec);
        try (var out = Files.newBufferedWriter(dir.resolve("driver.keys"))) {
            keys.store(out, "private test keys of one benchmark run");
        }
    }

    // ================================================================== run

    LoadDriver(Map<String, String> opt) throws Exception {
        this.opt = opt;
        pgCluster = opt.get("pg-cluster");
        for (String u : opt.getOrDefault("url", "http://127.0.0.1:8080").split(",")) {
            URI target = URI.create(u.strip());
            if (!target.getHost().startsWith("127.")) {
                throw new IllegalArgumentException("the load driver only targets 127.0.0.0/8");
            }
            targets.add(target);
        }
        this.url = targets.get(0).toString();
        this.connections = Integer.parseInt(opt.getOrDefault("connections", "64"));
        this.jdbc = opt.get("jdbc");
        this.dupShare = Double.parseDouble(opt.getOrDefault("dup", "0.5"));
        var keys = new Properties();
        try (var in = Files.newBufferedReader(Path.of(opt.get("keys")))) {
            keys.load(in);
        }
        KeyFactory rsa = KeyFactory.getInstance("RSA");
        this.alipayKey = rsa.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(keys.getProperty("alipay"))));
        this.wechatV3Key = rsa.generatePrivate(
                new PKCS8EncodedKeySpec(Base64.getDecoder().decode(keys.getProperty("wechat-v3"))));
        this.webhookSecret = keys.getProperty("webhook-secret");
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .executor(Executors.newFixedThreadPool(2, r -> {
                    Thread t = new Thread(r, "http-client");
                    t.setDaemon(true);
                    return t;
                }))
                .build();
    }

    /**
     * One configuration's figures: the warm-up, the highest sustained rate and its confirmation step (its CPU per
     * notification is the figure at the max rate), the latency steps ({@code latency-steps=}, percentages of the
     * max, default 50; empty for none), the database check. Writes them as properties to {@code figures=} (read by
     * {@link #report}), and {@code baseline-out=} for the webhook run. True when every step at or below the max had
     * no error and no lost ack and the database check is clean.
     */
    boolean run() throws Exception {
        int stepSeconds = Integer.parseInt(opt.getOrDefault("step-seconds", "15"));
        detectProviders();
        warmUp();

        // 1. the highest sustained rate
        Search search = searchMax();
        StepResult atMax = search.atMax();
        double max = search.max();

        // 2. latency at the given shares of it
        var at = new LinkedHashMap<Integer, StepResult>();
        for (String pct : opt.getOrDefault("latency-steps", "50").split(",")) {
            if (!pct.isBlank()) {
                int p = Integer.parseInt(pct.strip());
                Attribution a = p == 50 && targets.size() == 1 ? attribution() : null;
                attributeNext = a;
                StepResult r = step(Math.max(1, Math.round(max * p / 100.0)), stepSeconds, p + " %");
                at.put(p, r);
                if (a != null) {
                    a.after(r.sent(), r.rate(), "no webhook subscribed, the 50 % step", r.cpu().postgres());
                }
            }
        }

        // 3. the database must show every acknowledged payment exactly once
        DbCheck check = checkDatabase();

        // 4. the figures
        var f = new Properties();
        f.setProperty("instances", Integer.toString(targets.size()));
        f.setProperty("providers", providers.toString());
        f.setProperty("dup", Double.toString(dupShare));
        f.setProperty("max", Double.toString(max));
        f.setProperty("max.sustained", Boolean.toString(sustained(atMax)));
        put(f, "max.", atMax);
        for (var e : at.entrySet()) {
            put(f, "at." + e.getKey() + ".", e.getValue());
        }
        f.setProperty("latency-steps", String.join(",", at.keySet().stream().map(String::valueOf).toList()));
        f.setProperty("total.sent", Long.toString(totalSent));
        f.setProperty("total.errors", Long.toString(totalErrors));
        f.setProperty("total.lost", Long.toString(totalLost));
        f.setProperty("db.acked", Long.toString(check.acked()));
        f.setProperty("db.success-acks", Long.toString(check.successAcks()));
        f.setProperty("db.not-success", Long.toString(check.notSuccess()));
        f.setProperty("db.not-one-applied", Long.toString(check.notOneApplied()));
        f.setProperty("db.fewer-rows", Long.toString(check.fewerRows()));
        f.setProperty("db.multi-applied", Long.toString(check.multiApplied()));
        f.setProperty("db.applied-rows", Long.toString(check.appliedRows()));
        f.setProperty("db.paid-orders", Long.toString(check.paidOrders()));
        f.setProperty("db.rows", Long.toString(check.rows()));
        f.setProperty("db.clean", Boolean.toString(check.clean()));
        var rss = new ArrayList<String>();
        for (String pid : servicePids()) {
            rss.add(residentMemory(pid));
        }
        f.setProperty("rss", String.join("; ", rss));
        if (opt.containsKey("figures")) {
            try (var w = Files.newBufferedWriter(Path.of(opt.get("figures")))) {
                f.store(w, "LoadDriver run, " + targets.size() + " instance(s): " + targets);
            }
        }
        if (opt.containsKey("baseline-out")) {
            // what the webhook run compares itself with
            var b = new Properties();
            StepResult half = at.getOrDefault(50, atMax);
            b.setProperty("max", Double.toString(max));
            b.setProperty("max.cpu.service", Double.toString(atMax.cpu().service()));
            b.setProperty("max.cpu.postgres", Double.toString(atMax.cpu().postgres()));
            b.setProperty("half.rate", Double.toString(half.rate()));
            b.setProperty("half.cpu.service", Double.toString(half.cpu().service()));
            b.setProperty("half.cpu.jit", Double.toString(half.cpu().jit()));
            b.setProperty("half.cpu.postgres", Double.toString(half.cpu().postgres()));
            b.setProperty("half.p50", Double.toString(half.p(50)));
            b.setProperty("half.p99", Double.toString(half.p(99)));
            try (var w = Files.newBufferedWriter(Path.of(opt.get("baseline-out")))) {
                b.store(w, "LoadDriver run: the figures without a subscribed webhook");
            }
        }
        boolean measuredClean = at.values().stream().allMatch(s -> s.errors() == 0 && s.lost() == 0)
                && atMax.errors() == 0 && atMax.lost() == 0;
        return check.clean() && measuredClean;
    }

    /** A new attribution window when {@code attribute=1}, appending to {@code attribution-out=}; else null. */
    private Attribution attribution() {
        if (!"1".equals(opt.get("attribute"))) {
            return null;
        }
        String out = opt.get("attribution-out");
        return new Attribution(jdbc, out == null ? null : Path.of(out));
    }

    private static void put(Properties f, String prefix, StepResult s) {
        f.setProperty(prefix + "rate", Double.toString(s.rate()));
        f.setProperty(prefix + "seconds", Double.toString(s.seconds()));
        f.setProperty(prefix + "sent", Long.toString(s.sent()));
        f.setProperty(prefix + "ok", Long.toString(s.ok()));
        f.setProperty(prefix + "errors", Long.toString(s.errors()));
        f.setProperty(prefix + "lost", Long.toString(s.lost()));
        f.setProperty(prefix + "p50", Double.toString(s.p(50)));
        f.setProperty(prefix + "p99", Double.toString(s.p(99)));
        f.setProperty(prefix + "p999", Double.toString(s.p(99.9)));
        f.setProperty(prefix + "pmax", Double.toString(s.latency().getMaxValue() / 1000.0));
        f.setProperty(prefix + "cpu.service", Double.toString(s.cpu().service()));
        f.setProperty(prefix + "cpu.jit", Double.toString(s.cpu().jit()));
        f.setProperty(prefix + "cpu.postgres", Double.toString(s.cpu().postgres()));
        f.setProperty(prefix + "cpu.pg-shared", Double.toString(s.cpu().pgShared()));
        f.setProperty(prefix + "cpu.driver", Double.toString(s.cpu().driver()));
        f.setProperty(prefix + "load", s.load());
        double[] each = s.cpu().services();
        for (int i = 0; i < each.length; i++) {
            // per notification that instance served: round-robin gives each 1/k of the step's requests
            f.setProperty(prefix + "cpu.instance." + (i + 1), Double.toString(each[i] * each.length));
            f.setProperty(prefix + "cpu.instance." + (i + 1) + ".jit",
                    Double.toString(s.cpu().jits()[i] * each.length));
        }
        if (s.host() != null) {
            f.setProperty(prefix + "host.steal", Double.toString(s.host().steal()));
            f.setProperty(prefix + "host.other-cores", Double.toString(s.host().otherCores()));
            f.setProperty(prefix + "host.load", s.host().load());
            f.setProperty(prefix + "host.disturbed", Boolean.toString(s.host().disturbed()));
        }
    }

    // ================================================================== the webhook run

    /**
     * The second run of {@code run.sh}, against the service restarted with {@code webhooks.properties}: a merchant
     * client subscribed to every bench channel, whose webhook is this driver's {@link WebhookReceiver}. Every first
     * delivery now writes an {@code order.paid} event with one delivery row, which the service's worker POSTs here.
     *
     * <ol>
     *   <li>the highest sustained rate, by the same search as {@link #run()}: its cost against the rate without a
     *       subscribed webhook ({@code baseline=}, written by {@code run});
     *   <li>the deliveries left behind by the confirmation step, and how long they take to arrive;
     *   <li>one step at 50 % of that rate: the lag of every {@code order.paid} event of the step from its
     *       {@code events.created_at} to its first arrival here, and from the driver's ack of its order, after
     *       waiting (at most {@link #STRAGGLER_DEADLINE}) until every expected event has arrived;
     *   <li>one step at the rate of {@code run}'s 50 % step: the CPU per notification of the service (without its
     *       JIT threads) and its PostgreSQL backends, against that step's: what the webhook costs where CPU is the
     *       limit, a figure the neighbours of a shared machine barely move;
     *   <li>the database check of {@link #run()}, and the deliveries' states.
     * </ol>
     *
     * Appends its rows to the table in {@code out=}.
     */
    boolean webhooks() throws Exception {
        int stepSeconds = Integer.parseInt(opt.getOrDefault("step-seconds", "15"));
        int port = Integer.parseInt(opt.getOrDefault("webhook-port", Integer.toString(DEFAULT_WEBHOOK_PORT)));
        if (webhookSecret == null) {
            throw new IllegalArgumentException("the keys file has no webhook-secret (LoadDriver config writes it)");
        }
        var baseline = new Properties();
        if (opt.containsKey("baseline")) {
            try (var in = Files.newBufferedReader(Path.of(opt.get("baseline")))) {
                baseline.load(in);
            }
        }
        double without = Double.parseDouble(baseline.getProperty("max", "NaN"));
        try (var receiver = new WebhookReceiver(port, webhookSecret)) {
            log("webhook receiver on 127.0.0.1:%d, client %s", port, WEBHOOK_CLIENT);
            detectProviders();
            warmUp();

            // 1. the highest sustained rate with the webhook, and what the confirmation step left to deliver
            Search search = searchMax();
            double max = search.max();
            StepResult atMax = search.atMax();
            long pendingAfterMax = pendingDeliveries();
            long t0 = System.nanoTime();
            boolean drained = waitUntil(() -> pendingDeliveries() == 0, Duration.ofSeconds(120));
            double drainSeconds = (System.nanoTime() - t0) / 1e9;
            log("webhook deliveries pending after the confirmation: %d, %s after %.1f s", pendingAfterMax,
                    drained ? "all delivered" : "NOT all delivered", drainSeconds);

            // 2. the lag at 50 % of it
            double rate = Math.max(1, Math.round(max * 0.5));
            long lastEventBefore = maxEventId();
            int ackedBefore = acked.size();
            Map<String, Long> acks = new ConcurrentHashMap<>();
            ackMicros = acks;
            StepResult half = step(rate, stepSeconds, "lag 50 %");
            ackMicros = null;
            long stepEnded = System.nanoTime();
            int newlyAcked = acked.size() - ackedBefore;
            List<PaidEvent> expected = paidEventsAfter(lastEventBefore);
            var missing = new ArrayList<>(expected);
            waitUntil(() -> {
                missing.removeIf(e -> receiver.arrival(e.eventId()) != null);
                return missing.isEmpty();
            }, STRAGGLER_DEADLINE);
            double waited = (System.nanoTime() - stepEnded) / 1e9;
            Lags lags = lags(expected, receiver, acks);
            log("lag 50 %%: %d of %d order.paid events delivered (%d orders first acknowledged in the step), waited"
                    + " %.1f s after the step; from created_at p50 %.1f ms p99 %.1f ms max %.1f ms; from the ack p50"
                    + " %.1f ms p99 %.1f ms max %.1f ms; receiver: %d arrivals, %d repeats, %d bad signatures",
                    lags.fromCreated().length, expected.size(), newlyAcked, waited, ms(lags.fromCreated(), 50),
                    ms(lags.fromCreated(), 99), ms(lags.fromCreated(), 100), ms(lags.fromAck(), 50),
                    ms(lags.fromAck(), 99), ms(lags.fromAck(), 100), receiver.arrivals(), receiver.repeats(),
                    receiver.badSignatures());

            // 3. the CPU per notification at the rate of run's 50 % step, the same load with and without the webhook:
            // CPU time barely moves with the neighbours, whereas the two maxima above come from two searches minutes
            // apart on a shared machine
            double sameRate = Double.parseDouble(baseline.getProperty("half.rate", "NaN"));
            StepResult same = null;
            long sameEvents = 0;
            if (!Double.isNaN(sameRate)) {
                long before = maxEventId();
                Attribution a = attribution();
                attributeNext = a;
                same = step(sameRate, stepSeconds, "same rate");
                waitUntil(() -> pendingDeliveries() == 0, STRAGGLER_DEADLINE);
                if (a != null) {
                    a.after(same.sent(), same.rate(), "webhook subscribed, the same rate (deliveries drained)",
                            same.cpu().postgres());
                }
                sameEvents = countEventsAfter(before);
            }

            // 4. the database: every acknowledged payment exactly once, and the deliveries' states
            DbCheck check = checkDatabase();
            DeliveryStates states = deliveryStates();
            String rss = residentMemory(servicePids().isEmpty() ? null : servicePids().get(0));

            // 5. the figures (read by Goals), and the rows, appended to run's table
            double cost = 1 - max / without;
            double lagP99 = ms(lags.fromCreated(), 99);
            var f = new Properties();
            f.setProperty("max", Double.toString(max));
            f.setProperty("max.sustained", Boolean.toString(sustained(atMax)));
            put(f, "max.", atMax);
            put(f, "half.", half);
            if (same != null) {
                put(f, "same.", same);
                f.setProperty("same.events", Long.toString(sameEvents));
                f.setProperty("same.delivery-per-event",
                        Double.toString(sameEvents == 0 ? Double.NaN : same.cpu().delivery() * same.sent() / sameEvents));
            }
            f.setProperty("pending-after-max", Long.toString(pendingAfterMax));
            f.setProperty("drained", Boolean.toString(drained));
            f.setProperty("drain-seconds", Double.toString(drainSeconds));
            f.setProperty("lag.p50", Double.toString(ms(lags.fromCreated(), 50)));
            f.setProperty("lag.p99", Double.toString(lagP99));
            f.setProperty("lag.max", Double.toString(ms(lags.fromCreated(), 100)));
            f.setProperty("lag.ack.p99", Double.toString(ms(lags.fromAck(), 99)));
            f.setProperty("lag.expected", Integer.toString(expected.size()));
            f.setProperty("lag.delivered", Integer.toString(lags.fromCreated().length));
            f.setProperty("lag.missing", Integer.toString(missing.size()));
            f.setProperty("bad-signatures", Long.toString(receiver.badSignatures()));
            f.setProperty("db.clean", Boolean.toString(check.clean()));
            f.setProperty("total.lost", Long.toString(totalLost));
            f.setProperty("rss", rss);
            if (opt.containsKey("figures")) {
                try (var w = Files.newBufferedWriter(Path.of(opt.get("figures")))) {
                    f.store(w, "LoadDriver webhooks");
                }
            }
            var t = new StringBuilder();
            t.append(String.format(Locale.ROOT,
                    "| service max sustained rate, webhook subscribed | %,.0f notifications/s (p99 %.1f ms, %d errors,"
                            + " %d lost over %d s); CPU per notification: service %.0f us (%.0f of them its JIT"
                            + " compiler), PostgreSQL %.0f us; deliveries pending at its end: %,d, %s %.1f s later |%n",
                    max, atMax.p(99), atMax.errors(), atMax.lost(), (long) atMax.seconds(), atMax.cpu().service(),
                    atMax.cpu().jit(), atMax.cpu().postgres(), pendingAfterMax, drained ? "all delivered" : "NOT all delivered",
                    drainSeconds));
            t.append(String.format(Locale.ROOT,
                    "| **cost of the webhook outbox** | **%.1f %%** fewer notifications/s (1 - %,.0f / %,.0f); goal"
                            + " <= 15 %%: %s |%n",
                    cost * 100, max, without, Double.isNaN(cost) ? "not measured"
                            : cost < 0 ? "not resolved (faster with the webhook: the machine, not the webhook)"
                            : cost <= GOAL_COST ? "met" : "not met"));
            if (same != null) {
                double baseService = Double.parseDouble(baseline.getProperty("half.cpu.service", "NaN"));
                double baseJit = Double.parseDouble(baseline.getProperty("half.cpu.jit", "NaN"));
                double basePostgres = Double.parseDouble(baseline.getProperty("half.cpu.postgres", "NaN"));
                double cpuWithout = baseService - baseJit + basePostgres;
                double cpuWith = same.cpu().serviceWithoutJit() + same.cpu().postgres();
                t.append(String.format(Locale.ROOT,
                        "| CPU per notification at %,.0f/s (run's 50 %% step), without / with webhook | service"
                                + " without its JIT threads %.0f / %.0f us, its PostgreSQL backends %.0f / %.0f us:"
                                + " %.0f / %.0f us, **%.0f %% less throughput where CPU is the limit** (1 - %.0f /"
                                + " %.0f); webhook delivery threads %.0f us per delivered event (JIT %.0f / %.0f us"
                                + " per notification, not counted) |%n",
                        sameRate, baseService - baseJit, same.cpu().serviceWithoutJit(), basePostgres,
                        same.cpu().postgres(), cpuWithout, cpuWith, (1 - cpuWithout / cpuWith) * 100, cpuWithout,
                        cpuWith,
                        sameEvents == 0 ? Double.NaN : same.cpu().delivery() * same.sent() / sameEvents, baseJit,
                        same.cpu().jit()));
            }
            t.append(String.format(Locale.ROOT,
                    "| latency at 50 %% with the webhook (%,.0f/s, %d s) | p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms,"
                            + " max %.1f ms; %d errors, %d lost |%n",
                    half.rate(), (long) half.seconds(), half.p(50), half.p(99), half.p(99.9),
                    half.latency().getMaxValue() / 1000.0, half.errors(), half.lost()));
            t.append(String.format(Locale.ROOT,
                    "| **webhook lag at 50 %%** (commit to receiver, %,.0f/s, %d s) | from `events.created_at`: p50"
                            + " %.1f ms, **p99 %.1f ms**, max %.1f ms; from the driver's ack: p50 %.1f ms, p99 %.1f ms,"
                            + " max %.1f ms; goal p99 <= 250 ms: %s |%n",
                    half.rate(), (long) half.seconds(), ms(lags.fromCreated(), 50), lagP99,
                    ms(lags.fromCreated(), 100), ms(lags.fromAck(), 50), ms(lags.fromAck(), 99),
                    ms(lags.fromAck(), 100),
                    missing.isEmpty() && lagP99 <= GOAL_LAG_P99_MS ? "met" : "not met"));
            t.append(String.format(Locale.ROOT,
                    "| webhooks delivered in the 50 %% step | %,d of %,d expected `order.paid` (%,d orders first"
                            + " acknowledged), the last %.1f s after the step's last request; receiver: %d repeats,"
                            + " %d bad signatures |%n",
                    lags.fromCreated().length, expected.size(), newlyAcked, waited, receiver.repeats(),
                    receiver.badSignatures()));
            t.append(String.format(Locale.ROOT,
                    "| database check, webhook run | %,d orders acknowledged: %d not SUCCESS, %d without exactly one"
                            + " APPLIED; deliveries %,d SUCCEEDED, %d PENDING, %d FAILED, %d retried; %,d events |%n",
                    check.acked, check.notSuccess, check.notOneApplied, states.succeeded(), states.pending(),
                    states.failed(), states.retried(), states.events()));
            t.append(String.format(Locale.ROOT, "| resident memory of the service, webhook run | %s |%n", rss));
            System.out.println();
            System.out.println(t);
            if (opt.containsKey("out")) {
                Files.writeString(Path.of(opt.get("out")), t.toString(), java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            }
            return check.clean() && half.errors() == 0 && half.lost() == 0
                    && (same == null || same.errors() == 0 && same.lost() == 0)
                    && missing.isEmpty() && receiver.badSignatures() == 0;
        }
    }

    /** An {@code order.paid} event as the database holds it; {@code createdMicros} in epoch microseconds. */
    record PaidEvent(String eventId, String order, long createdMicros) {}

    /** Lags in microseconds, sorted; only for events that arrived. {@code fromAck} may hold negative values. */
    record Lags(long[] fromCreated, long[] fromAck) {}

    private static Lags lags(List<PaidEvent> events, WebhookReceiver receiver, Map<String, Long> acks) {
        var fromCreated = new ArrayList<Long>();
        var fromAck = new ArrayList<Long>();
        for (PaidEvent e : events) {
            Long arrived = receiver.arrival(e.eventId());
            if (arrived == null) {
                continue;
            }
            fromCreated.add(arrived - e.createdMicros());
            Long ack = acks.get(e.order());
            if (ack != null) {
                fromAck.add(arrived - ack);
            }
        }
        return new Lags(sorted(fromCreated), sorted(fromAck));
    }

    private static long[] sorted(List<Long> values) {
        long[] a = values.stream().mapToLong(Long::longValue).toArray();
        java.util.Arrays.sort(a);
        return a;
    }

    /** The nearest-rank percentile of sorted microseconds, in milliseconds (100: the maximum); NaN when empty. */
    static double ms(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] / 1000.0;
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls every 20 ms until the condition holds or the deadline passes; whether it held. */
    private static boolean waitUntil(Condition c, Duration deadline) throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        while (!c.holds()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    private long maxEventId() throws SQLException {
        try (Connection c = db(); Statement st = c.createStatement()) {
            return count(st, "SELECT coalesce(max(id), 0) FROM paynotify.events");
        }
    }

    private long countEventsAfter(long id) throws SQLException {
        try (Connection c = db(); Statement st = c.createStatement()) {
            return count(st, "SELECT count(*) FROM paynotify.events WHERE id > " + id);
        }
    }

    private long pendingDeliveries() throws SQLException {
        try (Connection c = db(); Statement st = c.createStatement()) {
            return count(st, "SELECT count(*) FROM paynotify.deliveries WHERE state = 'PENDING'");
        }
    }

    /**
     * The {@code order.paid} events written after that row id. {@code created_at} is a {@code timestamptz}: read as
     * an {@code OffsetDateTime}, an absolute instant, so neither the JVM's nor the session's time zone enters.
     */
    private List<PaidEvent> paidEventsAfter(long id) throws SQLException {
        try (Connection c = db(); PreparedStatement ps = c.prepareStatement("SELECT event_id, channel, out_trade_no,"
                + " created_at FROM paynotify.events WHERE id > ? AND type = 'order.paid' ORDER BY id")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                var out = new ArrayList<PaidEvent>();
                while (rs.next()) {
                    Instant created = rs.getObject(4, java.time.OffsetDateTime.class).toInstant();
                    out.add(new PaidEvent(rs.getString(1), rs.getString(2) + "|" + rs.getString(3),
                            WebhookReceiver.epochMicros(created)));
                }
                return out;
            }
        }
    }

    record DeliveryStates(long succeeded, long pending, long failed, long retried, long events) {}

    private DeliveryStates deliveryStates() throws SQLException {
        try (Connection c = db(); Statement st = c.createStatement()) {
            long succeeded = count(st, "SELECT count(*) FROM paynotify.deliveries WHERE state = 'SUCCEEDED'");
            long pending = count(st, "SELECT count(*) FROM paynotify.deliveries WHERE state = 'PENDING'");
            long failed = count(st, "SELECT count(*) FROM paynotify.deliveries WHERE state = 'FAILED'");
            long retried = count(st, "SELECT count(*) FROM paynotify.deliveries WHERE attempts > 1");
            long events = count(st, "SELECT count(*) FROM paynotify.events");
            return new DeliveryStates(succeeded, pending, failed, retried, events);
        }
    }

    private void detectProviders() throws Exception {
        providers.add(Provider.WECHAT_V2);
        providers.add(Provider.ALIPAY);
        if (serves(Provider.WECHAT_V3)) {
            providers.add(Provider.WECHAT_V3);
        }
        log("providers: %s; duplicates: %.0f %%; run tag %s", providers, dupShare * 100, runTag);
    }

    /**
     * Warm-up, gently ramped so that a cold JIT and an empty connection pool are not measured (not counted). The
     * second rate is repeated until it is sustained, at most 5 times: a service started a moment ago on a busy
     * two-core machine still has seconds of JIT work queued, and the search must not begin before it has caught up
     * (the webhook run's service, restarted just before, met its first probes much colder than the first run's,
     * which had sat through pgbench).
     */
    private void warmUp() throws Exception {
        double startRate = Double.parseDouble(opt.getOrDefault("start-rate", "250"));
        step(50, 6, "warm-up");
        for (int i = 0; i < 5 && !sustained(step(Math.min(150, startRate), 6, "warm-up")); i++) {
            // once more
        }
        if (opt.containsKey("warm-rate")) {
            // a service instance started just now (the second one, the webhook run's) needs its JIT warmed at a real
            // rate too: without it the webhook run's 4,000/s probe met 150 of 319 us per notification in JIT threads
            for (int i = 0; i < 3 && !sustained(step(Double.parseDouble(opt.get("warm-rate")), 6, "warm-up")); i++) {
                // once more
            }
        }
    }

    /** The highest sustained rate and its confirmation step. */
    record Search(double max, StepResult atMax) {}

    /**
     * The highest sustained rate: doubles from {@code start-rate} (probes of {@code probe-seconds}) until a step
     * fails, bisects up to three times, then confirms over {@code step-seconds}, stepping down 10 % while the
     * confirmation does not hold. The same search, with the same rates, for every configuration compared.
     */
    private Search searchMax() throws Exception {
        int probeSeconds = Integer.parseInt(opt.getOrDefault("probe-seconds", "5"));
        int stepSeconds = Integer.parseInt(opt.getOrDefault("step-seconds", "15"));
        double startRate = Double.parseDouble(opt.getOrDefault("start-rate", "250"));
        double maxRate = Double.parseDouble(opt.getOrDefault("max-rate", "20000"));
        double good = 0;
        double bad = 0;
        for (double r = startRate; r <= maxRate; r *= 2) {
            if (sustained(step(r, probeSeconds, "probe"))) {
                good = r;
            } else {
                bad = r;
                break;
            }
        }
        if (good == 0) {
            log("not even %.0f/s is sustained", startRate);
            good = startRate / 2;
        }
        if (bad == 0) {
            bad = maxRate * 2;
        }
        for (int i = 0; i < 3 && bad - good > good * 0.08; i++) {
            double mid = Math.round((good + bad) / 2);
            if (sustained(step(mid, probeSeconds, "bisect"))) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        // confirm over a full step; step down by 10 % while it does not hold
        StepResult atMax = null;
        for (int i = 0; i < 3; i++) {
            atMax = step(good, stepSeconds, "confirm");
            if (sustained(atMax)) {
                break;
            }
            good = Math.round(good * 0.9);
        }
        return new Search(good, atMax);
    }

    // ================================================================== the statement benchmark (issue 23)

    /** One large bill of the statement benchmark: where it goes and what it measured. */
    record BillRun(String label, String channel, Path file, long bytes, double seconds, int status, String answer,
            long heapBefore, long heapPeak, StepResult during) {}

    /**
     * Issue 23 item 2: for a WeChat ALL bill (gzip) and an Alipay zip of {@code lines} payments each, all of
     * existing paid orders ({@link BillFiles}), the time from the upload's first byte to the reconciled statement's
     * answer ({@code POST /admin/statements/{channel}/{day}}), the service's heap used (sampled every 100 ms from
     * {@code jvm_memory_used_bytes{area="heap"}} on the management port) and notifications' latency at {@code rate}
     * while it runs, in back-to-back steps of 3 s, against a step at the same rate with no statement work.
     */
    boolean bills() throws Exception {
        long n = Long.parseLong(opt.getOrDefault("lines", "1000000"));
        double rate = Double.parseDouble(opt.getOrDefault("rate", "200"));
        int stepSeconds = Integer.parseInt(opt.getOrDefault("step-seconds", "15"));
        Path dir = Path.of(opt.get("dir"));
        String mgmt = opt.get("mgmt");
        java.time.LocalDate day = java.time.LocalDate.now(BillFiles.BEIJING).minusDays(3);
        detectProviders();
        warmUp();
        Path wx = dir.resolve("wechat-" + n + ".csv.gz");
        Path ali = dir.resolve("alipay-" + n + ".zip");
        long t = System.nanoTime();
        BillFiles.wechat(wx, Fixtures.WX_APPID, Fixtures.WX_MCH, day, n, "BW");
        BillFiles.alipay(ali, Fixtures.ALI_APPID, day, n, "BA");
        log("bills written in %.1f s: %s %d bytes, %s %d bytes", (System.nanoTime() - t) / 1e9, wx, Files.size(wx),
                ali, Files.size(ali));
        t = System.nanoTime();
        try (Connection c = db()) {
            BillFiles.insertOrders(c, Fixtures.WX_CHANNEL, "WECHATPAY_V2", "4200", day, n, "BW");
            BillFiles.insertOrders(c, Fixtures.ALI_CHANNEL, "ALIPAY", "2026", day, n, "BA");
        }
        log("%d paid orders per channel inserted in %.1f s", n, (System.nanoTime() - t) / 1e9);
        StepResult baseline = step(rate, stepSeconds, "baseline");
        List<BillRun> runs = new ArrayList<>();
        runs.add(billRun("WeChat", Fixtures.WX_CHANNEL, wx, day, rate, mgmt));
        runs.add(billRun("Alipay", Fixtures.ALI_CHANNEL, ali, day, rate, mgmt));
        StepResult after = step(rate, stepSeconds, "after");
        boolean ok = true;
        var md = new StringBuilder();
        md.append("| measure | WeChat ALL bill (gzip) | Alipay zip |\n|---|---|---|\n");
        md.append("| lines (payments, each of an existing paid order) | ").append(n).append(" | ").append(n).append(" |\n");
        md.append("| file as uploaded | ").append(mib(runs.get(0).bytes())).append(" | ").append(mib(runs.get(1).bytes()))
                .append(" |\n");
        md.append("| upload to reconciled statement | ").append(String.format(Locale.ROOT, "%.1f s", runs.get(0).seconds()))
                .append(" | ").append(String.format(Locale.ROOT, "%.1f s", runs.get(1).seconds())).append(" |\n");
        md.append("| lines per second | ")
                .append(String.format(Locale.ROOT, "%.0f", n / runs.get(0).seconds())).append(" | ")
                .append(String.format(Locale.ROOT, "%.0f", n / runs.get(1).seconds())).append(" |\n");
        md.append("| service heap used: before → peak sampled | ")
                .append(mib(runs.get(0).heapBefore())).append(" → ").append(mib(runs.get(0).heapPeak())).append(" | ")
                .append(mib(runs.get(1).heapBefore())).append(" → ").append(mib(runs.get(1).heapPeak())).append(" |\n");
        md.append(String.format(Locale.ROOT,
                "| notifications at %.0f/s while reconciling: p50 / p99 / max | %s | %s |%n", rate,
                pcts(runs.get(0).during()), pcts(runs.get(1).during())));
        md.append(String.format(Locale.ROOT,
                "| the same with no statement work (before / after): p50 / p99 / max | %s | %s |%n",
                pcts(baseline), pcts(after)));
        md.append(String.format(Locale.ROOT,
                "| notifications while reconciling: sent, errors, lost acks | %d, %d, %d | %d, %d, %d |%n",
                runs.get(0).during().sent(), runs.get(0).during().errors(), runs.get(0).during().lost(),
                runs.get(1).during().sent(), runs.get(1).during().errors(), runs.get(1).during().lost()));
        for (BillRun r : runs) {
            var answer = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.answer());
            boolean good = r.status() == 200 && answer.path("payments").path("count").asLong() == n
                    && answer.path("openDifferences").asLong() == 0
                    && "RECONCILED".equals(answer.path("status").asText());
            log("%s: %d, status %s, payments %s, openDifferences %s%s", r.label(), r.status(),
                    answer.path("status").asText(), answer.path("payments"), answer.path("openDifferences"),
                    good ? "" : "  (NOT the reconciled statement expected)");
            ok &= good && r.during().errors() == 0 && r.during().lost() == 0;
        }
        md.append("\nservice ").append(residentMemory(opt.get("service-pid"))).append("; bills of ").append(day)
                .append("; load average at the end ").append(loadAverage()).append("\n");
        System.out.println();
        System.out.print(md);
        if (opt.containsKey("out")) {
            Files.writeString(Path.of(opt.get("out")), md.toString());
        }
        return ok;
    }

    private BillRun billRun(String label, String channel, Path file, java.time.LocalDate day, double rate, String mgmt)
            throws Exception {
        System.gc();
        long heapBefore = heapUsed(mgmt);
        var peak = new AtomicLong(heapBefore);
        var running = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                try {
                    peak.accumulateAndGet(heapUsed(mgmt), Math::max);
                    Thread.sleep(100);
                } catch (Exception e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        var answer = new java.util.concurrent.atomic.AtomicReference<HttpResponse<String>>();
        var failure = new java.util.concurrent.atomic.AtomicReference<Exception>();
        long t0 = System.nanoTime();
        var finished = new AtomicLong();
        Thread upload = new Thread(() -> {
            try {
                answer.set(http.send(HttpRequest.newBuilder(URI.create(url + "/admin/statements/" + channel + "/" + day))
                                .timeout(Duration.ofMinutes(30))
                                .header("Authorization", "Bearer " + opt.get("admin-token"))
                                .header("Content-Type", "application/octet-stream")
                                .POST(HttpRequest.BodyPublishers.ofFile(file))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            } catch (Exception e) {
                failure.set(e);
            } finally {
                finished.set(System.nanoTime());
            }
        }, "upload");
        upload.start();
        Histogram during = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        long sent = 0;
        long okCount = 0;
        long errors = 0;
        long lost = 0;
        double seconds = 0;
        while (upload.isAlive()) {
            StepResult s = step(rate, 3, label.toLowerCase(Locale.ROOT));
            during.add(s.latency());
            sent += s.sent();
            okCount += s.ok();
            errors += s.errors();
            lost += s.lost();
            seconds += s.seconds();
        }
        upload.join();
        running.set(false);
        sampler.join();
        if (failure.get() != null) {
            throw failure.get();
        }
        double took = (finished.get() - t0) / 1e9;
        log("%s bill of %s: %d after %.1f s; heap %s → peak %s", label, channel, answer.get().statusCode(), took,
                mib(heapBefore), mib(peak.get()));
        var merged = new StepResult(rate, seconds, sent, okCount, errors, lost, during, null, loadAverage());
        return new BillRun(label, channel, file, Files.size(file), took, answer.get().statusCode(), answer.get().body(),
                heapBefore, peak.get(), merged);
    }

    /** The service's heap in use: the sum of {@code jvm_memory_used_bytes{area="heap",…}} on the management port. */
    private long heapUsed(String mgmt) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(mgmt + "/q/metrics"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        long sum = 0;
        for (String line : r.body().split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    private static String pcts(StepResult s) {
        return String.format(Locale.ROOT, "%.1f / %.1f / %.1f ms", s.p(50), s.p(99), s.latency().getMaxValue() / 1000.0);
    }

    /** Sustained: every request answered with the success ack in time, and the latency shows no queue building up. */
    static boolean sustained(StepResult s) {
        return s.errors() == 0 && s.lost() == 0 && s.latency().getValueAtPercentile(50) <= SUSTAINED_P50_MICROS
                && s.latency().getValueAtPercentile(99) <= SUSTAINED_P99_MICROS;
    }

    /** True when the service has an adapter for that provider (an unsigned probe gets 401, not 404). */
    private boolean serves(Provider p) throws Exception {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url + "/notify/" + p.path + "/" + p.channel))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).timeout(ACK_TIMEOUT).build(),
                HttpResponse.BodyHandlers.discarding());
        return r.statusCode() != 404;
    }

    // ================================================================== one step

    private StepResult step(double rate, int seconds, String label) throws Exception {
        int n = (int) Math.round(rate * seconds);
        List<Delivery> plan = plan(n);
        System.gc();
        Thread.sleep(1000);
        var latency = new ConcurrentHistogram(TimeUnit.SECONDS.toMicros(60), 3);
        Attribution attribution = attributeNext;
        attributeNext = null;
        if (attribution != null) {
            attribution.before();
        }
        long[] hostBefore = procStat();
        long wallBefore = System.nanoTime();
        Cpu before = cpu();
        var ok = new AtomicLong();
        var errors = new AtomicLong();
        var lost = new AtomicLong();
        var done = new CountDownLatch(n);
        // one queue per service instance, each with its share of the connections; request i goes to instance
        // i mod k (round-robin), so k instances each get 1/k of the load, duplicates of one order included
        int k = targets.size();
        var queues = new ArrayList<java.util.concurrent.LinkedBlockingQueue<Task>>();
        var workers = new ArrayList<Thread>();
        for (int q = 0; q < k; q++) {
            var queue = new java.util.concurrent.LinkedBlockingQueue<Task>();
            queues.add(queue);
            URI target = targets.get(q);
            for (int c = 0; c < Math.max(1, connections / k); c++) {
                Thread t = new Thread(() -> sendLoop(target, queue, latency, ok, errors, lost, done),
                        "conn-" + q + "-" + c);
                t.setDaemon(true);
                t.start();
                workers.add(t);
            }
        }
        long period = (long) (1e9 / rate);
        long start = System.nanoTime() + 10_000_000;
        for (int i = 0; i < n; i++) {
            long intended = start + i * period;
            long wait = intended - System.nanoTime();
            if (wait > 20_000) {
                LockSupport.parkNanos(wait - 10_000);
            }
            while (System.nanoTime() < intended) {
                Thread.onSpinWait();
            }
            queues.get(i % k).add(new Task(plan.get(i), intended));
        }
        if (!done.await(ACK_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
            lost.addAndGet(done.getCount());
        }
        workers.forEach(Thread::interrupt);
        Cpu used = cpu().minus(before);
        Host host = Host.of(hostBefore, procStat(), (System.nanoTime() - wallBefore) / 1000.0,
                used.service() + used.postgres() + used.pgShared() + used.driver(), loadAverage());
        var s = new StepResult(rate, seconds, n, ok.get(), errors.get(), lost.get(), latency.copy(), used.per(n),
                loadAverage(), host);

        totalSent += n;
        totalErrors += s.errors();
        totalLost += s.lost();
        log("%-8s %7.0f/s %3d s: ok %d, errors %d, lost %d; p50 %.1f ms p99 %.1f ms p99.9 %.1f ms max %.1f ms;"
                + " CPU us/notification: service %.0f (JIT %.0f, webhook delivery %.0f), postgres %.0f (shared"
                + " processes %.0f), driver %.0f;"
                + " load %s; host: %s%s",
                label, rate, seconds, s.ok(), s.errors(), s.lost(), s.p(50), s.p(99), s.p(99.9),
                s.latency().getMaxValue() / 1000.0, s.cpu().service(), s.cpu().jit(), s.cpu().delivery(),
                s.cpu().postgres(), s.cpu().pgShared(), s.cpu().driver(), s.load(), host,
                sustained(s) ? "" : "  (not sustained)");
        return s;
    }

    private static boolean successAck(Provider p, int status, byte[] body) {
        return switch (p) {
            case WECHAT_V2 -> status == 200
                    && new String(body, StandardCharsets.UTF_8).contains("<return_code><![CDATA[SUCCESS]]>");
            case ALIPAY -> status == 200 && "success".equals(new String(body, StandardCharsets.US_ASCII));
            case WECHAT_V3 -> status == 204;
        };
    }

    /**
     * One keep-alive HTTP/1.1 connection: takes the next due request, writes it, reads the answer. A small
     * blocking client on purpose: the JDK HttpClient cost more CPU per request than the service it measured, on
     * the same two cores. Requests wait in the shared queue while every connection is busy, and that wait counts
     * in their latency (it runs from the intended time), so the loop stays open.
     */
    private void sendLoop(URI target, java.util.concurrent.BlockingQueue<Task> queue, Histogram latency,
            AtomicLong ok, AtomicLong errors, AtomicLong lost, CountDownLatch done) {
        java.net.Socket socket = null;
        java.io.InputStream in = null;
        try {
            while (true) {
                Task task = queue.take();
                Delivery d = task.delivery();
                try {
                    if (socket == null) {
                        socket = new java.net.Socket();
                        socket.setTcpNoDelay(true);
                        socket.setSoTimeout((int) ACK_TIMEOUT.toMillis());
                        socket.connect(new java.net.InetSocketAddress(target.getHost(), target.getPort()), 2000);
                        in = new java.io.BufferedInputStream(socket.getInputStream(), 8192);
                    }
                    socket.getOutputStream().write(d.wire());
                    Answer a = readAnswer(in);
                    long micros = Math.max(0, (System.nanoTime() - task.intended()) / 1000);
                    synchronized (latency) {
                        latency.recordValue(micros);
                    }
                    if (successAck(d.provider(), a.status(), a.body())) {
                        ok.incrementAndGet();
                        String key = d.provider().channel + "|" + d.outTradeNo();
                        acked.computeIfAbsent(key, x -> new java.util.concurrent.atomic.AtomicInteger())
                                .incrementAndGet();
                        Map<String, Long> acks = ackMicros;
                        if (acks != null) {
                            acks.merge(key, WebhookReceiver.epochMicros(Instant.now()), Math::min);
                        }
                    } else {
                        errors.incrementAndGet();
                    }
                    if (a.close()) {
                        socket.close();
                        socket = null;
                    }
                } catch (IOException e) {
                    long micros = Math.max(0, (System.nanoTime() - task.intended()) / 1000);
                    synchronized (latency) {
                        latency.recordValue(micros);
                    }
                    lost.incrementAndGet();
                    closeQuietly(socket);
                    socket = null;
                }
                done.countDown();
            }
        } catch (InterruptedException end) {
            closeQuietly(socket);
        }
    }

    record Answer(int status, byte[] body, boolean close) {}

    /** Reads one HTTP/1.1 response: status line, headers, a Content-Length body (the service sends no chunks). */
    private static Answer readAnswer(java.io.InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null || !statusLine.startsWith("HTTP/1.1 ")) {
            throw new IOException("no HTTP answer");
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        int length = 0;
        boolean close = false;
        for (String h; (h = line(in)) != null && !h.isEmpty(); ) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            } else if (lower.startsWith("transfer-encoding:")) {
                throw new IOException("chunked answers are not expected");
            }
        }
        byte[] body = in.readNBytes(length);
        if (body.length != length) {
            throw new IOException("short body");
        }
        return new Answer(status, body, close);
    }

    private static String line(java.io.InputStream in) throws IOException {
        var sb = new StringBuilder(64);
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) c);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    private static void closeQuietly(java.net.Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }

    /**
     * The step's requests, built (and signed, in parallel) before the clock starts so that signing never competes
     * with the measurement: new orders are registered first, duplicates copy earlier first deliveries.
     */
    private List<Delivery> plan(int n) throws Exception {
        boolean[] dup = new boolean[n];
        int newOrders = 0;
        for (int i = 0; i < n; i++) {
            dup[i] = !firsts.isEmpty() && random.nextDouble() < dupShare;
            if (!dup[i]) {
                newOrders++;
            }
        }
        long base = orderSeq.getAndAdd(newOrders);
        Provider[] providerOf = new Provider[newOrders];
        String[] outTradeNo = new String[newOrders];
        for (int k = 0; k < newOrders; k++) {
            providerOf[k] = providers.get((int) ((base + k) % providers.size()));
            outTradeNo[k] = "B" + runTag + "N" + (base + k);
        }
        register(providerOf, outTradeNo);
        long now = Instant.now().getEpochSecond();
        Delivery[] fresh = new Delivery[newOrders];
        IntStream.range(0, newOrders).parallel().forEach(k -> fresh[k] = firstDelivery(providerOf[k], outTradeNo[k],
                base + k, now));
        var plan = new ArrayList<Delivery>(n);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (dup[i]) {
                plan.add(duplicateOfEarlier(now));
            } else {
                plan.add(fresh[k]);
                firsts.add(fresh[k++]);
            }
        }
        return plan;
    }

    /**
     * A byte-identical copy of an earlier first delivery. A v3 copy must still be fresh (the service refuses
     * timestamps older than 5 minutes; WeChat signs each retry anew), so old v3 ones are passed over.
     */
    private Delivery duplicateOfEarlier(long now) {
        for (int tries = 0; ; tries++) {
            Delivery d = firsts.get(random.nextInt(firsts.size()));
            if (d.provider() != Provider.WECHAT_V3 || now - d.signedAt() < 200 || tries > 50) {
                return d;
            }
        }
    }

    private Delivery firstDelivery(Provider p, String outTradeNo, long seq, long epochSecond) {
        String txn = String.format(Locale.ROOT, "42%s%020d", runTag, seq);
        var headers = new LinkedHashMap<String, String>();
        byte[] body;
        switch (p) {
            case WECHAT_V2 -> {
                body = Fixtures.wechatV2Paid(outTradeNo, txn, 1999, seq % 2 == 0 ? "MD5" : "HMAC-SHA256");
                headers.put("Content-Type", "text/xml");
            }
            case ALIPAY -> {
                body = Fixtures.alipayPaid(outTradeNo, txn, "19.99", alipayKey);
                headers.put("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
            }
            default -> {
                // v3 notices are signed with the time of the step: the service refuses ones older than 5 minutes
                Fixtures.V3Notice v3 = Fixtures.wechatV3Paid(outTradeNo, txn, 1999, epochSecond, wechatV3Key);
                body = v3.body();
                headers.put("Content-Type", "application/json");
                v3.headers().forEach((name, values) -> {
                    if (!name.equals("content-type")) {
                        headers.put(name, values.get(0));
                    }
                });
            }
        }
        var head = new StringBuilder(512).append("POST /notify/").append(p.path).append('/').append(p.channel)
                .append(" HTTP/1.1\r\nHost: ").append(targets.get(0).getHost()).append("\r\n");
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] wire = java.util.Arrays.copyOf(h, h.length + body.length);
        System.arraycopy(body, 0, wire, h.length, body.length);
        return new Delivery(p, outTradeNo, epochSecond, wire);
    }

    /** Registers the orders with direct SQL (the merchant API is built elsewhere; the rows are the same). */
    private void register(Provider[] providerOf, String[] outTradeNo) throws SQLException {
        try (Connection c = db(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO paynotify.orders (channel, out_trade_no, provider, amount_minor, currency, state,"
                        + " created_at, updated_at) VALUES (?, ?, ?, 1999, 'CNY', 'PENDING', now(), now())")) {
            c.setAutoCommit(false);
            for (int k = 0; k < outTradeNo.length; k++) {
                ps.setString(1, providerOf[k].channel);
                ps.setString(2, outTradeNo[k]);
                ps.setString(3, providerOf[k].dbName);
                ps.addBatch();
                if (k % 1000 == 999) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
            c.commit();
        }
    }

    // ================================================================== database check

    /**
     * The database check. Over the orders this driver got a success ack for: {@code notSuccess} not SUCCESS,
     * {@code notOneApplied} without exactly one APPLIED notification, {@code fewerRows} with fewer notification rows
     * than success acks (every success ack follows the commit of its own row: a missing row is a lost ack). Over
     * every bench order in the database (all runs on it, whatever driver sent them): {@code multiApplied} orders with
     * more than one APPLIED notification, and {@code appliedRows} APPLIED notifications against {@code paidOrders}
     * SUCCESS orders, which must be equal (each paid order applied exactly once).
     */
    record DbCheck(long acked, long successAcks, long notSuccess, long notOneApplied, long fewerRows, long rows,
            long multiApplied, long appliedRows, long paidOrders) {
        boolean clean() {
            return notSuccess == 0 && notOneApplied == 0 && fewerRows == 0 && multiApplied == 0
                    && appliedRows == paidOrders;
        }
    }

    private DbCheck checkDatabase() throws SQLException {
        try (Connection c = db(); Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE acked (channel text, out_trade_no text, acks int,"
                    + " PRIMARY KEY (channel, out_trade_no))");
            c.setAutoCommit(false);
            long successAcks = 0;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO acked VALUES (?, ?, ?)")) {
                int k = 0;
                for (var e : acked.entrySet()) {
                    String key = e.getKey();
                    int bar = key.indexOf('|');
                    ps.setString(1, key.substring(0, bar));
                    ps.setString(2, key.substring(bar + 1));
                    ps.setInt(3, e.getValue().get());
                    successAcks += e.getValue().get();
                    ps.addBatch();
                    if (++k % 1000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            c.commit();
            st.execute("ANALYZE acked");
            long notSuccess = count(st, "SELECT count(*) FROM acked a LEFT JOIN paynotify.orders o"
                    + " USING (channel, out_trade_no) WHERE o.state IS DISTINCT FROM 'SUCCESS'");
            long notOneApplied = count(st, "SELECT count(*) FROM acked a WHERE (SELECT count(*) FROM"
                    + " paynotify.notifications n WHERE n.channel = a.channel AND n.out_trade_no = a.out_trade_no"
                    + " AND n.outcome = 'APPLIED') <> 1");
            long fewerRows = count(st, "SELECT count(*) FROM acked a WHERE (SELECT count(*) FROM"
                    + " paynotify.notifications n WHERE n.channel = a.channel AND n.out_trade_no = a.out_trade_no)"
                    + " < a.acks");
            String bench = "('" + Fixtures.WX_CHANNEL + "', '" + Fixtures.ALI_CHANNEL + "', '" + Fixtures.WX3_CHANNEL
                    + "')";
            long multiApplied = count(st, "SELECT count(*) FROM (SELECT 1 FROM paynotify.notifications WHERE"
                    + " channel IN " + bench + " AND outcome = 'APPLIED' GROUP BY channel, out_trade_no"
                    + " HAVING count(*) > 1) m");
            long appliedRows = count(st, "SELECT count(*) FROM paynotify.notifications WHERE channel IN " + bench
                    + " AND outcome = 'APPLIED'");
            long paidOrders = count(st, "SELECT count(*) FROM paynotify.orders WHERE channel IN " + bench
                    + " AND state = 'SUCCESS'");
            long rows = count(st, "SELECT count(*) FROM paynotify.notifications WHERE channel IN " + bench);
            c.commit();
            log("database: %d acknowledged orders (%d success acks): %d not SUCCESS, %d without exactly one APPLIED,"
                    + " %d with fewer rows than success acks; all bench orders: %d applied more than once, %d APPLIED"
                    + " rows for %d paid orders", acked.size(), successAcks, notSuccess, notOneApplied, fewerRows,
                    multiApplied, appliedRows, paidOrders);
            try (ResultSet rs = st.executeQuery("SELECT outcome, coalesce(reason, '-'), count(*) FROM"
                    + " paynotify.notifications WHERE channel IN " + bench + " GROUP BY 1, 2 ORDER BY 1, 2")) {
                while (rs.next()) {
                    log("  notifications %s %s: %d", rs.getString(1), rs.getString(2), rs.getLong(3));
                }
            }
            c.commit();
            return new DbCheck(acked.size(), successAcks, notSuccess, notOneApplied, fewerRows, rows, multiApplied,
                    appliedRows, paidOrders);
        }
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Connection db() throws SQLException {
        return DriverManager.getConnection(jdbc);
    }

    /**
     * CPU time in microseconds: the service processes ({@code service-pid=}, comma-separated when several
     * instances run), this database's PostgreSQL backends, this driver; two parts of the services': their JIT
     * compiler threads ({@code jit}: warm-up, not per-notification work, and on a busy two-core machine a large
     * share of a short run) and their webhook delivery threads ({@code delivery}: the worker's loop, its HTTP client
     * and its recorder, so claim, sign, POST and record); and PostgreSQL's shared background processes
     * ({@code pgShared}: WAL writer, checkpointer, background writer), which work for every database of the server
     * and so cannot be attributed to this run on a shared server.
     */
    record Cpu(double service, double postgres, double driver, double jit, double delivery, double pgShared,
            double[] services, double[] jits) {
        Cpu minus(Cpu o) {
            double[] each = new double[services.length];
            double[] eachJit = new double[jits.length];
            for (int i = 0; i < each.length; i++) {
                each[i] = services[i] - (i < o.services.length ? o.services[i] : 0);
                eachJit[i] = jits[i] - (i < o.jits.length ? o.jits[i] : 0);
            }
            return new Cpu(service - o.service, postgres - o.postgres, driver - o.driver, jit - o.jit,
                    delivery - o.delivery, pgShared - o.pgShared, each, eachJit);
        }

        Cpu per(long n) {
            double[] each = new double[services.length];
            double[] eachJit = new double[jits.length];
            for (int i = 0; i < each.length; i++) {
                each[i] = services[i] / n;
                eachJit[i] = jits[i] / n;
            }
            return new Cpu(service / n, postgres / n, driver / n, jit / n, delivery / n, pgShared / n, each, eachJit);
        }

        /** The service's CPU without its JIT compiler threads. */
        double serviceWithoutJit() {
            return service - jit;
        }
    }

    /**
     * What the host did during a step, from /proc/stat: {@code steal}, the share of all CPU time the hypervisor gave
     * to other guests; {@code otherCores}, the CPU that processes other than the measured ones (services, this
     * database's PostgreSQL backends, PostgreSQL's shared processes, the driver) used, in cores (busy time minus
     * theirs, over the elapsed time). A step is too disturbed to judge when steal exceeds {@link #STEAL_LIMIT} or
     * others took more than {@link #OTHER_LIMIT_CORES} of a core.
     */
    record Host(double steal, double otherCores, String load) {
        static Host of(long[] before, long[] after, double elapsedMicros, double measuredMicros, String load) {
            double total = after[2] - before[2];
            double steal = total <= 0 ? Double.NaN : (after[1] - before[1]) / total;
            double other = (after[0] - before[0] - measuredMicros) / elapsedMicros;
            return new Host(steal, Math.max(0, other), load);
        }

        boolean disturbed() {
            return !(steal <= STEAL_LIMIT) || !(otherCores <= OTHER_LIMIT_CORES);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "steal %.1f %%, others %.2f cores, load %s%s", steal * 100, otherCores,
                    load, disturbed() ? " (DISTURBED)" : "");
        }
    }

    /** Above this share of CPU time stolen by the hypervisor, a step is too disturbed to judge. */
    static final double STEAL_LIMIT = 0.05;
    /** Above this CPU of other processes, in cores, a step is too disturbed to judge. */
    static final double OTHER_LIMIT_CORES = 0.10;

    /**
     * The machine's CPU time from the first line of /proc/stat, in microseconds (USER_HZ 100): busy (user, nice,
     * system, irq, softirq; guest time is inside user), steal, and all of it (idle and iowait included).
     */
    static long[] procStat() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long user = Long.parseLong(f[1]);
            long nice = Long.parseLong(f[2]);
            long system = Long.parseLong(f[3]);
            long idle = Long.parseLong(f[4]);
            long iowait = Long.parseLong(f[5]);
            long irq = Long.parseLong(f[6]);
            long softirq = Long.parseLong(f[7]);
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long busy = user + nice + system + irq + softirq;
            return new long[] {busy * 10_000, steal * 10_000, (busy + idle + iowait + steal) * 10_000};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0, 0};
        }
    }

    private List<String> servicePids() {
        var pids = new ArrayList<String>();
        for (String pid : opt.getOrDefault("service-pid", "").split(",")) {
            if (!pid.isBlank()) {
                pids.add(pid.strip());
            }
        }
        return pids;
    }

    /**
     * Reads /proc: utime + stime of the services and of every PostgreSQL process serving this run's database (its
     * command line, {@code postgres: ... USER DB HOST(PORT) STATE}, names the database: client backends, and any
     * autovacuum worker on it), of PostgreSQL's shared background processes, and this JVM's own CPU time. A
     * backend that ends between the two readings of a step loses its time (the service's pool keeps its
     * connections, so this does not happen at load).
     */
    private Cpu cpu() {
        double service = 0;
        List<String> pids = servicePids();
        double[] services = new double[pids.size()];
        for (int i = 0; i < services.length; i++) {
            services[i] = ticks(Path.of("/proc", pids.get(i)));
            service += services[i];
        }
        double postgres = 0;
        double pgShared = 0;
        String dbName = jdbc.replaceAll(".*/([^/?]+).*", "$1");
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String cmd = new String(Files.readAllBytes(d.resolve("cmdline")), StandardCharsets.ISO_8859_1)
                            .replace('\0', ' ') + " ";
                    if (!cmd.startsWith("postgres: ")) {
                        continue;
                    }
                    if (cmd.contains(" " + dbName + " ")) {
                        postgres += ticks(d);
                    } else if (sharedProcess(cmd)) {
                        pgShared += ticks(d);
                    }
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            postgres = Double.NaN;
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        double jit = 0;
        double delivery = 0;
        double[] jits = new double[services.length];
        for (int i = 0; i < jits.length; i++) {
            String pid = pids.get(i);
            try (var tasks = Files.list(Path.of("/proc", pid, "task"))) {
                for (Path t : (Iterable<Path>) tasks::iterator) {
                    try {
                        // the kernel keeps 15 characters of a thread's name
                        String comm = Files.readString(t.resolve("comm")).strip();
                        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                            double us = ticks(t);
                            jit += us;
                            jits[i] += us;
                        } else if (comm.startsWith("paynotify-webho") || comm.startsWith("HttpClient-")) {
                            delivery += ticks(t);
                        }
                    } catch (IOException gone) {
                        // the thread ended meanwhile (its time stays in the process's total only)
                    }
                }
            } catch (IOException e) {
                jit = Double.NaN;
                delivery = Double.NaN;
            }
        }
        return new Cpu(service, postgres, os.getProcessCpuTime() / 1000.0, jit, delivery, pgShared, services, jits);
    }

    /**
     * {@code LoadDriver pgsample db=DB out=FILE ready=FILE}: the CPU of the PostgreSQL backends of one database while
     * pgbench runs against it. pgbench's backends end with it, taking their CPU time out of /proc, so this reads
     * them every 200 ms and keeps each process's last reading; on SIGTERM (sent by run.sh once pgbench has ended) it
     * writes {@code us=} the sum over every process naming the database of (last reading - reading at the start;
     * 0 for a process that started later) and {@code backends=}. The paused service's backends add nothing. What a
     * backend did in its last 200 ms is missed (under 2 % of a 15-s run); the sampler itself (a JVM reading /proc
     * five times a second) competes with pgbench for the cores a little.
     */
    static void pgSample(String db, Path out, Path ready) throws Exception {
        Map<String, Double> first = pgTicks(db);
        Map<String, Double> last = new ConcurrentHashMap<>(first);
        // the host during the run (see Host): run.sh adds pgbench's own CPU (bash's time) to the measured processes
        long[] hostBefore = procStat();
        long wallBefore = System.nanoTime();
        double sharedBefore = pgSharedTicks();
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        double selfBefore = os.getProcessCpuTime() / 1000.0;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            double us = 0;
            for (var e : last.entrySet()) {
                us += e.getValue() - first.getOrDefault(e.getKey(), 0.0);
            }
            long[] hostAfter = procStat();
            try {
                Files.writeString(out, "us=" + us + "\nbackends=" + last.size()
                        + "\nhost.busy-us=" + (hostAfter[0] - hostBefore[0])
                        + "\nhost.steal-us=" + (hostAfter[1] - hostBefore[1])
                        + "\nhost.total-us=" + (hostAfter[2] - hostBefore[2])
                        + "\nelapsed-us=" + (System.nanoTime() - wallBefore) / 1000.0
                        + "\npg-shared-us=" + (pgSharedTicks() - sharedBefore)
                        + "\nsampler-us=" + (os.getProcessCpuTime() / 1000.0 - selfBefore) + "\n");
            } catch (IOException e) {
                System.err.println("pgsample: " + e);
            }
        }));
        Files.writeString(ready, "ready\n");
        while (true) {
            Thread.sleep(200);
            pgTicks(db).forEach((pid, us) -> last.merge(pid, us, Math::max));
        }
    }

    /**
     * The cluster whose shared processes count as the run's ({@code pg-cluster=}, its {@code cluster_name}: run.sh's
     * {@code PG=private} cluster); null: every cluster's on this machine (the shared server's, other work's included).
     */
    static volatile String pgCluster;

    /** A PostgreSQL shared process (WAL writer, checkpointer, background writer) of {@link #pgCluster}, or of any. */
    static boolean sharedProcess(String cmd) {
        String cluster = pgCluster;
        return (cluster == null || cmd.startsWith("postgres: " + cluster + ": "))
                && (cmd.contains(" walwriter ") || cmd.contains(" checkpointer ") || cmd.contains(" background writer "));
    }

    /** utime + stime in microseconds of PostgreSQL's shared processes (WAL writer, checkpointer, background writer). */
    static double pgSharedTicks() {
        double sum = 0;
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                if (!d.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String cmd = new String(Files.readAllBytes(d.resolve("cmdline")), StandardCharsets.ISO_8859_1)
                            .replace('\0', ' ') + " ";
                    if (cmd.startsWith("postgres: ") && sharedProcess(cmd)) {
                        sum += ticks(d);
                    }
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return sum;
    }

    /** pid → utime + stime in microseconds of every PostgreSQL process whose command line names the database. */
    static Map<String, Double> pgTicks(String db) throws IOException {
        var out = new LinkedHashMap<String, Double>();
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String cmd = new String(Files.readAllBytes(d.resolve("cmdline")), StandardCharsets.ISO_8859_1)
                            .replace('\0', ' ') + " ";
                    if (cmd.startsWith("postgres: ") && cmd.contains(" " + db + " ")) {
                        double t = ticks(d);
                        if (t > 0) {
                            out.put(name, t);
                        }
                    }
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        }
        return out;
    }

    /** utime + stime of /proc/PID/stat in microseconds (clock ticks of 10 ms). */
    private static double ticks(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000.0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The 1-minute load average at the end of a step: how much the machine's neighbours took. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** VmRSS (and the peak VmHWM) of the service process, from /proc. */
    static String residentMemory(String pid) {
        if (pid == null) {
            return "not measured";
        }
        try {
            String rss = "?";
            String hwm = "?";
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = mib(line);
                } else if (line.startsWith("VmHWM:")) {
                    hwm = mib(line);
                }
            }
            return rss + " MiB at the end (peak " + hwm + " MiB)";
        } catch (IOException e) {
            return "not readable";
        }
    }

    private static String mib(String line) {
        long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
        return Long.toString(kib / 1024);
    }

    static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[load] " + format + "%n", args);
    }

    // ================================================================== the table of issue 14

    /**
     * {@code LoadDriver report single=FILE [dual=FILE] before=FILE after=FILE [out=FILE]}: the one table of a
     * {@code run.sh} run, from the figures of the one-instance run, of the two-instance run and of the two pgbench
     * ceilings (properties written by run.sh: tps, failed, clients, seconds, settle.seconds, settle.mib,
     * settle.reached). Every figure of issue 14's goals with its goal and whether it is met. True when all are.
     */
    static final class Report {
        // issue 24's goals (issue 14's were 1.0, 150 us and 120 us)
        static final double GOAL_RATIO = 1.8;
        static final double GOAL_SERVICE_CPU_US = 110;
        static final double GOAL_POSTGRES_CPU_US = 100;
        static final double GOAL_P99_MS = 25;

        private Report() {}

        static Properties load(String file) throws IOException {
            var p = new Properties();
            if (file != null && Files.exists(Path.of(file))) {
                try (var in = Files.newBufferedReader(Path.of(file))) {
                    p.load(in);
                }
            }
            return p;
        }

        static double d(Properties p, String key) {
            String v = p.getProperty(key);
            return v == null || v.isBlank() ? Double.NaN : Double.parseDouble(v);
        }

        static long l(Properties p, String key) {
            String v = p.getProperty(key);
            return v == null || v.isBlank() ? -1 : (long) Double.parseDouble(v);
        }

        static String met(boolean ok) {
            return ok ? "met" : "**not met**";
        }

        static String ceiling(Properties c) {
            if (c.isEmpty() || Double.isNaN(d(c, "tps"))) {
                return "not measured";
            }
            return String.format(Locale.ROOT,
                    "%,.0f tps (%s clients, %.0f s, %d failed; PostgreSQL backends %.0f us CPU per transaction);"
                            + " disk settled in %.1f s to %.1f MiB Dirty+Writeback%s",
                    d(c, "tps"), c.getProperty("clients", "?"), d(c, "seconds"), l(c, "failed"),
                    d(c, "pg-cpu-us") / d(c, "transactions"), d(c, "settle.seconds"),
                    d(c, "settle.mib"), "true".equals(c.getProperty("settle.reached")) ? ""
                            : " (**threshold not reached** before the deadline)");
        }

        static boolean write(Map<String, String> opt) throws IOException {
            Properties one = load(opt.get("single"));
            Properties two = load(opt.get("dual"));
            Properties before = load(opt.get("before"));
            Properties after = load(opt.get("after"));
            double ceilBefore = d(before, "tps");
            double ceilAfter = d(after, "tps");
            double ceiling = Double.isNaN(ceilBefore) ? ceilAfter
                    : Double.isNaN(ceilAfter) ? ceilBefore : Math.max(ceilBefore, ceilAfter);
            double max = d(one, "max");
            double ratio = max / ceiling;
            double serviceCpu = d(one, "max.cpu.service");
            double pgCpu = d(one, "max.cpu.postgres");
            double p99 = d(one, "at.50.p99");
            var t = new StringBuilder();
            var goals = new ArrayList<Boolean>();
            t.append("| figure | this run | goal | |\n|---|---|---|---|\n");
            t.append(String.format(Locale.ROOT, "| load | %s; %.0f %% first deliveries, %.0f %% duplicates | | |%n",
                    one.getProperty("providers", "?"), (1 - d(one, "dup")) * 100, d(one, "dup") * 100));
            t.append(String.format(Locale.ROOT,
                    "| pgbench ceiling before the load (the pre-batching intake's statements, one notification per"
                            + " transaction; services paused) | %s | | |%n", ceiling(before)));
            t.append(String.format(Locale.ROOT, "| pgbench ceiling after the load (the same) | %s | | |%n",
                    ceiling(after)));
            boolean rateOk = ratio >= GOAL_RATIO;
            goals.add(rateOk);
            t.append(String.format(Locale.ROOT,
                    "| **max sustained rate**, one instance | **%,.0f notifications/s** (confirmed over %.0f s%s: p50"
                            + " %.1f ms, p99 %.1f ms; %d errors, %d lost; load average %s at its end) | >= %.1f x the higher"
                            + " ceiling (%,.0f/s) | %s |%n",
                    max, d(one, "max.seconds"), "true".equals(one.getProperty("max.sustained")) ? ""
                            : ", **not sustained**", d(one, "max.p50"), d(one, "max.p99"), l(one, "max.errors"),
                    l(one, "max.lost"), one.getProperty("max.load", "?"), GOAL_RATIO, GOAL_RATIO * ceiling,
                    met(rateOk)));
            t.append(String.format(Locale.ROOT,
                    "| ratio max rate / higher ceiling | **%.2f** (%.2f against the ceiling before, %.2f after) |"
                            + " >= %.2f | %s |%n",
                    ratio, max / ceilBefore, max / ceilAfter, GOAL_RATIO, met(rateOk)));
            boolean serviceOk = serviceCpu <= GOAL_SERVICE_CPU_US;
            goals.add(serviceOk);
            t.append(String.format(Locale.ROOT,
                    "| service CPU per notification at the max rate | **%.0f us** (%.0f of them its JIT compiler"
                            + " threads) | <= %.0f us | %s |%n",
                    serviceCpu, d(one, "max.cpu.jit"), GOAL_SERVICE_CPU_US, met(serviceOk)));
            boolean pgOk = pgCpu <= GOAL_POSTGRES_CPU_US;
            goals.add(pgOk);
            t.append(String.format(Locale.ROOT,
                    "| PostgreSQL CPU per notification at the max rate | **%.0f us** (the backends of the bench"
                            + " database) | <= %.0f us | %s |%n", pgCpu, GOAL_POSTGRES_CPU_US, met(pgOk)));
            t.append(String.format(Locale.ROOT,
                    "| PostgreSQL's shared processes at the max rate, not counted above | %.0f us per notification"
                            + " (WAL writer, checkpointer, background writer: the whole server's, other databases"
                            + " included) | | |%n", d(one, "max.cpu.pg-shared")));
            t.append(String.format(Locale.ROOT,
                    "| load driver CPU per notification at the max rate (not counted) | %.0f us | | |%n",
                    d(one, "max.cpu.driver")));
            boolean p99Ok = p99 <= GOAL_P99_MS;
            goals.add(p99Ok);
            t.append(String.format(Locale.ROOT,
                    "| **p99 at 50 %% of the max** (%,.0f/s, %.0f s) | p50 %.1f ms, **p99 %.1f ms**, p99.9 %.1f ms,"
                            + " max %.1f ms; %d errors, %d lost | <= %.0f ms | %s |%n",
                    d(one, "at.50.rate"), d(one, "at.50.seconds"), d(one, "at.50.p50"), p99, d(one, "at.50.p999"),
                    d(one, "at.50.pmax"), l(one, "at.50.errors"), l(one, "at.50.lost"), GOAL_P99_MS, met(p99Ok)));
            for (String pct : one.getProperty("latency-steps", "").split(",")) {
                if (!pct.isBlank() && !pct.equals("50")) {
                    String k = "at." + pct + ".";
                    t.append(String.format(Locale.ROOT,
                            "| latency at %s %% (%,.0f/s, %.0f s) | p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f"
                                    + " ms; %d errors, %d lost | | |%n",
                            pct, d(one, k + "rate"), d(one, k + "seconds"), d(one, k + "p50"), d(one, k + "p99"),
                            d(one, k + "p999"), d(one, k + "pmax"), l(one, k + "errors"), l(one, k + "lost")));
                }
            }
            // errors: the steps at or below the max (above it, 503s are the service's correct answer to overload);
            // lost acks: every step of the run, probes above the max included
            long errorsAtOrBelow = l(one, "max.errors") + l(two, "max.errors");
            long lostAll = l(one, "total.lost") + Math.max(0, l(two, "total.lost"));
            for (String pct : one.getProperty("latency-steps", "").split(",")) {
                if (!pct.isBlank()) {
                    errorsAtOrBelow += l(one, "at." + pct + ".errors");
                }
            }
            if (two.isEmpty()) {
                errorsAtOrBelow += 1; // l() gave -1 for the missing run
            }
            boolean cleanOk = errorsAtOrBelow == 0 && lostAll == 0;
            goals.add(cleanOk);
            t.append(String.format(Locale.ROOT,
                    "| errors and lost acks | %d errors in the steps at or below the max (confirmations and latency"
                            + " steps, both runs); %d lost acks in the whole run (%,d notifications sent, every probe"
                            + " above the max included, where %,d failure acks answered overload) | 0 and 0 | %s |%n",
                    errorsAtOrBelow, lostAll, l(one, "total.sent") + Math.max(0, l(two, "total.sent")),
                    l(one, "total.errors") + Math.max(0, l(two, "total.errors")), met(cleanOk)));
            boolean dbOneOk = "true".equals(one.getProperty("db.clean"));
            goals.add(dbOneOk);
            t.append(String.format(Locale.ROOT, "| database check, one instance | %s | clean | %s |%n",
                    dbCheck(one), met(dbOneOk)));
            if (two.isEmpty()) {
                goals.add(false);
                t.append("| two instances | not measured | measured | **not met** |\n");
            } else {
                double max2 = d(two, "max");
                t.append(String.format(Locale.ROOT,
                        "| max sustained rate, **two instances** on the one database (round-robin) | **%,.0f"
                                + " notifications/s** in all (confirmed over %.0f s%s: p50 %.1f ms, p99 %.1f ms;"
                                + " %d errors, %d lost; load average %s at its end); %.2f x one instance, %.2f of the"
                                + " higher ceiling | | |%n",
                        max2, d(two, "max.seconds"), "true".equals(two.getProperty("max.sustained")) ? ""
                                : ", **not sustained**", d(two, "max.p50"), d(two, "max.p99"), l(two, "max.errors"),
                        l(two, "max.lost"), two.getProperty("max.load", "?"), max2 / max, max2 / ceiling));
                var each = new ArrayList<String>();
                for (int i = 1; two.containsKey("max.cpu.instance." + i); i++) {
                    each.add(String.format(Locale.ROOT, "instance %d %.0f us (JIT %.0f)", i,
                            d(two, "max.cpu.instance." + i), d(two, "max.cpu.instance." + i + ".jit")));
                }
                t.append(String.format(Locale.ROOT,
                        "| CPU per notification at that rate, two instances | services %.0f us (JIT %.0f; per"
                                + " notification each instance served: %s), PostgreSQL backends %.0f us, shared"
                                + " processes %.0f us, driver %.0f us | | |%n",
                        d(two, "max.cpu.service"), d(two, "max.cpu.jit"), String.join(", ", each),
                        d(two, "max.cpu.postgres"), d(two, "max.cpu.pg-shared"), d(two, "max.cpu.driver")));
                boolean dbTwoOk = "true".equals(two.getProperty("db.clean"));
                goals.add(dbTwoOk);
                t.append(String.format(Locale.ROOT,
                        "| **exactly-once check after the two-instance run** | %s | clean | %s |%n", dbCheck(two),
                        met(dbTwoOk)));
            }
            t.append(String.format(Locale.ROOT, "| resident memory of the service | one-instance run: %s;"
                    + " two-instance run: %s | | |%n", one.getProperty("rss", "?"), two.getProperty("rss", "-")));
            System.out.println(t);
            if (opt.containsKey("out")) {
                Files.writeString(Path.of(opt.get("out")), t.toString());
            }
            return goals.stream().allMatch(Boolean::booleanValue);
        }

        static String dbCheck(Properties p) {
            return String.format(Locale.ROOT,
                    "%,d orders acknowledged by this run (%,d success acks): %d not SUCCESS, %d without exactly one"
                            + " APPLIED, %d with fewer notification rows than success acks; every bench order in the"
                            + " database: %d applied more than once, %,d APPLIED rows for %,d paid orders",
                    l(p, "db.acked"), l(p, "db.success-acks"), l(p, "db.not-success"), l(p, "db.not-one-applied"),
                    l(p, "db.fewer-rows"), l(p, "db.multi-applied"), l(p, "db.applied-rows"), l(p, "db.paid-orders"));
        }
    }
}
