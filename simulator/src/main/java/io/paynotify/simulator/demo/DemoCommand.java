package io.paynotify.simulator.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.simulator.cli.Args;
import io.paynotify.simulator.cli.UsageException;
import io.paynotify.simulator.listen.Delivery;
import io.paynotify.simulator.listen.WebhookReceiver;
import io.paynotify.simulator.listen.WebhookVerifier;
import io.paynotify.simulator.sign.BeijingTime;
import io.paynotify.simulator.trigger.Answer;
import io.paynotify.simulator.trigger.Channel;
import io.paynotify.simulator.trigger.ChannelTable;
import io.paynotify.simulator.trigger.DevProfile;
import io.paynotify.simulator.trigger.Expectation;
import io.paynotify.simulator.trigger.MerchantApi;
import io.paynotify.simulator.trigger.Notice;
import io.paynotify.simulator.trigger.Notices;
import io.paynotify.simulator.trigger.NotifySender;
import io.paynotify.simulator.trigger.Trade;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code demo [--service URL]}: the tour a newcomer runs next to {@code ./mvnw quarkus:dev}. Registers one order
 * per dev channel, lets paynotify's active query find each paid at the fake gateway, sends the late notifications
 * (acknowledged, recorded DUPLICATE), shows a duplicate notice, the admin view of an order, the account modes
 * (another sub-merchant's notice refused, a foreign root refused), the order.paid webhooks, and closes yesterday's
 * books: the first orders are paid at the gateway on yesterday's Beijing day, a payment paynotify never saw is
 * planted in one bill, and the statements fetched, its difference found and resolved. Exit 0 only when every step
 * held.
 */
public final class DemoCommand {

    public static final Set<String> OPTIONS = Set.of("service");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL_EVERY = Duration.ofSeconds(1);
    private static final Map<String, Long> AMOUNTS = Map.of("wx-dev", 100L, "wx3-dev", 250L, "ali-dev", 4200L);
    /** The statements-enabled dev channels (application.properties), whose bills the gateway serves. */
    static final List<String> STATEMENT_CHANNELS = List.of("wx-dev", "wx3-dev", "ali-dev");
    /** The channel whose bill gets the planted payment. */
    static final String PLANTED_ON = "wx3-dev";
    private static final long PLANTED_FEN = 1800;

    private final PrintStream out;
    private final Clock clock = Clock.systemUTC();
    private final HttpClient http = NotifySender.newHttpClient();
    private final int gatewayPort;
    private final int webhookPort;
    private final Duration paidDeadline;
    private final Duration webhookDeadline;

    /** The demo of the README: gateway on 8090, webhooks on 8089, 90 s for the queries, 30 s for the webhooks. */
    public DemoCommand(PrintStream out) {
        this(out, DevProfile.GATEWAY_PORT, DevProfile.WEBHOOK_PORT, Duration.ofSeconds(90), Duration.ofSeconds(30));
    }

    DemoCommand(PrintStream out, int gatewayPort, int webhookPort, Duration paidDeadline, Duration webhookDeadline) {
        this.out = out;
        this.gatewayPort = gatewayPort;
        this.webhookPort = webhookPort;
        this.paidDeadline = paidDeadline;
        this.webhookDeadline = webhookDeadline;
    }

    public int run(List<String> argv) throws UsageException, InterruptedException {
        Args args = Args.parse(argv, OPTIONS);
        if (!args.positional().isEmpty()) {
            throw new UsageException("demo takes no positional arguments");
        }
        URI service = URI.create(args.option("service", DevProfile.SERVICE).replaceAll("/+$", ""));
        out.println("paynotify demo against " + service);
        if (!serviceAnswers(service)) {
            out.println("paynotify does not answer at " + service + ". Start it in another terminal, from the"
                    + " repository root:\n    ./mvnw quarkus:dev\nwait for 'Listening on: http://localhost:8080',"
                    + " then run the demo again.");
            return 1;
        }
        Optional<DemoGateway> gateway = gateway();
        if (gateway.isEmpty()) {
            return 1;
        }
        WebhookReceiver receiver = receiver();
        try (DemoGateway gw = gateway.get()) {
            return new Tour(service, gw, receiver).run() ? 0 : 1;
        } finally {
            if (receiver != null) {
                receiver.close();
            }
        }
    }

    private boolean serviceAnswers(URI service) throws InterruptedException {
        try {
            http.send(
                    HttpRequest.newBuilder(service.resolve("/"))
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Optional<DemoGateway> gateway() {
        String local = "http://127.0.0.1:" + gatewayPort;
        if (Ports.answers(gatewayPort)) {
            out.println("gateway: using the one already running at " + local);
            return Optional.of(new GatewayControl(http, local));
        }
        try {
            Optional<DemoGateway> started = EmbeddedGateway.start(http);
            if (started.isPresent()) {
                out.println("gateway: started the fake WeChat Pay / Alipay gateway at "
                        + started.get().baseUrl());
                return started;
            }
            out.println("gateway: nothing answers at " + local + " and this build has no gateway to start;"
                    + " run `java -jar simulator/target/paynotify-simulator.jar serve` in another terminal.");
        } catch (IOException e) {
            out.println("gateway: cannot start it at " + local + ": " + e.getMessage());
        }
        return Optional.empty();
    }

    /** The demo's own webhook receiver on 8089, or null when that port is taken (then the admin API tells). */
    private WebhookReceiver receiver() {
        try {
            WebhookReceiver r = WebhookReceiver.start(
                    webhookPort, new WebhookVerifier(DevProfile.WEBHOOK_SECRET, clock), clock, d -> {});
            out.println("webhooks: receiving dev-shop's deliveries at http://127.0.0.1:" + r.port() + "/webhooks");
            return r;
        } catch (IOException e) {
            out.println("webhooks: port " + webhookPort + " is taken (a `listen` running?): deliveries"
                    + " go there, and step 5 checks them through the admin API instead");
            return null;
        }
    }

    /** The five steps, sharing the orders they create. */
    private final class Tour {

        private final URI service;
        private final DemoGateway gateway;
        private final WebhookReceiver receiver;
        private final ChannelTable table = DevProfile.table();
        private final MerchantApi merchant;
        private final AdminApi admin;
        private final NotifySender sender;
        private final String suffix = Trade.newOrderNumber("");
        private final List<DemoOrder> all = new ArrayList<>();
        // the day of the first orders' payments: today cannot be fetched (CONTRACT §11), so they are paid
        // at the gateway 24 hours ago, which is yesterday in Beijing time
        private final Instant paidAt = clock.instant().minus(Duration.ofDays(1));
        private final LocalDate billDay = LocalDate.ofInstant(paidAt, BeijingTime.OFFSET);
        private final List<DemoOrder> billed = new ArrayList<>();

        Tour(URI service, DemoGateway gateway, WebhookReceiver receiver) {
            this.service = service;
            this.gateway = gateway;
            this.receiver = receiver;
            this.merchant = new MerchantApi(http, service, table.clients().get(DevProfile.CLIENT_ID), clock);
            this.admin = new AdminApi(http, service, DevProfile.ADMIN_TOKEN);
            this.sender = new NotifySender(http, service);
        }

        boolean run() throws InterruptedException {
            try {
                List<DemoOrder> queried = stepOne();
                if (queried == null) {
                    return false;
                }
                boolean ok = stepTwo(queried);
                DemoOrder twice = stepThree();
                ok &= twice != null;
                ok &= stepFour(queried.get(0));
                ok &= accountModes();
                ok &= stepFive();
                ok &= statements();
                out.println();
                out.println(ok ? "Every step held." : "Some steps did not hold: see the lines marked FAILED.");
                return ok;
            } catch (IOException e) {
                out.println("FAILED: "
                        + (e instanceof ConnectException
                                ? "paynotify stopped answering at " + service
                                : e.getMessage()));
                return false;
            }
        }

        /** (1) Register one order per channel, script each PAID at the gateway, and wait for the active query. */
        private List<DemoOrder> stepOne() throws IOException, InterruptedException {
            heading("1. One order per dev channel, paid at the provider, but no notification sent");
            List<DemoOrder> orders = new ArrayList<>();
            for (String name : DevProfile.CHANNELS) {
                DemoOrder order = new DemoOrder(
                        table.channel(name).orElseThrow(), "DEMO-" + tag(name) + "-" + suffix, AMOUNTS.get(name), null);
                if (!register(order)) {
                    return null;
                }
                gateway.scriptPaid(order.outTradeNo(), order.amountFen(), paidAt);
                out.println("   the gateway now answers a query for it: PAID, " + order.amountFen() + " fen, at "
                        + BeijingTime.PLAIN.format(paidAt) + " Beijing time (yesterday: step 7 closes that day)");
                orders.add(order);
            }
            out.println("   waiting for paynotify's active query (the dev profile queries a PENDING order 10 s after"
                    + " creation), polling GET /api/v1/orders/... every second, at most "
                    + paidDeadline.toSeconds() + " s");
            Map<String, DemoOrder> pending = new LinkedHashMap<>();
            orders.forEach(o -> pending.put(o.name(), o));
            Map<String, DemoOrder> paid = new LinkedHashMap<>();
            long start = System.nanoTime();
            long deadline = start + paidDeadline.toNanos();
            long nextNote = start + Duration.ofSeconds(15).toNanos();
            while (!pending.isEmpty()) {
                for (DemoOrder o : List.copyOf(pending.values())) {
                    JsonNode order = JSON.readTree(merchant.getOrder(o.channel().name(), o.outTradeNo())
                            .body());
                    if ("SUCCESS".equals(order.path("state").asText())) {
                        String txn = order.path("transactionId").asText();
                        out.println("   " + o.name() + " is SUCCESS after " + seconds(start) + " s, transactionId "
                                + txn + " (from the gateway's answer)");
                        pending.remove(o.name());
                        paid.put(o.name(), o.paidWith(txn));
                    }
                }
                if (pending.isEmpty()) {
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    out.println("   FAILED: still PENDING after " + paidDeadline.toSeconds() + " s: "
                            + String.join(", ", pending.keySet()) + ". Does the running paynotify have"
                            + " query-enabled=true and api-base-url=" + gateway.baseUrl() + " for the dev channels?");
                    return null;
                }
                if (System.nanoTime() - nextNote > 0) {
                    out.println("   still waiting (" + seconds(start) + " s): " + String.join(", ", pending.keySet()));
                    nextNote += Duration.ofSeconds(15).toNanos();
                }
                Thread.sleep(POLL_EVERY.toMillis());
            }
            List<DemoOrder> inOrder =
                    orders.stream().map(o -> paid.get(o.name())).toList();
            all.addAll(inOrder);
            billed.addAll(inOrder);
            return inOrder;
        }

        /** (2) The providers' notifications arrive late: acknowledged, recorded as DUPLICATE. */
        private boolean stepTwo(List<DemoOrder> orders) throws IOException, InterruptedException {
            heading("2. The late payment notifications: acknowledged, recorded as DUPLICATE");
            boolean ok = true;
            for (DemoOrder o : orders) {
                Notice notice = notices(o).payment(trade(o));
                ok &= send(o, notice, "late notice");
                ok &= lastNotifyOutcome(o, "DUPLICATE");
            }
            return ok;
        }

        /** (3) A second wx-dev order whose payment notice arrives twice. */
        private DemoOrder stepThree() throws IOException, InterruptedException {
            heading("3. A new wx-dev order, its payment notification delivered twice");
            DemoOrder o = new DemoOrder(table.channel("wx-dev").orElseThrow(), "DEMO-WX2-" + suffix, 300, null);
            if (!register(o)) {
                return null;
            }
            Trade trade = Trade.fresh(o.channel().provider(), o.outTradeNo(), o.amountFen());
            Notice notice = notices(o).payment(trade);
            boolean ok = send(o, notice, "first delivery") & lastNotifyOutcome(o, "APPLIED");
            ok &= send(o, notice, "the same bytes again") & lastNotifyOutcome(o, "DUPLICATE");
            DemoOrder paid = o.paidWith(trade.transactionId());
            all.add(paid);
            return ok ? paid : null;
        }

        /** (4) The admin view: the order's query bookkeeping and where each notification came from. */
        private boolean stepFour(DemoOrder o) throws IOException, InterruptedException {
            heading("4. The admin view of " + o.name());
            JsonNode order = admin.order(o.channel().name(), o.outTradeNo());
            out.println("   GET /admin/orders/" + o.name() + ": state "
                    + order.path("state").asText()
                    + ", transactionId " + order.path("transactionId").asText() + ", lastQueriedAt "
                    + order.path("lastQueriedAt").asText() + ", queryCount "
                    + order.path("queryCount").asLong());
            out.println("   GET /admin/orders/" + o.name() + "/notifications:");
            boolean fromQuery = false;
            boolean fromNotify = false;
            for (JsonNode n : admin.notifications(o.channel().name(), o.outTradeNo())) {
                String source = n.path("source").asText();
                String outcome = n.path("outcome").asText();
                out.println("     " + n.path("receivedAt").asText() + "  source " + source + "  outcome " + outcome
                        + "  providerStatus " + n.path("providerStatus").asText());
                fromQuery |= source.equals("QUERY") && outcome.equals("APPLIED");
                fromNotify |= source.equals("NOTIFY") && outcome.equals("DUPLICATE");
            }
            boolean ok = fromQuery && fromNotify && order.path("queryCount").asLong() >= 1;
            String applied =
                    "   the payment was applied from the QUERY answer; the NOTIFY that followed was a DUPLICATE";
            String failed = "   FAILED: expected a QUERY notification APPLIED, a NOTIFY one DUPLICATE, queryCount >= 1";
            out.println(ok ? applied : failed);
            return ok;
        }

        /**
         * (5) The account modes (CONTRACT §10): per partner or ISV channel, an order of sub-merchant A refuses the
         * genuine notice of sub-merchant B for the same order number and is then paid by A's own; the
         * certificate-mode channel refuses a notice signed under a foreign root and accepts Alipay's.
         */
        private boolean accountModes() throws IOException, InterruptedException {
            heading("5. Account modes: service providers, an ISV, Alipay certificates");
            boolean ok = true;
            for (String name : DevProfile.MODE_CHANNELS) {
                Channel c = table.channel(name).orElseThrow();
                String sub = c.defaultSubMerchant();
                // a platform prefixes each tenant's own order numbers so that they stay unique on the channel
                String number = (sub == null ? "DEMO-CERT" : "T" + sub.substring(sub.length() - 2) + "-DEMO")
                        + "-" + suffix;
                DemoOrder o = new DemoOrder(c, number, 500, null);
                HttpResponse<String> r = merchant.createOrder(name, number, o.amountFen(), "demo", sub, null);
                boolean created = r.statusCode() == 201;
                out.println("   POST /api/v1/orders " + o.name() + " (" + o.amountFen() + " fen"
                        + (sub != null ? ", subMerchantId " + sub : "") + ") as dev-shop: " + r.statusCode()
                        + (created ? "" : "  FAILED: " + r.body()));
                if (!created) {
                    ok = false;
                    continue;
                }
                Notices notices = notices(o);
                Trade own = Trade.fresh(c.provider(), number, o.amountFen()).withSubMerchant(sub, null);
                Notice refused;
                String what;
                if (sub != null) {
                    String other = c.otherSubMerchant(sub);
                    refused = notices.payment(own.ofAnotherSubMerchant(c.provider(), other));
                    what = "sub-merchant " + other + "'s genuine notice for this order number";
                } else {
                    refused = notices.foreignRoot(own).orElseThrow();
                    what = "a notice signed under a foreign root";
                }
                int status = sub != null ? 422 : 401;
                Answer answer = sender.send(refused);
                boolean held = Expectation.failureAck(status, "").matches(c.provider(), answer);
                out.println("   " + what + " -> " + (held ? status + ", the failure ack" : answer.summary()
                        + "  FAILED: expected " + status));
                ok &= held;
                if (sub != null) {
                    ok &= lastNotifyOutcome(o, "ANOMALY");
                    JsonNode order = JSON.readTree(merchant.getOrder(name, number).body());
                    boolean flagged = order.path("attention").toString().contains("ACCOUNT_MISMATCH");
                    out.println("     order " + order.path("state").asText() + ", attention "
                            + order.path("attention") + (flagged ? "" : "  FAILED: expected ACCOUNT_MISMATCH"));
                    ok &= flagged && "PENDING".equals(order.path("state").asText());
                }
                ok &= send(o, notices.payment(own), "its own payment notice") & lastNotifyOutcome(o, "APPLIED");
                all.add(o.paidWith(own.transactionId()));
            }
            return ok;
        }

        /** (6) Every order's order.paid webhook, verified. */
        private boolean stepFive() throws IOException, InterruptedException {
            heading("6. The order.paid webhooks to dev-shop (at most " + webhookDeadline.toSeconds() + " s)");
            return receiver != null ? webhooksReceived() : webhooksDelivered();
        }

        private boolean webhooksReceived() throws InterruptedException {
            Set<String> wanted = new HashSet<>();
            all.forEach(o -> wanted.add(o.name()));
            boolean ok = receiver.await(ds -> paidOrders(ds).containsAll(wanted), webhookDeadline);
            for (Delivery d : receiver.deliveries()) {
                if (wanted.contains(d.channel() + "/" + d.outTradeNo())) {
                    out.println("   " + d.line());
                }
            }
            Set<String> missing = new TreeSet<>(wanted);
            missing.removeAll(paidOrders(receiver.deliveries()));
            if (!ok) {
                out.println("   FAILED: no verified order.paid for " + String.join(", ", missing)
                        + " (see GET /admin/events?type=order.paid)");
            }
            return ok;
        }

        private Set<String> paidOrders(List<Delivery> deliveries) {
            Set<String> seen = new HashSet<>();
            for (Delivery d : deliveries) {
                if (d.verified() && "order.paid".equals(d.type())) {
                    seen.add(d.channel() + "/" + d.outTradeNo());
                }
            }
            return seen;
        }

        /** When another process owns 8089: a SUCCEEDED delivery to dev-shop per order, from the admin API. */
        private boolean webhooksDelivered() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + webhookDeadline.toNanos();
            List<DemoOrder> missing = new ArrayList<>(all);
            while (true) {
                for (DemoOrder o : List.copyOf(missing)) {
                    for (JsonNode e : admin.events("order.paid", o.channel().name(), DevProfile.CLIENT_ID)) {
                        boolean ours = e.path("data")
                                .path("order")
                                .path("outTradeNo")
                                .asText()
                                .equals(o.outTradeNo());
                        for (JsonNode d : e.path("deliveries")) {
                            if (ours && d.path("state").asText().equals("SUCCEEDED")) {
                                out.println("   " + e.path("id").asText() + "  order.paid  " + o.name()
                                        + "  delivered to dev-shop's receiver (admin API)");
                                missing.remove(o);
                            }
                        }
                    }
                }
                if (missing.isEmpty()) {
                    return true;
                }
                if (System.nanoTime() - deadline > 0) {
                    missing.forEach(o -> out.println("   FAILED: no delivered order.paid for " + o.name()));
                    return false;
                }
                Thread.sleep(POLL_EVERY.toMillis());
            }
        }

        /**
         * (7) Closing the books (CONTRACT §11): the gateway's bill of yesterday lists step 1's payments; one
         * payment paynotify never registered is planted in {@link #PLANTED_ON}'s; each statements-enabled channel's
         * statement is fetched, the planted UNKNOWN_ORDER found, resolved with a note, and the day RECONCILED.
         */
        private boolean statements() throws IOException, InterruptedException {
            String day = billDay.toString();
            heading("7. Closing the books of " + day + " (Beijing): the providers' daily bills, reconciled");
            Channel planted = table.channel(PLANTED_ON).orElseThrow();
            String lost = "DEMO-LOST-" + suffix;
            gateway.scriptBill(
                    planted.provider().name(),
                    billDay,
                    "{\"extraPayments\":[{\"outTradeNo\":\"" + lost + "\",\"amount\":" + PLANTED_FEN + "}]}");
            out.println("   planted in " + planted.provider().displayName() + "'s bill of " + day + ": a payment of "
                    + PLANTED_FEN + " fen on " + lost + ", an order paynotify never registered"
                    + " (PUT /_sim/bills/" + planted.provider().name() + "/" + day + ")");
            boolean ok = true;
            for (String name : STATEMENT_CHANNELS) {
                JsonNode s = fetch(name, day);
                if (s == null) {
                    ok = false;
                    continue;
                }
                boolean expectDifference = name.equals(PLANTED_ON);
                String status = s.path("status").asText();
                boolean held = expectDifference ? status.equals("DIFFERENCES") : status.equals("RECONCILED");
                out.println("   POST /admin/statements/" + name + "/" + day + "/fetch: " + status + ", "
                        + totals(s) + (held ? "" : "  FAILED: expected " + (expectDifference ? "DIFFERENCES" : "RECONCILED")
                        + (s.hasNonNull("error") ? " (error " + s.path("error").asText() + ")" : "")));
                ok &= held;
                for (DemoOrder o : billed) {
                    if (o.channel().name().equals(name)) {
                        out.println("     its bill lists " + o.outTradeNo() + " (" + o.amountFen() + " fen, paid in"
                                + " step 1): no difference, it matches the ledger");
                    }
                }
            }
            JsonNode statement = admin.statement(PLANTED_ON, day);
            JsonNode difference = null;
            for (JsonNode d : statement.path("differences")) {
                if (d.path("status").asText().equals("OPEN")) {
                    out.println("   GET /admin/statements/" + PLANTED_ON + "/" + day + ": OPEN difference #"
                            + d.path("id").asLong() + " " + d.path("kind").asText() + " " + d.path("outTradeNo").asText()
                            + ", billAmount " + d.path("billAmount").asText() + ", localAmount "
                            + d.path("localAmount").asText() + ", transactionId " + d.path("transactionId").asText());
                    if (lost.equals(d.path("outTradeNo").asText()) && "UNKNOWN_ORDER".equals(d.path("kind").asText())) {
                        difference = d;
                    }
                }
            }
            if (difference == null) {
                out.println("   FAILED: no OPEN UNKNOWN_ORDER difference for " + lost);
                return false;
            }
            String note = "demo: a payment taken outside this shop; refunded by hand in the merchant platform";
            HttpResponse<String> r = admin.resolve(difference.path("id").asLong(), note);
            JsonNode resolved = r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
            boolean isResolved = resolved != null && "RESOLVED".equals(resolved.path("status").asText());
            out.println("   POST /admin/statement-differences/" + difference.path("id").asLong() + "/resolve {\"note\":\""
                    + note + "\"}: " + r.statusCode() + (resolved != null ? ", " + resolved.path("status").asText() : "")
                    + (isResolved ? "" : "  FAILED: expected 200, RESOLVED: " + r.body()));
            ok &= isResolved;
            JsonNode after = admin.statement(PLANTED_ON, day);
            boolean reconciled = "RECONCILED".equals(after.path("status").asText());
            out.println("   GET /admin/statements/" + PLANTED_ON + "/" + day + ": " + after.path("status").asText()
                    + ", openDifferences " + after.path("openDifferences").asLong()
                    + (reconciled ? "" : "  FAILED: expected RECONCILED"));
            out.println("   the console's Statements page shows the same days: " + service + "/admin/console/");
            return ok && reconciled;
        }

        /** Fetches a day's statement now; a day claimed by the scheduler at that moment is asked again. */
        private JsonNode fetch(String channel, String day) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (true) {
                HttpResponse<String> r = admin.fetchStatement(channel, day);
                if (r.statusCode() == 200) {
                    return JSON.readTree(r.body());
                }
                if (r.statusCode() != 409 || System.nanoTime() - deadline > 0) {
                    out.println("   POST /admin/statements/" + channel + "/" + day + "/fetch: " + r.statusCode() + " "
                            + r.body() + "  FAILED: does the running paynotify have statements-enabled=true for "
                            + channel + " (application.properties %dev)?");
                    return null;
                }
                Thread.sleep(POLL_EVERY.toMillis());
            }
        }

        private String totals(JsonNode s) {
            return "bill " + s.path("payments").path("count").asLong() + " payments " + s.path("payments").path("amount").asLong()
                    + " fen, " + s.path("refunds").path("count").asLong() + " refunds "
                    + s.path("refunds").path("amount").asLong() + " fen, fees " + s.path("fees").asText() + " yuan, "
                    + s.path("foreign").path("count").asLong() + " foreign, openDifferences "
                    + s.path("openDifferences").asLong();
        }

        private boolean register(DemoOrder o) throws IOException, InterruptedException {
            HttpResponse<String> r = merchant.createOrder(o.channel().name(), o.outTradeNo(), o.amountFen(), "demo");
            boolean ok = r.statusCode() == 201;
            out.println("   POST /api/v1/orders " + o.name() + " (" + o.amountFen() + " fen, "
                    + o.channel().provider().displayName() + ") as dev-shop: " + r.statusCode()
                    + (ok ? "" : "  FAILED: " + r.body()));
            return ok;
        }

        private boolean send(DemoOrder o, Notice notice, String label) {
            Answer answer = sender.send(notice);
            boolean ok = Expectation.successAck("").matches(o.channel().provider(), answer);
            out.println("   " + label + " for " + o.name() + " -> "
                    + (ok
                            ? answer.status() + ", the success ack"
                            : answer.summary() + "  FAILED: not the success ack"));
            return ok;
        }

        private boolean lastNotifyOutcome(DemoOrder o, String outcome) throws IOException, InterruptedException {
            String last = null;
            for (JsonNode n : admin.notifications(o.channel().name(), o.outTradeNo())) {
                if (n.path("source").asText().equals("NOTIFY")) {
                    last = n.path("outcome").asText();
                }
            }
            boolean ok = outcome.equals(last);
            out.println("     recorded as " + last + (ok ? "" : "  FAILED: expected " + outcome));
            return ok;
        }

        private Notices notices(DemoOrder o) {
            return Notices.of(o.channel(), clock, null);
        }

        private Trade trade(DemoOrder o) {
            return Trade.fresh(o.channel().provider(), o.outTradeNo(), o.amountFen())
                    .withTransactionId(o.transactionId());
        }

        private void heading(String text) {
            out.println();
            out.println(text);
        }
    }

    private static long seconds(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos).toSeconds();
    }

    private static String tag(String channel) {
        return switch (channel) {
            case "wx-dev" -> "WX";
            case "wx3-dev" -> "V3";
            default -> "ALI";
        };
    }
}
