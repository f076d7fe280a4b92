package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.BeijingTime;
import io.paynotify.simulator.sign.WechatV2Signer;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV2Merchant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * WeChat Pay v2 {@code POST /pay/orderquery}: checks the request as WeChat does (known mch_id and appid, the sign by
 * {@code sign_type}) and answers the scripted trade in WeChat's signed XML.
 *
 * @see <a href="https://pay.weixin.qq.com/wiki/doc/api/native.php?chapter=9_2">查询订单 (order query, v2)</a>
 */
final class WechatV2Api {

    static final String PATH = "/pay/orderquery";

    /** The mch_id a {@link Fault#WRONG_MCH} answer names: no configured merchant's. */
    static final String OTHER_MCH_ID = "1999999999";

    static final String PAYER_OPENID = "oPaynotifySimulatorPayer0001";

    private static final String CONTENT_TYPE = "text/xml; charset=utf-8";

    private final GatewayConfig config;
    private final Trades trades;
    private final ForeignKeys foreignKeys;
    private final TradeOwners owners;

    WechatV2Api(GatewayConfig config, Trades trades, ForeignKeys foreignKeys, TradeOwners owners) {
        this.config = config;
        this.trades = trades;
        this.foreignKeys = foreignKeys;
        this.owners = owners;
    }

    Reply handle(ReceivedRequest request) throws InterruptedException {
        Map<String, String> fields;
        try {
            fields = SafeXml.parse(request.body());
        } catch (IllegalArgumentException e) {
            return refuse(request, Map.of(), "unreadable XML: " + e.getMessage(), "XML格式错误");
        }
        String signType = fields.get("sign_type");
        Optional<WechatV2Merchant> merchant = config.wechatV2(fields.get("mch_id"));
        if (merchant.isEmpty()) {
            return refuse(request, fields, "unknown mch_id " + fields.get("mch_id"), "商户号mch_id或sub_mch_id不存在");
        }
        if (!merchant.get().appId().equals(fields.get("appid"))) {
            return refuse(request, fields, "appid " + fields.get("appid") + " is not mch_id's", "appid和mch_id不匹配");
        }
        if (!WechatV2Signer.known(signType)) {
            return refuse(request, fields, "unknown sign_type " + signType, "签名类型错误");
        }
        if (!WechatV2Signer.matches(fields, signType, merchant.get().apiKey())) {
            return refuse(request, fields, "wrong or missing sign", "签名错误");
        }
        if (isBlank(fields.get("nonce_str"))) {
            return refuse(request, fields, "no nonce_str", "缺少参数nonce_str");
        }
        String outTradeNo = fields.get("out_trade_no");
        if (isBlank(outTradeNo)) {
            return refuse(
                    request, fields, "no out_trade_no (the gateway answers by out_trade_no only)", "缺少参数out_trade_no");
        }
        // 服务商模式 (PROTOCOLS §11.1): a service provider asks for one of its sub-merchants' trades
        List<String> subs = config.modes().v2SubMerchantsOf(merchant.get().mchId());
        String subMchId = fields.get("sub_mch_id");
        TradeOwners.Owner owner = null;
        if (!subs.isEmpty() || !isBlank(subMchId)) {
            if (isBlank(subMchId)) {
                return refuse(request, fields, "a service provider's query without sub_mch_id", "缺少参数sub_mch_id");
            }
            if (!subs.contains(subMchId)) {
                return refuse(
                        request, fields, "sub_mch_id " + subMchId + " is not mch_id's sub-merchant", "mch_id与sub_mch_id不匹配");
            }
            String subAppId = isBlank(fields.get("sub_appid")) ? null : fields.get("sub_appid");
            TradeOwners.Owner asking = new TradeOwners.Owner(subMchId, subAppId);
            owner = owners.claim(Api.WECHATPAY_V2, outTradeNo, asking, trades.scripted(outTradeNo).isPresent());
            if (TradeOwners.sameMerchant(owner, asking)
                    && subAppId != null
                    && owner.subAppId() != null
                    && !owner.subAppId().equals(subAppId)) {
                return refuse(request, fields, "sub_appid " + subAppId + " is not the trade's", "sub_mch_id与sub_appid不匹配");
            }
            if (!TradeOwners.sameMerchant(owner, asking)) {
                owner = new TradeOwners.Owner(subMchId, subAppId); // another's trade: answered as not found
                // recorded as not accepted, so that another sub-merchant's bill never lists the trade
                trades.record(new RecordedRequest(
                        Api.WECHATPAY_V2,
                        outTradeNo,
                        false,
                        "another sub-merchant's trade (answered ORDERNOTEXIST)",
                        request.lowerCaseHeaders(),
                        fields,
                        request.receivedAt()));
                return answer(merchant.get(), signType, outTradeNo, ScriptedTrade.of(TradeState.NOT_FOUND, 0), owner);
            }
            if (owner.subAppId() == null && subAppId != null) {
                owner = asking;
            }
        }
        trades.record(new RecordedRequest(
                Api.WECHATPAY_V2, outTradeNo, true, null, request.lowerCaseHeaders(), fields, request.receivedAt()));
        ScriptedTrade trade = trades.answerFor(outTradeNo);
        Faults.pauseIfSlow(trade);
        return answer(merchant.get(), signType, outTradeNo, trade, owner);
    }

