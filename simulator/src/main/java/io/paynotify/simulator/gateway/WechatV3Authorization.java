package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.WechatV3Signer;
import io.paynotify.simulator.gateway.GatewayConfig.WechatV3Merchant;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Authorization} of a WeChat Pay v3 request, checked as WeChat does: schema
 * {@code WECHATPAY2-SHA256-RSA2048}, the five tokens, a known merchant whose mchid is also the query's, its merchant
 * serial, a timestamp within 5 minutes, and SHA256withRSA over
 * {@code METHOD\nTARGET\nTIMESTAMP\nNONCE\nBODY\n} with the merchant's public key.
 *
 * @see <a href="https://pay.weixin.qq.com/docs/merchant/development/interface-rules/signature-generation.html">签名生成</a>
 */
final class WechatV3Authorization {

    static final String SCHEMA = WechatV3Signer.SCHEMA;
    static final long MAX_SKEW_SECONDS = 300;

    private static final Pattern TOKEN = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private WechatV3Authorization() {}

    /**
     * The outcome.
     *
     * @param merchant the merchant the header names, when configured (also on a failed check, so that WeChat's
     *     refusal can be signed for it); null otherwise
     * @param rejection why the request is not authentic, null when it is
     */
    record Check(WechatV3Merchant merchant, String rejection) {
        boolean ok() {
            return rejection == null;
        }
    }

    static Check check(GatewayConfig config, ReceivedRequest request, String queryMchid, Instant now) {
        String header = request.header("Authorization");
        if (header == null || !header.startsWith(SCHEMA + " ")) {
            return new Check(null, "no Authorization with schema " + SCHEMA);
        }
        Map<String, String> tokens = new HashMap<>();
        Matcher m = TOKEN.matcher(header.substring(SCHEMA.length() + 1));
        while (m.find()) {
            tokens.put(m.group(1), m.group(2));
        }
        for (String name : new String[] {"mchid", "nonce_str", "signature", "timestamp", "serial_no"}) {
            if (tokens.get(name) == null || tokens.get(name).isEmpty()) {
                return new Check(null, "Authorization lacks " + name);
            }
        }
        WechatV3Merchant merchant = config.wechatV3(tokens.get("mchid")).orElse(null);
        if (merchant == null) {
            return new Check(null, "unknown mchid " + tokens.get("mchid"));
        }
        if (!merchant.mchId().equals(queryMchid)) {
            return new Check(merchant, "the query's mchid " + queryMchid + " is not the Authorization's");
        }
        if (!merchant.merchantSerial().equals(tokens.get("serial_no"))) {
            return new Check(merchant, "serial_no " + tokens.get("serial_no") + " is not the merchant's certificate");
        }
        long timestamp;
        try {
            timestamp = Long.parseLong(tokens.get("timestamp"));
        } catch (NumberFormatException e) {
            return new Check(merchant, "timestamp is not a number");
        }
        if (Math.abs(now.getEpochSecond() - timestamp) > MAX_SKEW_SECONDS) {
            return new Check(merchant, "timestamp " + timestamp + " is more than 5 minutes off");
        }
        byte[] message = WechatV3Signer.requestMessage(
                request.method(),
                request.target(),
                tokens.get("timestamp"),
                tokens.get("nonce_str"),
                request.bodyText());
        if (!WechatV3Signer.verify(merchant.merchantPublicKey(), message, tokens.get("signature"))) {
            return new Check(merchant, "signature does not verify with the merchant's public key");
        }
        return new Check(merchant, null);
    }
}
