package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * A fake WeChat Pay (v2, v3) and Alipay gateway on 127.0.0.1 that answers the providers' order-query APIs from
 * scripts: {@code POST /pay/orderquery}, {@code GET /v3/pay/transactions/out-trade-no/{no}?mchid=…} and
 * {@code POST /gateway.do} ({@code alipay.trade.query}). Requests are checked and answers signed exactly as the
 * providers do, so the official SDKs talk to it unchanged; every query request is recorded. The control API
 * ({@link ControlApi}, under {@code /_sim/}) scripts it over HTTP.
 *
 * <p>Each gateway keeps its own scripts and records; several can run in one JVM. Close it to free the port.
 *
 * <pre>{@code
 * try (Gateway gateway = Gateway.start(GatewayConfig.builder().port(0).wechatV2("1900000001", "wx…", key).build())) {
 *     gateway.script("order-1", ScriptedTrade.of(TradeState.PAID, 100));
 *     // point the client at gateway.baseUrl() (Alipay: gateway.baseUrl() + "/gateway.do")
 * }
 * }</pre>
 */
public final class Gateway implements AutoCloseable {

    private final Trades trades = new Trades();
    private final TradeOwners owners = new TradeOwners();
    private final AlipayCerts alipayCerts;
    private final WechatV2Api wechatV2;
    private final WechatV3Api wechatV3;
    private final AlipayApi alipay;
    private final ControlApi control;
    private final BillsApi bills;
    private final LoopbackHttpServer server;

    private Gateway(GatewayConfig config) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ForeignKeys foreignKeys = new ForeignKeys();
        this.alipayCerts = new AlipayCerts(config.modes(), json);
        this.wechatV2 = new WechatV2Api(config, trades, foreignKeys, owners);
        this.wechatV3 = new WechatV3Api(config, trades, foreignKeys, json, owners);
        this.alipay = new AlipayApi(config, trades, foreignKeys, json, owners, alipayCerts);
        this.control = new ControlApi(trades, owners, json, alipayCerts::reset);
        this.bills = new BillsApi(config, trades, json, alipayCerts);
        this.server = LoopbackHttpServer.start(config.port(), this::route, "paynotify-sim-gateway");
    }

    /** Binds 127.0.0.1:{@code config.port()} (0 = a free port) and serves until {@link #close()}. */
    public static Gateway start(GatewayConfig config) throws IOException {
        return new Gateway(Objects.requireNonNull(config, "config"));
    }

    public int port() {
        return server.port();
    }

    /**
     * {@code http://127.0.0.1:<port>}: WeChat's api base URL; Alipay's gateway URL is this plus {@code /gateway.do}.
     */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** What all three query APIs answer for {@code outTradeNo} from now on (replacing an earlier script). */
    public void script(String outTradeNo, ScriptedTrade trade) {
        trades.script(outTradeNo, trade);
    }

    /**
     * As {@link #script(String, ScriptedTrade)}, the trade belonging to one sub-merchant (WeChat {@code sub_mch_id} /
     * {@code sub_mchid}, Alipay {@code auth_app_id}) and {@code sub_appid} (or null): partner and ISV queries under
     * another sub-merchant answer "not found". Null {@code subMerchant}: the first such query binds it.
     */
    public void script(String outTradeNo, ScriptedTrade trade, String subMerchant, String subAppId) {
        trades.script(outTradeNo, trade);
        owners.script(outTradeNo, subMerchant, subAppId);
    }

    /** Certificate mode: answers name the re-issued Alipay certificate's SN (true) or the configured one. */
    public void rotateAlipayCertificate(boolean rotated) {
        alipayCerts.rotate(rotated);
    }

    /** What the bill download APIs ({@link BillsApi}) add to the known trades' bill of {@code api} on {@code day}. */
    public void scriptBill(Api api, java.time.LocalDate day, BillScript script) {
        bills.bills().script(api, day, script);
    }

    /** Forgets every script (bill scripts included) and recorded request. */
    public void reset() {
        trades.reset();
        owners.reset();
        alipayCerts.reset();
        bills.bills().reset();
    }

    /** Every query request received, oldest first, accepted or not (a copy; the last 10,000 at most). */
    public List<RecordedRequest> requests() {
        return trades.requests();
    }

    /** How many query requests named {@code outTradeNo}, accepted or not. */
    public long queryCount(String outTradeNo) {
        return trades.queryCount(outTradeNo);
    }

    /** Stops serving; answers still waiting ({@link Fault#SLOW}) are dropped. */
    @Override
    public void close() {
        server.close();
    }

    private Reply route(ReceivedRequest request) throws InterruptedException {
        String path = request.rawPath();
        String method = request.method();
        if (BillsApi.handles(request)) {
            return bills.handle(request);
        }
        if (path.equals(WechatV2Api.PATH)) {
            return method.equals("POST") ? wechatV2.handle(request) : notAllowed("POST");
        }
        if (path.startsWith(WechatV3Api.PATH_PREFIX) || path.startsWith(WechatV3Api.PARTNER_PATH_PREFIX)) {
            return method.equals("GET") ? wechatV3.handle(request) : notAllowed("GET");
        }
        if (path.equals(AlipayApi.PATH)) {
            // Alipay's gateway takes GET too, with everything in the query string.
            return method.equals("POST") || method.equals("GET") ? alipay.handle(request) : notAllowed("POST");
        }
        if (path.equals(AlipayCerts.CONTROL)) {
            return alipayCerts.control(request);
        }
        if (path.startsWith(ControlApi.PREFIX)) {
            return control.handle(request);
        }
        return Reply.text(
                404,
                "the simulated gateway serves " + WechatV2Api.PATH + ", " + WechatV3Api.PATH_PREFIX + "{outTradeNo}, "
                        + AlipayApi.PATH + " and " + ControlApi.PREFIX + "…\n");
    }

    private static Reply notAllowed(String allowed) {
        return Reply.text(405, "method not allowed; use " + allowed + "\n").withHeader("Allow", allowed);
    }
}
