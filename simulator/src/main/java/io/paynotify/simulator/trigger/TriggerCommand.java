package io.paynotify.simulator.trigger;

import io.paynotify.simulator.cli.Args;
import io.paynotify.simulator.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code trigger <kind> --channel C ...}: sends one kind of notification to a running paynotify exactly as the
 * channel's provider would, prints every send and its answer, and exits 0 only when every answer was the one
 * docs/api.md prescribes.
 */
public final class TriggerCommand {

    /** The options {@code trigger} accepts. */
    public static final Set<String> OPTIONS = Set.of(
            "channel",
            "service",
            "out-trade-no",
            "amount",
            "transaction-id",
            "refund",
            "sign-type",
            "speed",
            "client",
            "channels-file",
            "sub-merchant",
            "sub-app-id");

    private final PrintStream out;
    private final Clock clock;
    private final RetryRunner.Sleeper sleeper;

    public TriggerCommand(PrintStream out) {
        this(out, Clock.systemUTC(), d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    TriggerCommand(PrintStream out, Clock clock, RetryRunner.Sleeper sleeper) {
        this.out = out;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Runs the command; 0 all as expected, 1 not, 2 never thrown here (usage errors are exceptions). */
    public int run(List<String> argv) throws UsageException, InterruptedException {
        Args args = Args.parse(argv, OPTIONS);
        if (args.positional().size() != 1) {
            throw new UsageException("trigger needs exactly one kind: pay, refund, close, duplicate, retries,"
                    + " tampered, stale, xxe, wrong-app, other-sub-merchant, missing-sub-merchant or foreign-root");
        }
        TriggerKind kind = TriggerKind.parse(args.positional().get(0))
                .orElseThrow(() ->
                        new UsageException("unknown kind '" + args.positional().get(0) + "'"));
        ChannelTable table = table(args);
        String channelName = args.option("channel").orElseThrow(() -> new UsageException("--channel is required"));
        Channel channel = table.channel(channelName)
                .orElseThrow(() -> new UsageException("unknown channel '" + channelName + "'; known: "
                        + String.join(", ", table.channels().keySet())));
        URI service = service(args);
        long amount = args.longOption("amount", 100, 1, 10_000_000_000L);
        long speed = args.longOption("speed", 1, 1, 1_000_000_000L);
        Notices notices = notices(channel, args);

        Optional<String> givenNumber = args.option("out-trade-no");
        String outTradeNo = givenNumber.orElseGet(() -> Trade.newOrderNumber("SIM-"));
        if (outTradeNo.length() > (channel.provider() == Provider.ALIPAY ? 64 : 32)) {
            throw new UsageException(
                    "--out-trade-no is too long for " + channel.provider().displayName());
        }
        Trade trade = Trade.fresh(channel.provider(), outTradeNo, amount);
        Optional<String> transactionId = args.option("transaction-id");
        if (transactionId.isPresent()) {
            trade = trade.withTransactionId(transactionId.get());
        }
        trade = trade.withRefund(args.longOption("refund", amount, 1, amount));
        trade = subMerchant(channel, trade, args);

        boolean paymentFirst = givenNumber.isEmpty() || transactionId.isEmpty();
        Client registrar = null; // registers the order first: only for a number made up here
        if (givenNumber.isEmpty() && !kind.evil()) {
            registrar = table.clientFor(channel.name(), args.option("client").orElse(null))
                    .orElseThrow(() -> new UsageException("no merchant client may register orders on " + channelName
                            + ": pass --client, or --out-trade-no of an existing order"));
        }
        try (XxeCanary canary = kind == TriggerKind.XXE ? new XxeCanary() : null) {
            List<Step> steps = List.of();
            if (kind != TriggerKind.RETRIES) {
                try {
                    steps = Scenario.plan(
                            kind, channel, notices, trade, paymentFirst, canary == null ? "" : canary.url());
                } catch (NotApplicable e) {
                    if (!e.providerSendsNone()) {
                        throw new UsageException(e.getMessage());
                    }
                    out.println("trigger " + kind.word() + " on " + channel + ": " + e.getMessage());
                    return 0; // the provider sends no such notice: nothing to check
                }
            }
            return send(kind, channel, notices, trade, steps, canary, registrar, service, speed) ? 0 : 1;
        } catch (IOException e) {
            throw new UsageException("cannot open the xxe canary listener on 127.0.0.1: " + e.getMessage());
        }
    }

    /** Registers the order where needed, then sends the planned steps (or runs the retries); true when all held. */
    private boolean send(
            TriggerKind kind,
            Channel channel,
            Notices notices,
            Trade trade,
            List<Step> steps,
            XxeCanary canary,
            Client registrar,
            URI service,
            long speed)
            throws InterruptedException {
        HttpClient http = NotifySender.newHttpClient();
        NotifySender sender = new NotifySender(http, service);
        out.println("trigger " + kind.word() + " on " + channel + " against " + service);
        if (registrar != null) {
            if (!register(new MerchantApi(http, service, registrar, clock), channel, trade)) {
                return false;
            }
        } else if (!kind.evil()) {
            out.println("  using the existing order " + channel.name() + "/" + trade.outTradeNo()
                    + " (it should be PENDING with amount " + trade.amountFen() + " fen)");
        }
        SendLog log = new SendLog(out, channel.provider());
        boolean ok;
        if (kind == TriggerKind.RETRIES) {
            ok = new RetryRunner(sender, sleeper).run(notices, notices.payment(trade), channel.provider(), speed, log);
        } else {
            ok = true;
            for (Step step : steps) {
                ok &= log.record(step.notice(), sender.send(step.notice()), step.expected());
            }
        }
        if (canary != null) {
            boolean fetched = canary.fetches() > 0;
            out.println("      "
                    + (fetched
                            ? "UNEXPECTED: the external entity was fetched " + canary.fetches() + " time(s)"
                            : "the external entity was not fetched"));
            ok &= !fetched;
        }
        out.println((ok ? "OK: " : "FAILED: ") + log.summary());
        return ok;
    }

    /** Registers the order through the merchant API; prints what happened. */
    private boolean register(MerchantApi api, Channel channel, Trade trade) throws InterruptedException {
        String what = channel.name() + "/" + trade.outTradeNo() + " (" + trade.amountFen() + " fen"
                + (trade.subMerchant() != null ? ", subMerchantId " + trade.subMerchant() : "")
                + (trade.subAppId() != null ? ", subAppId " + trade.subAppId() : "") + ")";
        try {
            HttpResponse<String> r = api.createOrder(
                    channel.name(),
                    trade.outTradeNo(),
                    trade.amountFen(),
                    "simulator",
                    trade.subMerchant(),
                    trade.subAppId());
            if (r.statusCode() == 201) {
                out.println("  registered order " + what + " through the merchant API as " + api.client() + ": 201");
                return true;
            }
            out.println("  FAILED to register order " + what + " as " + api.client() + ": " + r.statusCode() + " "
                    + r.body());
        } catch (ConnectException e) {
            out.println("  FAILED: paynotify does not answer at " + api.service() + ". Start it with"
                    + " ./mvnw quarkus:dev in another terminal, or pass --service.");
        } catch (IOException e) {
            out.println("  FAILED to register order " + what + ": " + e);
        }
        return false;
    }

    /**
     * The sub-merchant the trade belongs to on a partner or ISV channel: {@code --sub-merchant}, else the channel's
     * first known one; {@code --sub-app-id} on a WeChat partner channel only.
     */
    private static Trade subMerchant(Channel channel, Trade trade, Args args) throws UsageException {
        Optional<String> given = args.option("sub-merchant");
        Optional<String> subAppId = args.option("sub-app-id");
        if (!channel.hasSubMerchants()) {
            if (given.isPresent() || subAppId.isPresent()) {
                throw new UsageException("--sub-merchant and --sub-app-id are for partner and isv channels; "
                        + channel.name() + " is direct");
            }
            return trade;
        }
        if (subAppId.isPresent() && channel.mode() != Channel.Mode.PARTNER) {
            throw new UsageException("--sub-app-id is for WeChat Pay partner channels");
        }
        String sub = given.orElse(channel.defaultSubMerchant());
        if (sub == null) {
            throw new UsageException(channel.name() + " is a " + channel.mode().name().toLowerCase(java.util.Locale.ROOT)
                    + " channel: pass --sub-merchant");
        }
        String shape = channel.mode() == Channel.Mode.ISV ? "[0-9]{16}" : "[1-9][0-9]{0,31}";
        if (!sub.matches(shape)) {
            throw new UsageException("--sub-merchant must match " + shape + " on " + channel.name());
        }
        return trade.withSubMerchant(sub, subAppId.orElse(null));
    }

    private ChannelTable table(Args args) throws UsageException {
        Optional<String> file = args.option("channels-file");
        try {
            return file.isPresent() ? ChannelTable.load(Path.of(file.get())) : DevProfile.table();
        } catch (IOException e) {
            throw new UsageException("cannot read --channels-file " + file.get() + ": " + e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static URI service(Args args) throws UsageException {
        String value = args.option("service", DevProfile.SERVICE);
        try {
            URI uri = URI.create(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new UsageException("--service must be an http(s) URL such as http://localhost:8080");
        }
    }

    private Notices notices(Channel channel, Args args) throws UsageException {
        Optional<String> signType = args.option("sign-type");
        if (signType.isPresent() && channel.provider() != Provider.WECHATPAY_V2) {
            throw new UsageException("--sign-type is for WeChat Pay v2 channels");
        }
        try {
            return Notices.of(channel, clock, signType.orElse(null));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
