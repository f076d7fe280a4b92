package io.paynotify.simulator.gateway;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * The CLI command {@code serve [--port N]}: runs a {@link Gateway} with the dev profile's merchants
 * ({@link GatewayConfig#dev()}) until Ctrl-C, after printing what it serves, the control API and the merchants.
 */
public final class ServeCommand {

    private static final String USAGE = "usage: serve [--port N]   (default port " + GatewayConfig.DEV_PORT + ")";

    private ServeCommand() {}

    /**
     * Runs the command; {@code args} may start with the word {@code serve}. Blocks until the JVM shuts down.
     *
     * @return 0 after a shutdown, 1 when the gateway cannot start, 2 on bad arguments
     */
    public static int run(String[] args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        int port = GatewayConfig.DEV_PORT;
        int i = args.length > 0 && args[0].equals("serve") ? 1 : 0;
        for (; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            if (arg.equals("--port") && i + 1 < args.length) {
                value = args[++i];
            } else if (arg.startsWith("--port=")) {
                value = arg.substring("--port=".length());
            } else if (arg.equals("--help") || arg.equals("-h")) {
                out.println(USAGE);
                return 0;
            } else {
                err.println("serve: unknown argument " + arg);
                err.println(USAGE);
                return 2;
            }
            try {
                port = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                err.println("serve: --port takes a number within 0..65535, not " + value);
                return 2;
            }
        }

        GatewayConfig config;
        Gateway gateway;
        try {
            config = GatewayConfig.dev().withPort(port);
            gateway = Gateway.start(config);
        } catch (IOException e) {
            err.println("serve: cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
            return 1;
        } catch (IllegalStateException | IllegalArgumentException e) {
            err.println("serve: cannot load the dev merchants: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            gateway.close();
                            stopped.countDown();
                        },
                        "paynotify-sim-serve-shutdown"));
        out.print(banner(gateway.baseUrl()));
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            gateway.close();
        }
        return 0;
    }

    static String banner(String base) {
        return """
                paynotify simulator: fake provider gateway on %1$s (Ctrl-C to stop)

                Query APIs (requests checked and answers signed as the providers do):
                  WeChat Pay v2  POST %1$s/pay/orderquery
                  WeChat Pay v3  GET  %1$s/v3/pay/transactions/out-trade-no/{outTradeNo}?mchid=…
                  Alipay         POST %1$s/gateway.do   (method=alipay.trade.query)
                  An out_trade_no that is not scripted answers "not found".

                Account modes (CONTRACT §10):
                  WeChat v2 partner  POST %1$s/pay/orderquery with sub_mch_id (and sub_appid)
                  WeChat v3 partner  GET  %1$s/v3/pay/partner/transactions/out-trade-no/{no}?sp_mchid=…&sub_mchid=…
                  Alipay ISV         app_auth_token on alipay.trade.query; alipay.open.auth.token.app.query
                  Alipay certificate app_cert_sn + alipay_root_cert_sn required; answers name alipay_cert_sn;
                                     alipay.open.app.alipaycert.download
                  A trade is one sub-merchant's (scripted "subMerchant", else the first partner/ISV query's);
                  another sub-merchant asking gets "not found".

                Control API:
                  curl -X PUT %1$s/_sim/trades/ORDER-1 -H 'Content-Type: application/json' \\
                       -d '{"state":"PAID","amount":100}'
                      fields: state (required) NOTPAY|USERPAYING|PAYERROR|PAID|FINISHED|CLOSED|REVOKED|REFUND|NOT_FOUND,
                              amount (fen, default 1), transactionId, paidAt (ISO-8601), delayMillis, rawState,
                              fault NONE|BAD_SIGNATURE|UNSIGNED|HTTP_500|SLOW|WRONG_MCH|ESCAPED_SLASHES|
                                    OMIT_PAYMENT|ERROR_RESPONSE
                  curl %1$s/_sim/trades/ORDER-1        the script and how often it was queried
                  curl %1$s/_sim/requests              every query request received
                  curl -X DELETE %1$s/_sim/trades      forget everything
                  curl -X PUT %1$s/_sim/alipay/cert -d '{"rotated":true}'   answers name the re-issued
                                                       Alipay certificate's SN (GET: the SNs)

                Dev merchants (paynotify's dev profile; keys in simulator/keys, dev only):
                  WeChat Pay v2  mch_id %2$s  appid %3$s  api key %4$s
                  WeChat Pay v3  mchid %5$s  appid %6$s
                                 merchant serial %7$s (wechatpay-v3-dev-merchant-public.pem)
                                 platform key %8$s (wechatpay-v3-dev-platform-private.pem)
                  Alipay         app_id %9$s  app public key alipay-dev-app-public.pem,
                                 Alipay key alipay-dev-private.pem (verify with alipay-dev-public.pem)
                  WeChat v2 SP   mch_id %10$s  appid %11$s  sub_mch_id %12$s
                  WeChat v3 SP   sp_mchid %13$s  appid %14$s  sub_mchid %15$s
                                 merchant serial %16$s, platform key %17$s
                  Alipay ISV     app_id %18$s  merchants (auth_app_id) %19$s
                  Alipay cert    app_id %20$s  alipay-cert-dev-{app,root,alipay,alipay-reissued}.crt
                """.formatted(
                        base,
                        DevMerchants.WECHAT_V2_MCH_ID,
                        DevMerchants.WECHAT_V2_APP_ID,
                        DevMerchants.WECHAT_V2_API_KEY,
                        DevMerchants.WECHAT_V3_MCH_ID,
                        DevMerchants.WECHAT_V3_APP_ID,
                        DevMerchants.WECHAT_V3_MERCHANT_SERIAL,
                        DevMerchants.WECHAT_V3_PLATFORM_SERIAL,
                        DevMerchants.ALIPAY_APP_ID,
                        DevMerchants.WECHAT_V2_SP_MCH_ID,
                        DevMerchants.WECHAT_V2_SP_APP_ID,
                        String.join(", ", DevMerchants.WECHAT_V2_SP_SUB_MERCHANTS),
                        DevMerchants.WECHAT_V3_SP_MCH_ID,
                        DevMerchants.WECHAT_V3_SP_APP_ID,
                        String.join(", ", DevMerchants.WECHAT_V3_SP_SUB_MERCHANTS),
                        DevMerchants.WECHAT_V3_SP_MERCHANT_SERIAL,
                        DevMerchants.WECHAT_V3_SP_PLATFORM_SERIAL,
                        DevMerchants.ALIPAY_ISV_APP_ID,
                        String.join(", ", new java.util.TreeSet<>(DevMerchants.ALIPAY_ISV_TOKENS.keySet())),
                        DevMerchants.ALIPAY_CERT_APP_ID);
    }
}
