package io.paynotify.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paynotify.provider.RawNotify;
import io.paynotify.simulator.sign.WechatV3Signer;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Builds WeChat Pay v3 notifications the way WeChat's servers do: the resource JSON, encrypted with AES-256-GCM
 * under the channel's API v3 key, wrapped in the envelope, and signed with SHA256withRSA over
 * {@code timestamp\nnonce\nbody\n} by a platform key of {@link TestKeys}. Every step is exposed so that tests can
 * tamper with exactly one of them and sign the result again. The encryption and the signature are the simulator's
 * {@link WechatV3Signer} (proved against wechatpay-java in the simulator's tests).
 */
public final class WechatV3Fixtures {

    public static final String SIGNATURE_TYPE = WechatV3Signer.SCHEMA;
    public static final String ALGORITHM = WechatV3Signer.ALGORITHM;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private WechatV3Fixtures() {}

    /** One delivery: the exact body bytes and the headers to send with them. */
    public record Delivery(byte[] body, Map<String, String> headers) {

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The same delivery with one header replaced (or added). */
        public Delivery withHeader(String name, String value) {
            var h = new LinkedHashMap<>(headers);
            h.put(name, value);
            return new Delivery(body, h);
        }

        /** The same delivery without one header. */
        public Delivery withoutHeader(String name) {
            var h = new LinkedHashMap<>(headers);
            h.remove(name);
            return new Delivery(body, h);
        }

        /** Another body under this delivery's headers (and so its signature). */
        public Delivery withBody(byte[] other) {
            return new Delivery(other, headers);
        }

        /**
         * The delivery as the notify route hands it to the adapter, on {@link TestChannels#WX3}: header names in
         * lower case, each with its values in arrival order.
         */
        public RawNotify raw(Instant receivedAt) {
            return raw(receivedAt, null);
        }

        /** As {@link #raw(Instant)}, with one header sent twice with the same value, as a proxy might. */
        public RawNotify rawWithRepeatedHeader(Instant receivedAt, String repeated) {
            return raw(receivedAt, repeated);
        }

        private RawNotify raw(Instant receivedAt, String repeated) {
            var h = new LinkedHashMap<String, List<String>>();
            headers.forEach((name, value) -> {
                List<String> values = h.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>());
                values.add(value);
                if (name.equalsIgnoreCase(repeated)) {
                    values.add(value);
                }
            });
            if (repeated != null && !h.containsKey(repeated.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("no header " + repeated + " to repeat");
            }
            return new RawNotify(TestChannels.WX3, h, body, receivedAt);
        }
    }

    /** The decrypted resource of a successful payment on {@link TestChannels#WX3}, as a mutable map. */
    public static Map<String, Object> transaction(String outTradeNo, String transactionId, long total) {
        var r = new LinkedHashMap<String, Object>();
        r.put("mchid", TestChannels.WX3_MCH);
        r.put("appid", TestChannels.WX3_APPID);
        r.put("out_trade_no", outTradeNo);
        r.put("transaction_id", transactionId);
        r.put("trade_type", "JSAPI");
        r.put("trade_state", "SUCCESS");
        r.put("trade_state_desc", "支付成功");
        r.put("bank_type", "CMC");
        r.put("attach", "");
        r.put("success_time", "2018-06-08T10:34:56+08:00");
        r.put("payer", Map.of("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"));
        var amount = new LinkedHashMap<String, Object>();
        amount.put("total", total);
        amount.put("payer_total", total);
        amount.put("currency", "CNY");
        amount.put("payer_currency", "CNY");
        r.put("amount", amount);
        return r;
    }

    /** The decrypted resource of a refund notice ({@code REFUND.SUCCESS}): no appid, no trade_state. */
    public static Map<String, Object> refund(String outTradeNo, String transactionId, long total, long refund) {
        var r = new LinkedHashMap<String, Object>();
        r.put("mchid", TestChannels.WX3_MCH);
        r.put("out_trade_no", outTradeNo);
        r.put("transaction_id", transactionId);
        r.put("out_refund_no", "R" + outTradeNo);
        r.put("refund_id", "50000000382019052709732678859");
        r.put("refund_status", "SUCCESS");
        r.put("success_time", "2018-06-08T10:34:56+08:00");
        r.put("user_received_account", "招商银行信用卡0403");
        var amount = new LinkedHashMap<String, Object>();
        amount.put("total", total);
        amount.put("refund", refund);
        amount.put("payer_total", total);
        amount.put("payer_refund", refund);
        r.put("amount", amount);
        return r;
    }

    /**
     * The decrypted resource of a sub-merchant's payment on the service provider's channel {@link TestChannels#WX3_SP},
     * shaped as wechatpay-java's {@code partnerpayments.model.Transaction}: {@code sp_appid}, {@code sp_mchid},
     * {@code sub_mchid} (and {@code sub_appid} where the test adds one) in place of {@code appid}/{@code mchid}, the
     * payer as {@code sp_openid}/{@code sub_openid}.
     */
    public static Map<String, Object> partnerTransaction(
            String outTradeNo, String transactionId, long total, String subMchId) {
        var r = new LinkedHashMap<String, Object>();
        r.put("sp_appid", TestChannels.WX3_SP_APPID);
        r.put("sp_mchid", TestChannels.WX3_SP_MCH);
        r.put("sub_mchid", subMchId);
        Map<String, Object> direct = transaction(outTradeNo, transactionId, total);
        direct.remove("mchid");
        direct.remove("appid");
        direct.put("payer", Map.of("sp_openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o", "sub_openid", "oQpF8uMuAJO_sub0000"));
        r.putAll(direct);
        return r;
    }

    /** A sub-merchant's refund resource on {@link TestChannels#WX3_SP}: {@code sp_mchid} and {@code sub_mchid}. */
    public static Map<String, Object> partnerRefund(
            String outTradeNo, String transactionId, long total, long refund, String subMchId) {
        var r = new LinkedHashMap<String, Object>();
        r.put("sp_mchid", TestChannels.WX3_SP_MCH);
        r.put("sub_mchid", subMchId);
        Map<String, Object> direct = refund(outTradeNo, transactionId, total, refund);
        direct.remove("mchid");
        r.putAll(direct);
        return r;
    }

    /** As {@link #body}, encrypted with the API v3 key of {@link TestChannels#WX3_SP}. */
    public static String partnerBody(String eventType, Map<String, Object> resourceFields) {
        String nonce = random(12);
        String ciphertext = encrypt(
                TestChannels.WX3_SP_API_V3_KEY.getBytes(StandardCharsets.UTF_8),
                nonce,
                "transaction",
                json(resourceFields).getBytes(StandardCharsets.UTF_8));
        return json(envelope(eventType, "支付成功", resource(ciphertext, nonce, "transaction")));
    }

    /** Signs the body with the WeChat Pay public key of {@link TestChannels#WX3_SP}, at that time. */
    public static Delivery partnerSignedAt(String body, long timestamp) {
        return signed(
                body.getBytes(StandardCharsets.UTF_8),
                TestKeys.WECHAT_V3_PUBKEY,
                TestChannels.WX3_SP_PUBKEY_ID,
                timestamp);
    }

    /** A signed TRANSACTION.SUCCESS notice of that sub-merchant on {@link TestChannels#WX3_SP}, timestamped now. */
    public static Delivery partnerPaid(String outTradeNo, String transactionId, long total, String subMchId) {
        return partnerSignedAt(
                partnerBody("TRANSACTION.SUCCESS", partnerTransaction(outTradeNo, transactionId, total, subMchId)),
                Instant.now().getEpochSecond());
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Base64 of AES-256-GCM(plaintext) ‖ tag, the nonce and associated data entering as UTF-8 (null aad = none). */
    public static String encrypt(byte[] key, String nonce, String associatedData, byte[] plaintext) {
        return WechatV3Signer.encrypt(key, nonce, associatedData, plaintext);
    }

    /** Encrypts with the API v3 key of {@link TestChannels#WX3}. */
    public static String encrypt(String nonce, String associatedData, String plaintext) {
        return encrypt(
                TestChannels.WX3_API_V3_KEY.getBytes(StandardCharsets.UTF_8),
                nonce,
                associatedData,
                plaintext.getBytes(StandardCharsets.UTF_8));
    }

    /** The envelope's {@code resource} object, the ciphertext already made. A null associatedData is left out. */
    public static Map<String, Object> resource(String ciphertext, String nonce, String associatedData) {
        var r = new LinkedHashMap<String, Object>();
        r.put("original_type", "transaction");
        r.put("algorithm", ALGORITHM);
        r.put("ciphertext", ciphertext);
        if (associatedData != null) {
            r.put("associated_data", associatedData);
        }
        r.put("nonce", nonce);
        return r;
    }

    /** The envelope around a resource object, with a fresh event id. */
    public static Map<String, Object> envelope(String eventType, String summary, Map<String, Object> resource) {
        var e = new LinkedHashMap<String, Object>();
        e.put("id", "EV-" + UUID.randomUUID());
        e.put("create_time", "2015-05-20T13:29:35+08:00");
        e.put("resource_type", "encrypt-resource");
        e.put("event_type", eventType);
        e.put("summary", summary);
        e.put("resource", resource);
        return e;
    }

    /** Encrypts the resource (fresh nonce, associated data "transaction") and wraps it: the body text. */
    public static String body(String eventType, Map<String, Object> resourceFields) {
        String nonce = random(12);
        String ciphertext = encrypt(nonce, "transaction", json(resourceFields));
        return json(envelope(eventType, "支付成功", resource(ciphertext, nonce, "transaction")));
    }

    /** Signs the body with the platform key that {@link TestChannels#WX3_CERT_SERIAL} names, timestamped now. */
    public static Delivery signed(String body) {
        return signed(
                body.getBytes(StandardCharsets.UTF_8),
                TestKeys.WECHAT_V3_CERT,
                TestChannels.WX3_CERT_SERIAL,
                Instant.now().getEpochSecond());
    }

    /** Signs the body with the platform key that {@link TestChannels#WX3_CERT_SERIAL} names, at that time. */
    public static Delivery signedAt(String body, long timestamp) {
        return signed(
                body.getBytes(StandardCharsets.UTF_8),
                TestKeys.WECHAT_V3_CERT,
                TestChannels.WX3_CERT_SERIAL,
                timestamp);
    }

    /**
     * Signs {@code timestamp\nnonce\nbody\n} with the private key of {@code keyName} and sends {@code serial} with
     * it (a serial that does not belong to the key makes a delivery that must fail).
     */
    public static Delivery signed(byte[] body, String keyName, String serial, long timestamp) {
        var h = new LinkedHashMap<String, String>();
        h.put("Content-Type", "application/json");
        h.putAll(WechatV3Signer.headers(TestKeys.pair(keyName).getPrivate(), serial, timestamp, random(32), body));
        return new Delivery(body, h);
    }

    /** Base64 SHA256withRSA over the three lines, each ending in a line feed. */
    public static String sign(PrivateKey key, String timestamp, String nonce, byte[] body) {
        return WechatV3Signer.sign(key, timestamp, nonce, body);
    }

    /** A signed TRANSACTION.SUCCESS notice for a payment of {@code total} fen on {@link TestChannels#WX3}. */
    public static Delivery paid(String outTradeNo, String transactionId, long total) {
        return signed(body("TRANSACTION.SUCCESS", transaction(outTradeNo, transactionId, total)));
    }

    /** As {@link #paid(String, String, long)}, signed at that time (unix seconds). */
    public static Delivery paidAt(String outTradeNo, String transactionId, long total, long timestamp) {
        return signedAt(body("TRANSACTION.SUCCESS", transaction(outTradeNo, transactionId, total)), timestamp);
    }

    /**
     * The resource object of the envelope, the fields encrypted with the channel's API v3 key under a fresh nonce and
     * the associated data "transaction", as {@link #body} does it.
     */
    public static Map<String, Object> sealed(Map<String, Object> resourceFields) {
        String nonce = random(12);
        return resource(encrypt(nonce, "transaction", json(resourceFields)), nonce, "transaction");
    }

    /** The envelope text of that event around a resource object the test built (to tamper with one part of it). */
    public static String envelopeBody(String eventType, Map<String, Object> resourceObject) {
        return json(envelope(eventType, "支付成功", resourceObject));
    }

    /** Random alphanumeric text, as WeChat's nonces are. */
    public static String random(int length) {
        var sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(ALNUM.charAt(RANDOM.nextInt(ALNUM.length())));
        }
        return sb.toString();
    }
}
