package io.paynotify.simulator.cli;

import java.util.Map;
import java.util.Optional;

/** The usage text of the simulator and of each of its commands. */
public final class Usage {

    private static final String JAR = "java -jar simulator/target/paynotify-simulator.jar";

    static final String SERVE = """
            serve [--port 8090]
              Runs the fake WeChat Pay and Alipay gateways that paynotify's active query (docs/api.md#active-query) calls in the
              dev profile. Script what a trade's query answers with its control API:
                curl -X PUT http://127.0.0.1:8090/_sim/trades/ORDER-1 -H 'Content-Type: application/json' \\
                     -d '{"state":"PAID","amount":100}'
            """;

    static final String TRIGGER = """
            trigger <kind> --channel wx-dev|wx3-dev|ali-dev|wx-sp-dev|wx3-sp-dev|ali-isv-dev|ali-cert-dev
                    [--service http://localhost:8080] [--out-trade-no X] [--amount FEN] [--transaction-id T]
                    [--refund FEN] [--sign-type MD5|HMAC-SHA256] [--speed N] [--client ID] [--channels-file F]
                    [--sub-merchant ID] [--sub-app-id ID]
              Sends correctly signed notifications to a running paynotify, exactly as the channel's provider would, and
              checks each answer against docs/api.md#notify-api. Without --out-trade-no it first registers a new order through
              the merchant API (client dev-shop), except for the kinds that need none.
              On a partner (WeChat service provider) or isv (Alipay third-party application) channel every notice and
              order names a sub-merchant: --sub-merchant (sub_mch_id / sub_mchid, or the merchant's auth_app_id),
              by default the channel's first; --sub-app-id adds a WeChat sub_appid.
              kinds:
                pay        a payment notice
                refund     the payment notice, then a full (or --refund FEN) refund notice for the same trade
                close      Alipay's TRADE_CLOSED for an unpaid trade (WeChat Pay sends no close notice)
                duplicate  the same payment notice bytes twice
                retries    one payment notice, re-sent on the provider's retry schedule until acknowledged;
                           --speed N divides the waits
                tampered   a signed notice with one field changed after signing      (expects 401)
                stale      WeChat Pay v3: Wechatpay-Timestamp 10 minutes old          (expects 401)
                xxe        WeChat Pay v2: a body with a DOCTYPE and an external entity (expects 400)
                wrong-app  correctly signed, for another app id                        (expects 422)
                other-sub-merchant    partner/isv: another sub-merchant's genuine payment for this order
                                      (expects 422), the order's own payment (applied), then the other's
                                      refund (expects 422)
                missing-sub-merchant  partner/isv: a signed payment notice naming no sub-merchant
                                      (WeChat expects 400, Alipay isv 422)
                foreign-root          Alipay certificate mode: signed with the key of a certificate from another
                                      root (expects 401)
              Exit 0 when every answer was the expected one, 1 otherwise, 2 on a usage error.
            """;

    static final String LISTEN = """
            listen [--port 8089] [--secret whsec_...]
              A merchant's webhook receiver on 127.0.0.1: verifies Standard Webhooks v1 signatures (default: the dev
              secret of client dev-shop), answers 204 when valid and 401 otherwise, and prints one line per delivery.
            """;

    static final String DEMO = """
            demo [--service http://localhost:8080]
              With `./mvnw quarkus:dev` running in another terminal: starts the fake gateway (8090) and the webhook
              receiver (8089) unless they already run, registers one order per dev channel, lets paynotify's active
              query find them paid, sends the late notifications, a duplicate, shows the admin view and waits for
              the order.paid webhooks; then, per account-mode channel (wx-sp-dev, wx3-sp-dev, ali-isv-dev,
              ali-cert-dev), an order of one sub-merchant refused another sub-merchant's notice and paid by its own.
              Exit 0 only when every step held.
            """;

    static final String HELP = """
            help [command]
              Prints this text, or one command's.
            """;

    private static final Map<String, String> COMMANDS =
            Map.of("serve", SERVE, "trigger", TRIGGER, "listen", LISTEN, "demo", DEMO, "help", HELP);

    private Usage() {}

    /** Every command's usage. */
    public static String all() {
        return "paynotify-simulator: a local stand-in for WeChat Pay and Alipay, for trying paynotify on a laptop.\n\n"
                + "usage: " + JAR + " <command> [options]\n\n"
                + SERVE + "\n" + TRIGGER + "\n" + LISTEN + "\n" + DEMO + "\n" + HELP;
    }

    /** One command's usage, if the command exists. */
    public static Optional<String> of(String command) {
        return Optional.ofNullable(COMMANDS.get(command)).map(text -> "usage: " + JAR + " " + text);
    }
}
