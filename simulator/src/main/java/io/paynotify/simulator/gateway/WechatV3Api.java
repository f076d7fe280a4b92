package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.BeijingTime;
import io.paynotify.simulator.sign.WechatV3Signer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV3Merchant;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * WeChat Pay v3 {@code GET /v3/pay/transactions/out-trade-no/{out_trade_no}?mchid=…}: checks the request as WeChat
 * does ({@link WechatV3Authorization}, {@code Accept}, {@code User-Agent}) and answers the plain transaction JSON with
 * the {@code Wechatpay-*} signature headers.
 *
 * @see <a href="https://pay.weixin.qq.com/docs/merchant/apis/native-payment/query-by-out-trade-no.html">商户订单号查询订单</a>
 */
final class WechatV3Api {

    static final String PATH_PREFIX = "/v3/pay/transactions/out-trade-no/";
    /** The service provider's query (PROTOCOLS §11.2): {@code ?sp_mchid=…&sub_mchid=…}. */
    static final String PARTNER_PATH_PREFIX = "/v3/pay/partner/transactions/out-trade-no/";

    private final GatewayConfig config;
    private final Trades trades;
    private final ForeignKeys foreignKeys;
    private final ObjectMapper json;
    private final TradeOwners owners;

    WechatV3Api(GatewayConfig config, Trades trades, ForeignKeys foreignKeys, ObjectMapper json, TradeOwners owners) {
        this.config = config;
        this.trades = trades;
        this.foreignKeys = foreignKeys;
        this.json = json;
        this.owners = owners;
    }

    Reply handle(ReceivedRequest request) throws InterruptedException {
        Map<String, String> query;
        String outTradeNo;
        boolean partner = request.rawPath().startsWith(PARTNER_PATH_PREFIX);
        try {
            query = ReceivedRequest.formPairs(request.rawQuery());
            outTradeNo = ReceivedRequest.decodePathSegment(
                    request.rawPath().substring((partner ? PARTNER_PATH_PREFIX : PATH_PREFIX).length()));
        } catch (IllegalArgumentException e) {
            return refuse(request, Map.of(), null, null, 400, "PARAM_ERROR", "请求参数格式错误: " + e.getMessage());
        }
        if (outTradeNo.isEmpty() || outTradeNo.contains("/")) {
            return refuse(request, query, null, null, 404, "NOT_FOUND", "请求的资源不存在");
        }
        // WeChat requires both headers of every API v3 request (its basic rules); without them it refuses the call.
        if (isBlank(request.header("Accept"))) {
            return refuse(request, query, outTradeNo, null, 400, "PARAM_ERROR", "请求缺少Accept头");
        }
        if (isBlank(request.header("User-Agent"))) {
            return refuse(request, query, outTradeNo, null, 400, "PARAM_ERROR", "请求缺少User-Agent头");
        }
        WechatV3Authorization.Check check =
                WechatV3Authorization.check(config, request, query.get(partner ? "sp_mchid" : "mchid"), Instant.now());
        if (!check.ok()) {
            return refuse(
                    request,
                    query,
                    outTradeNo,
                    check.merchant(),
                    401,
                    "SIGN_ERROR",
                    "签名错误，请检查后再试: " + check.rejection(),
                    check.rejection());
        }
        TradeOwners.Owner owner = null;
        if (partner) {
            List<String> subs = config.modes().v3SubMerchantsOf(check.merchant().mchId());
            String sub = query.get("sub_mchid");
            String problem = subs.isEmpty()
                    ? "sp_mchid " + check.merchant().mchId() + " is not a service provider"
                    : isBlank(sub)
                            ? "缺少参数sub_mchid"
                            : subs.contains(sub) ? null : "sub_mchid " + sub + " 与 sp_mchid 不匹配";
            if (problem != null) {
                return refuse(request, query, outTradeNo, check.merchant(), 400, "PARAM_ERROR", problem);
            }
            TradeOwners.Owner asking = new TradeOwners.Owner(sub, null);
            owner = owners.claim(Api.WECHATPAY_V3, outTradeNo, asking, trades.scripted(outTradeNo).isPresent());
            if (!TradeOwners.sameMerchant(owner, asking)) {
                // another sub-merchant's trade: not found, and not recorded as asked (bills stay per sub-merchant)
                trades.record(new RecordedRequest(
                        Api.WECHATPAY_V3,
                        outTradeNo,
                        false,
                        "another sub-merchant's trade (answered ORDER_NOT_EXIST)",
                        request.lowerCaseHeaders(),
                        query,
                        request.receivedAt()));
                return answer(
                        check.merchant(),
                        request.header("Wechatpay-Serial"),
                        outTradeNo,
                        ScriptedTrade.of(TradeState.NOT_FOUND, 0),
                        asking);
            }
        }
        trades.record(new RecordedRequest(
                Api.WECHATPAY_V3, outTradeNo, true, null, request.lowerCaseHeaders(), query, request.receivedAt()));
        ScriptedTrade trade = trades.answerFor(outTradeNo);
        Faults.pauseIfSlow(trade);
        return answer(check.merchant(), request.header("Wechatpay-Serial"), outTradeNo, trade, owner);
    }