    /** {@code owner}: on a partner query, the sub-merchant (and sub_appid) the answer echoes; else null. */
    private Reply answer(
            WechatV2Merchant merchant, String signType, String outTradeNo, ScriptedTrade trade, TradeOwners.Owner owner) {
        Fault fault = trade.fault();
        if (fault == Fault.HTTP_500) {
            return Reply.proxyError500();
        }
        if (fault == Fault.ERROR_RESPONSE) {
            return failure("系统繁忙,请稍后再试.");
        }
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("return_code", "SUCCESS");
        answer.put("return_msg", "OK");
        answer.put("appid", merchant.appId());
        answer.put("mch_id", fault == Fault.WRONG_MCH ? OTHER_MCH_ID : merchant.mchId());
        if (owner != null) {
            answer.put("sub_mch_id", owner.subMerchant());
            if (owner.subAppId() != null) {
                answer.put("sub_appid", owner.subAppId());
            }
        }
        answer.put("nonce_str", Nonces.alphanumeric(32));
        TradeState state = trade.state();
        if (state == TradeState.NOT_FOUND) {
            answer.put("result_code", "FAIL");
            answer.put("err_code", "ORDERNOTEXIST");
            answer.put("err_code_des", "订单不存在");
        } else {
            answer.put("result_code", "SUCCESS");
            answer.put("out_trade_no", outTradeNo);
            answer.put("trade_state", trade.rawState() != null ? trade.rawState() : state.wechatName());
            answer.put("trade_state_desc", trade.rawState() != null ? trade.rawState() : state.wechatDescription());
            if (state.paid() && fault != Fault.OMIT_PAYMENT) {
                answer.put("openid", PAYER_OPENID);
                answer.put("is_subscribe", "N");
                answer.put("trade_type", "NATIVE");
                answer.put("bank_type", "OTHERS");
                answer.put("total_fee", Long.toString(trade.amountFen()));
                answer.put("cash_fee", Long.toString(trade.amountFen()));
                answer.put("fee_type", "CNY");
                answer.put("transaction_id", trade.transactionId());
                answer.put("time_end", BeijingTime.compact(trade.paidAt()));
            }
        }
        if (fault != Fault.UNSIGNED) {
            String key = fault == Fault.BAD_SIGNATURE ? foreignKeys.wechatV2ApiKey() : merchant.apiKey();
            answer.put("sign", WechatV2Signer.sign(answer, signType, key));
        }
        return Reply.of(200, CONTENT_TYPE, WechatV2Signer.xml("xml", answer, WechatV2Signer.NUMERIC));
    }

    private Reply refuse(ReceivedRequest request, Map<String, String> fields, String why, String returnMsg) {
        trades.record(new RecordedRequest(
                Api.WECHATPAY_V2,
                fields.get("out_trade_no"),
                false,
                why,
                request.lowerCaseHeaders(),
                fields,
                request.receivedAt()));
        return failure(returnMsg);
    }

    /** {@code return_code FAIL}: WeChat's answer to a request it would not process; never signed. */
    private static Reply failure(String returnMsg) {
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("return_code", "FAIL");
        answer.put("return_msg", returnMsg);
        return Reply.of(200, CONTENT_TYPE, WechatV2Signer.xml("xml", answer, WechatV2Signer.NUMERIC));
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