    /** {@code owner}: on a partner query the sub-merchant the answer names (the partner transaction); else null. */
    private Reply answer(
            WechatV3Merchant merchant,
            String requestedSerial,
            String outTradeNo,
            ScriptedTrade trade,
            TradeOwners.Owner owner) {
        Fault fault = trade.fault();
        if (fault == Fault.HTTP_500) {
            return Reply.proxyError500();
        }
        Reply reply;
        if (fault == Fault.ERROR_RESPONSE) {
            reply = Reply.json(500, error("SYSTEM_ERROR", "系统错误"));
        } else if (trade.state() == TradeState.NOT_FOUND) {
            reply = Reply.json(404, error("ORDER_NOT_EXIST", "订单不存在"));
        } else {
            reply = Reply.json(200, write(transaction(merchant, outTradeNo, trade, owner)));
        }
        if (fault == Fault.UNSIGNED) {
            return reply.withHeader("Request-ID", Nonces.alphanumeric(32));
        }
        String serial = merchant.signingSerial(requestedSerial);
        PrivateKey key = fault == Fault.BAD_SIGNATURE
                ? foreignKeys.rsa()
                : merchant.platformKeys().get(serial);
        return signed(reply, serial, key);
    }

    /**
     * The transaction; a partner one ({@code owner} not null) names {@code sp_appid}, {@code sp_mchid},
     * {@code sub_appid} (where the trade has one), {@code sub_mchid} and {@code payer{sp_openid}}, as wechatpay-java's
     * {@code partnerpayments.model.Transaction}.
     */
    private Map<String, Object> transaction(
            WechatV3Merchant merchant, String outTradeNo, ScriptedTrade trade, TradeOwners.Owner owner) {
        TradeState state = trade.state();
        boolean payment = state.paid() && trade.fault() != Fault.OMIT_PAYMENT;
        String mchId = trade.fault() == Fault.WRONG_MCH ? WechatV2Api.OTHER_MCH_ID : merchant.mchId();
        Map<String, Object> t = new LinkedHashMap<>();
        if (owner == null) {
            t.put("appid", merchant.appId());
            t.put("mchid", mchId);
        } else {
            t.put("sp_appid", merchant.appId());
            t.put("sp_mchid", mchId);
            if (owner.subAppId() != null) {
                t.put("sub_appid", owner.subAppId());
            }
            t.put("sub_mchid", owner.subMerchant());
        }
        t.put("out_trade_no", outTradeNo);
        if (payment) {
            t.put("transaction_id", trade.transactionId());
            t.put("trade_type", "NATIVE");
        }
        t.put("trade_state", trade.rawState() != null ? trade.rawState() : state.wechatName());
        t.put("trade_state_desc", trade.rawState() != null ? trade.rawState() : state.wechatDescription());
        if (payment) {
            t.put("bank_type", "OTHERS");
            t.put("success_time", BeijingTime.rfc3339(trade.paidAt()));
            t.put("payer", Map.of(owner == null ? "openid" : "sp_openid", WechatV2Api.PAYER_OPENID));
        }
        boolean omitted = state.paid() && !payment;
        if (!omitted) {
            Map<String, Object> amount = new LinkedHashMap<>();
            amount.put("total", trade.amountFen());
            if (payment) {
                amount.put("payer_total", trade.amountFen());
            }
            amount.put("currency", "CNY");
            amount.put("payer_currency", "CNY");
            t.put("amount", amount);
        }
        return t;
    }

    /** Adds WeChat's answer signature: SHA256withRSA over {@code TIMESTAMP\nNONCE\nBODY\n}. */
    private static Reply signed(Reply reply, String serial, PrivateKey key) {
        String timestamp = Long.toString(Instant.now().getEpochSecond());
        String nonce = Nonces.alphanumeric(32);
        String signature = WechatV3Signer.sign(key, timestamp, nonce, reply.body());
        return reply.withHeader("Request-ID", Nonces.alphanumeric(32))
                .withHeader("Wechatpay-Nonce", nonce)
                .withHeader("Wechatpay-Signature", signature)
                .withHeader("Wechatpay-Timestamp", timestamp)
                .withHeader("Wechatpay-Serial", serial);
    }

    private Reply refuse(
            ReceivedRequest request,
            Map<String, String> query,
            String outTradeNo,
            WechatV3Merchant merchant,
            int status,
            String code,
            String message) {
        return refuse(request, query, outTradeNo, merchant, status, code, message, message);
    }

    private Reply refuse(
            ReceivedRequest request,
            Map<String, String> query,
            String outTradeNo,
            WechatV3Merchant merchant,
            int status,
            String code,
            String message,
            String why) {
        trades.record(new RecordedRequest(
                Api.WECHATPAY_V3, outTradeNo, false, why, request.lowerCaseHeaders(), query, request.receivedAt()));
        Reply reply = Reply.json(status, error(code, message));
        if (merchant == null) {
            return reply.withHeader("Request-ID", Nonces.alphanumeric(32));
        }
        String serial = merchant.signingSerial(request.header("Wechatpay-Serial"));
        return signed(reply, serial, merchant.platformKeys().get(serial));
    }

    private String error(String code, String message) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("message", message);
        return write(body);
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
